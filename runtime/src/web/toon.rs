//! `GET /api/toon`: TOON frames over a WebSocket, the orchestrator ↔
//! subagent use of the TOON seed. A `TOOL_CALL` is answered by a
//! `TOOL_RESULT` with its sequence id; `STATUS` frames report a job's
//! progress meanwhile. Calls on one socket run concurrently.

use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::extract::State;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade, close_code};
use axum::http::{HeaderMap, Uri};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use tokio::sync::{Semaphore, mpsc};

use super::Web;
use super::followed::{Followed, Step};
use crate::edge::{Arguments, Edge, Prepared, WithTag};
use crate::port::{CallOptions, CallPort};
use crate::toon::{
    Decoder, Encoder, ErrorMessage, Heartbeat, MessageType, Stamp, Status, ToolResult, Version,
};
use crate::{Json, Principal, ResponseEnvelope, ToolError, ToolInfo, codes};

/// Calls one socket may have running; a call beyond them is answered
/// `BUSY` at once.
const CALLS_PER_SOCKET: usize = 64;

/// Frames waiting to be written to one socket. Each running call queues at
/// most a result and its latest progress, so this bounds what a slow
/// reader can make the server hold.
const OUTBOX: usize = 256;

pub(super) async fn serve<P: CallPort>(
    State(web): State<Arc<Web<P>>>,
    headers: HeaderMap,
    uri: Uri,
    // Taken as a `Result`, so the access rules answer before a request
    // that is not an upgrade is refused as one.
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let principal = match web
        .access
        .admit_socket(&headers, uri.query().unwrap_or(""))
        .await
    {
        Ok(principal) => principal,
        Err(refused) => return refused.into_response(),
    };
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(rejection) => return rejection.into_response(),
    };
    let max = u32::try_from(web.config.max_body_bytes).unwrap_or(u32::MAX);
    upgrade
        .max_message_size(web.config.max_body_bytes.saturating_add(64))
        .on_upgrade(move |socket| session(web, socket, max, principal))
        .into_response()
}

/// Serves one socket until it closes or the server shuts down.
async fn session<P: CallPort>(
    web: Arc<Web<P>>,
    mut socket: WebSocket,
    max_payload: u32,
    principal: Option<Arc<Principal>>,
) {
    let decoder = Decoder::new().max_payload(max_payload);
    let (outbox, mut frames) = mpsc::channel::<Vec<u8>>(OUTBOX);
    let running = Arc::new(Semaphore::new(CALLS_PER_SOCKET));
    let shutdown = web.config.shutdown.clone();
    loop {
        tokio::select! {
            frame = frames.recv() => {
                let Some(frame) = frame else { break };
                if socket.send(Message::Binary(frame.into())).await.is_err() {
                    break;
                }
            }
            message = socket.recv() => match message {
                Some(Ok(Message::Binary(bytes))) => {
                    if let Some(reply) = receive(&web, &decoder, &bytes, &outbox, &running, principal.as_ref())
                        && socket.send(Message::Binary(reply.into())).await.is_err()
                    {
                        break;
                    }
                }
                Some(Ok(Message::Text(_))) => {
                    let _ = socket
                        .send(Message::Close(Some(CloseFrame {
                            code: close_code::UNSUPPORTED,
                            reason: "TOON frames are binary messages".into(),
                        })))
                        .await;
                    break;
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                // Pings are answered by the socket itself.
                Some(Ok(_)) => {}
            },
            () = shutdown.cancelled() => {
                let _ = socket.send(Message::Close(Some(CloseFrame {
                    code: close_code::AWAY,
                    reason: "the server is shutting down".into(),
                }))).await;
                break;
            }
        }
    }
}

/// Handles one frame: answers it at once (heartbeat, error), or starts the
/// call it carries, whose frames go to `outbox`.
fn receive<P: CallPort>(
    web: &Arc<Web<P>>,
    decoder: &Decoder,
    bytes: &[u8],
    outbox: &mpsc::Sender<Vec<u8>>,
    running: &Arc<Semaphore>,
    principal: Option<&Arc<Principal>>,
) -> Option<Vec<u8>> {
    let frame = match decoder.decode_frame(bytes) {
        Ok(frame) => frame,
        Err(e) => return frame_error(Version::V1, 0, e.kind().as_str(), e.reason()),
    };
    let header = *frame.header();
    let (version, seq) = (header.version, header.sequence_id);
    match header.message_type {
        MessageType::Heartbeat => encode(version, seq, MessageType::Heartbeat, &Heartbeat {}),
        MessageType::ToolCall => {
            // The call goes to the edge as JSON arguments, as every other
            // door's does: no typed decode here, and the port's is the
            // only one.
            let call = match frame.value::<CallPayload>() {
                Ok(call) => call,
                Err(e) => return frame_error(version, seq, e.kind().as_str(), e.reason()),
            };
            let tool = match Edge::<P>::tool(&call.tool) {
                Ok(tool) => tool,
                Err(e) => {
                    web.edge.refused(&call.tool, &e, principal.map(|p| &**p));
                    return result::<()>(version, seq, &call.tool, Err(e), 0);
                }
            };
            let Ok(permit) = running.clone().try_acquire_owned() else {
                let busy = ToolError::new(
                    codes::BUSY,
                    format!("this socket already runs {CALLS_PER_SOCKET} calls"),
                );
                return result::<()>(version, seq, tool.name, Err(busy), 0);
            };
            let (web, outbox) = (web.clone(), outbox.clone());
            let principal = principal.cloned();
            tokio::spawn(async move {
                let _permit = permit;
                let options = super::call_options(principal);
                let frame = run(&web, tool, call.args, (version, seq), options, &outbox).await;
                if let Some(frame) = frame {
                    let _ = outbox.send(frame).await;
                }
            });
            None
        }
        other => frame_error(
            version,
            seq,
            "unexpected_type",
            &format!(
                "this endpoint answers TOOL_CALL and HEARTBEAT frames, not {}",
                other.name()
            ),
        ),
    }
}

/// A `TOOL_CALL` payload, `{"toolName": str, "args": {...}}`, with the
/// arguments as JSON (`bin` as base64, as JSON carries `bytes`).
#[derive(Deserialize)]
struct CallPayload {
    #[serde(rename = "toolName")]
    tool: String,
    args: Arguments,
}

/// Runs one call to its end through the edge, sending `STATUS` frames
/// for its job's progress; the `TOOL_RESULT` frame.
async fn run<P: CallPort>(
    web: &Arc<Web<P>>,
    tool: &'static ToolInfo,
    Arguments(mut args): Arguments,
    (version, seq): (Version, u32),
    options: CallOptions,
    outbox: &mpsc::Sender<Vec<u8>>,
) -> Option<Vec<u8>> {
    let started = Instant::now();
    let elapsed = || u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let edge = &web.edge;
    let request = match edge.prepare(tool, &mut args, options.principal.as_deref()) {
        Prepared::Call(request) => request,
        Prepared::Answered(Ok(answer)) => {
            let mut value = answer.value;
            crate::wire::untag(&mut value);
            let fields = match value {
                Json::Object(fields) => fields,
                _ => serde_json::Map::new(),
            };
            let response = WithTag {
                tag: crate::wire::TOOL_TAG,
                tool: tool.name,
                args: &fields,
            };
            return result(version, seq, tool.name, Ok(response), elapsed());
        }
        Prepared::Answered(Err(e)) => return result::<()>(version, seq, tool.name, Err(e), 0),
    };
    let mut followed = Followed::start(web, tool, request, options);
    let envelope = loop {
        match followed.next().await {
            Some(Step::Ended(envelope)) => break envelope,
            Some(Step::Progress { fraction, .. }) => {
                let status = Status {
                    status: "running".into(),
                    progress: Some(f64::from(fraction)),
                };
                // A reader too slow for progress loses some; never the result.
                if let Some(frame) = encode(version, seq, MessageType::Status, &status) {
                    let _ = outbox.try_send(frame);
                }
            }
            // TOON's `STATUS` carries no chunk: a subagent gets the result.
            Some(Step::Job { .. } | Step::Chunk { .. }) => {}
            None => {
                return result::<()>(
                    version,
                    seq,
                    tool.name,
                    Err(ToolError::internal("the call ended without an answer")),
                    elapsed(),
                );
            }
        }
    };
    let outcome = match edge.finish(tool, &args, envelope) {
        ResponseEnvelope::Success(response) => Ok(response),
        ResponseEnvelope::Error(e) => Err(e),
        ResponseEnvelope::JobStarted { job_id, .. } => Err(ToolError::internal(format!(
            "the call runs on as job `{job_id}`"
        ))),
        _ => Err(ToolError::internal("the call ended without an answer")),
    };
    result(version, seq, tool.name, outcome, elapsed())
}

fn result<R: Serialize>(
    version: Version,
    seq: u32,
    tool: &str,
    outcome: Result<R, ToolError>,
    duration_ms: u64,
) -> Option<Vec<u8>> {
    let result = ToolResult {
        tool: tool.to_owned(),
        outcome,
        duration_ms,
    };
    match Encoder::new(version).encode_tool_result(stamp(seq), &result) {
        Ok(frame) => Some(frame),
        Err(e) => frame_error(version, seq, "encode", &e.to_string()),
    }
}

fn frame_error(version: Version, seq: u32, code: &str, message: &str) -> Option<Vec<u8>> {
    let error = ErrorMessage {
        code: code.to_owned(),
        message: message.to_owned(),
    };
    encode(version, seq, MessageType::Error, &error)
}

fn encode<T: Serialize>(
    version: Version,
    seq: u32,
    kind: MessageType,
    payload: &T,
) -> Option<Vec<u8>> {
    Encoder::new(version).encode(kind, stamp(seq), payload).ok()
}

fn stamp(sequence_id: u32) -> Stamp {
    let timestamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    Stamp {
        timestamp,
        sequence_id,
    }
}
