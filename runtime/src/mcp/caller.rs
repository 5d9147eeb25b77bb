//! The MCP client of a call as its handler's [`Caller`]: log messages as
//! `notifications/message` (at or above the session's `logging/setLevel`),
//! progress as `notifications/progress`, sampling as
//! `sampling/createMessage`, elicitation as `elicitation/create`.
//!
//! Logs and progress are queued for the call's own loop (`call.rs`), which
//! sends them in order with the call's stream chunks while the client waits,
//! and what is left before the answer; the queue is bounded, and a handler
//! that floods it loses messages rather than growing the server's memory.
//! Sampling and elicitation go to the client at once, on the session the
//! call came from, after checking that the client declared the capability.

// MCP 2026-07-28 deprecates server-to-client requests and logging in favour
// of results that ask for input (SEP-2577); up to 2025-11-25 these are how
// a server logs, samples and elicits, and rmcp marks them deprecated.
#![allow(deprecated)]

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{
    ClientCapabilities, CreateMessageRequestParams, ElicitRequestParams, ElicitationAction,
    LoggingLevel, LoggingMessageNotificationParam,
};
use rmcp::service::{Peer, RequestContext, ServiceError};
use serde_json::json;
use tokio::sync::{Notify, mpsc};
use tokio_util::sync::CancellationToken;

use super::call::Progress;
use super::http::RequestStream;
use crate::caller::{self, Caller, CallerFuture, Elicited, LogLevel, Sampled, SamplingRequest};
use crate::{Json, ToolError, codes};

/// How many log messages and progress reports may wait for the call's loop.
const QUEUE: usize = 256;

/// A session's `logging/setLevel`: the least severe level it takes; every
/// level until the client sets one.
pub(super) type SessionLevel = Arc<Mutex<Option<LogLevel>>>;

/// What a handler sends its client while the client waits.
#[derive(Debug)]
pub(super) enum Told {
    Log {
        level: LogLevel,
        logger: Option<String>,
        data: Json,
    },
    Progress(f32),
}

/// Which log messages a call's client takes.
#[derive(Debug)]
pub(super) enum Heard {
    /// Up to 2025-11-25: the session's `logging/setLevel`.
    Session(SessionLevel),
    /// On 2026-07-28: what the request opts into with
    /// `io.modelcontextprotocol/logLevel` in its `_meta`; none without it.
    Request(Option<LogLevel>),
}

/// The MCP client of one call.
#[derive(Debug)]
pub(super) struct McpCaller {
    peer: Peer<RoleServer>,
    heard: Heard,
    /// The request speaks 2026-07-28, which has no server-to-client
    /// requests: it asks for input through `input_required` results.
    modern: bool,
    told: mpsc::Sender<Told>,
    /// The stream the answer goes on, when the call came over stateful
    /// Streamable HTTP.
    stream: Option<RequestStream>,
    /// Set once the handler has closed that stream.
    resumed: Resumption,
}

/// Whether a call's handler closed its stream, and the signal that the
/// client has resumed it.
#[derive(Clone, Debug, Default)]
pub(super) struct Resumption(Arc<Mutex<Option<Arc<Notify>>>>);

impl Resumption {
    /// Waits until the client has resumed a stream the handler closed
    /// (at once when none was closed), the call is cancelled, or `grace`
    /// has passed: a client that never comes back cannot be answered.
    pub(super) async fn wait(&self, cancelled: &CancellationToken, grace: Duration) {
        let closed = self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(resumed) = closed {
            tokio::select! {
                () = resumed.notified() => {}
                () = cancelled.cancelled() => {}
                () = tokio::time::sleep(grace) => {}
            }
        }
    }
}

impl McpCaller {
    /// The caller of one `tools/call`, and the queue of what its handler
    /// tells it.
    pub(super) fn for_request(
        context: &RequestContext<RoleServer>,
        session: &SessionLevel,
    ) -> (Self, mpsc::Receiver<Told>) {
        let modern = context.meta.protocol_version().is_some();
        let heard = if modern {
            Heard::Request(context.meta.log_level().map(log_level))
        } else {
            Heard::Session(session.clone())
        };
        let (told, rx) = mpsc::channel(QUEUE);
        let caller = McpCaller {
            peer: context.peer.clone(),
            heard,
            modern,
            told,
            stream: context.extensions.get::<RequestStream>().cloned(),
            resumed: Resumption::default(),
        };
        (caller, rx)
    }

    /// What the call waits on before answering, once the handler has
    /// closed its stream.
    pub(super) fn resumption(&self) -> Resumption {
        self.resumed.clone()
    }

    fn takes(&self, level: LogLevel) -> bool {
        match &self.heard {
            Heard::Session(session) => {
                let least = *session.lock().unwrap_or_else(PoisonError::into_inner);
                least.is_none_or(|least| level >= least)
            }
            Heard::Request(least) => least.is_some_and(|least| level >= least),
        }
    }

    /// Why the client cannot be asked for `what`, if it cannot: it speaks
    /// 2026-07-28, or did not declare `capability` (which `declared` finds
    /// in its capabilities).
    fn cannot_ask(
        &self,
        capability: &str,
        declared: fn(&ClientCapabilities) -> bool,
        what: &str,
    ) -> Option<ToolError> {
        if self.modern {
            return Some(caller::unsupported(&format!(
                "{what} on MCP 2026-07-28, which asks for input through `input_required` \
                 results; this server does not send those yet"
            )));
        }
        let declared = self
            .peer
            .peer_info()
            .is_some_and(|info| declared(&info.capabilities));
        (!declared).then(|| {
            caller::unsupported(&format!(
                "{what}: it did not declare the `{capability}` capability"
            ))
        })
    }
}

impl Caller for McpCaller {
    fn log(&self, level: LogLevel, logger: Option<&str>, data: Json) {
        if self.takes(level) {
            let logger = logger.map(str::to_owned);
            // A full queue drops the message: see the module's doc.
            let _ = self.told.try_send(Told::Log {
                level,
                logger,
                data,
            });
        }
    }

    fn progress(&self, fraction: f32) {
        let _ = self.told.try_send(Told::Progress(fraction));
    }

    fn sample(&self, request: SamplingRequest) -> CallerFuture<Sampled> {
        if let Some(e) = self.cannot_ask(
            "sampling",
            |c| c.sampling.is_some(),
            "a completion (sampling)",
        ) {
            return Box::pin(async { Err(e) });
        }
        let peer = self.peer.clone();
        Box::pin(async move {
            let params: CreateMessageRequestParams =
                serde_json::from_value(sampling_params(&request))
                    .map_err(|e| ToolError::internal(format!("sampling request: {e}")))?;
            let result = peer
                .create_message(params)
                .await
                .map_err(|e| refused("sampling", e))?;
            let content = serde_json::to_value(&result.message.content).unwrap_or(Json::Null);
            let mut sampled = Sampled::new(text_of(&content), result.model);
            sampled.stop_reason = result.stop_reason;
            Ok(sampled)
        })
    }

    fn close_stream(&self, retry: Duration) -> CallerFuture<bool> {
        let (Some(stream), resumed) = (self.stream.clone(), self.resumed.clone()) else {
            return Box::pin(async { Ok(false) });
        };
        Box::pin(async move {
            let Some(notify) = stream.close(retry).await else {
                return Ok(false);
            };
            *resumed.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(notify);
            Ok(true)
        })
    }

    fn elicit(&self, message: String, schema: Json) -> CallerFuture<Elicited<Json>> {
        if let Some(e) = self.cannot_ask(
            "elicitation",
            |c| c.elicitation.is_some(),
            "input (elicitation)",
        ) {
            return Box::pin(async { Err(e) });
        }
        let peer = self.peer.clone();
        Box::pin(async move {
            let params: ElicitRequestParams = serde_json::from_value(json!({
                "mode": "form",
                "message": message,
                "requestedSchema": schema,
            }))
            .map_err(|e| {
                ToolError::invalid_request(format!(
                    "not a schema MCP elicitation takes (a flat object of strings, numbers, \
                     booleans and enums): {e}"
                ))
            })?;
            let result = peer
                .create_elicitation(params)
                .await
                .map_err(|e| refused("elicitation", e))?;
            Ok(match result.action {
                ElicitationAction::Accept => {
                    Elicited::Accepted(result.content.unwrap_or_else(|| json!({})))
                }
                ElicitationAction::Decline => Elicited::Declined,
                _ => Elicited::Cancelled,
            })
        })
    }
}

/// Sends what the handler told its client before the call ended.
pub(super) async fn drain(
    told: &mut mpsc::Receiver<Told>,
    peer: &Peer<RoleServer>,
    progress: &mut Option<Progress>,
) {
    while let Ok(message) = told.try_recv() {
        tell(peer, progress, message).await;
    }
}

/// Sends one thing the handler told its client: a log message as
/// `notifications/message`, progress as `notifications/progress` when the
/// caller gave a progress token. A client that went away just stops
/// receiving them.
pub(super) async fn tell(peer: &Peer<RoleServer>, progress: &mut Option<Progress>, told: Told) {
    match told {
        Told::Log {
            level,
            logger,
            data,
        } => {
            let mut param = LoggingMessageNotificationParam::new(logging_level(level), data);
            param.logger = logger;
            let _ = peer.notify_logging_message(param).await;
        }
        Told::Progress(fraction) => {
            if let Some(progress) = progress {
                progress.send(format!("{:.0}%", fraction * 100.0)).await;
            }
        }
    }
}

/// A log level from MCP's name for it.
fn log_level(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

/// MCP's name for a log level.
pub(super) fn logging_level(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}

/// `sampling/createMessage`'s parameters for `request`, text messages only.
fn sampling_params(request: &SamplingRequest) -> Json {
    let messages: Vec<Json> = request
        .messages
        .iter()
        .map(|m| json!({"role": m.role, "content": {"type": "text", "text": m.text}}))
        .collect();
    let mut params = json!({"messages": messages, "maxTokens": request.max_tokens});
    if let Some(prompt) = &request.system_prompt {
        params["systemPrompt"] = json!(prompt);
    }
    params
}

/// The text of a sampled message's content: one block or several.
fn text_of(content: &Json) -> String {
    let blocks = match content {
        Json::Array(blocks) => blocks.iter().collect(),
        block => vec![block],
    };
    blocks
        .into_iter()
        .filter(|b| b["type"] == "text")
        .filter_map(|b| b["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The handler's error for a question the client did not answer.
fn refused(what: &str, e: ServiceError) -> ToolError {
    match e {
        ServiceError::McpError(e) if e.code.0 == -32601 => {
            caller::unsupported(&format!("{what}: {}", e.message))
        }
        ServiceError::McpError(e) => ToolError::new(
            codes::UNAVAILABLE,
            format!(
                "the client answered the {what} request with an error: {}",
                e.message
            ),
        ),
        ServiceError::Timeout { .. } => ToolError::timeout(format!(
            "the client did not answer the {what} request in time"
        )),
        other => ToolError::new(
            codes::UNAVAILABLE,
            format!("the {what} request did not reach the client: {other}"),
        ),
    }
}
