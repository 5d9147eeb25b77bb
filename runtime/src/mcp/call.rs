//! One `tools/call`: the arguments become the typed request through the
//! JSON → MsgPack decode, and the call runs as its timing class says,
//! answered inline or with a job handle, with stream chunks and job progress
//! sent as `notifications/progress` while the caller waits.

use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{CallToolResult, JsonObject, ProgressNotificationParam, ProgressToken};
use rmcp::service::Peer;
use serde::Serialize;
use serde::ser::SerializeMap as _;
use tokio::sync::{broadcast, mpsc};
use tokio_util::sync::CancellationToken;

use super::{McpServer, chunk, result, validation};
use crate::jobs::JobEvent;
use crate::{
    CallInfo, Catalogue, ResponseEnvelope, Service, ToolError, ToolInfo, ToolTiming, codec,
};

pub(super) type RequestOf<S> = <<S as Service>::Catalogue as Catalogue>::Request;
pub(super) type ResponseOf<S> = <<S as Service>::Catalogue as Catalogue>::Response;
pub(super) type Envelope<S> = ResponseEnvelope<ResponseOf<S>>;

/// The job tool that waits, during which its caller is sent progress.
const JOB_POLL: &str = "job_poll";

/// Where a call's progress goes: the caller's `progressToken` on the
/// session it called from.
pub(super) struct Progress {
    token: ProgressToken,
    peer: Peer<RoleServer>,
    /// Notifications sent so far: the `progress` value, which must grow.
    sent: u32,
}

impl Progress {
    pub(super) fn new(token: ProgressToken, peer: Peer<RoleServer>) -> Self {
        Progress {
            token,
            peer,
            sent: 0,
        }
    }

    /// Sends one `notifications/progress`. A client that went away just
    /// stops receiving them.
    pub(super) async fn send(&mut self, message: String) {
        self.sent = self.sent.saturating_add(1);
        let param = ProgressNotificationParam::new(self.token.clone(), f64::from(self.sent))
            .with_message(message);
        let _ = self.peer.notify_progress(param).await;
    }

    /// Reports a job event: a chunk as its JSON, progress as a percentage.
    async fn event(&mut self, event: &JobEvent) {
        match event {
            JobEvent::Chunk { chunk, .. } => self.send(chunk::text(chunk)).await,
            JobEvent::Progress { job_id, fraction } => {
                self.send(format!("{job_id}: {:.0}%", fraction * 100.0))
                    .await;
            }
            _ => {}
        }
    }
}

/// The jobs a `job_poll` call waits on, whose events its caller is sent:
/// the listed ones, or every job when the list is empty.
pub(super) struct Watched(Vec<String>);

impl Watched {
    /// What a `job_poll` call's arguments ask to wait on.
    pub(super) fn from_poll(args: &JsonObject) -> Self {
        let ids = args
            .get("job_ids")
            .and_then(|ids| ids.as_array())
            .map(|ids| {
                ids.iter()
                    .filter_map(|id| id.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        Watched(ids)
    }

    fn contains(&self, job_id: &str) -> bool {
        self.0.is_empty() || self.0.iter().any(|id| id == job_id)
    }
}

impl<S: Service> McpServer<S> {
    /// Answers a call of `tool` (a tool of the catalogue) with `args`.
    pub(super) async fn call(
        &self,
        tool: &'static ToolInfo,
        args: &JsonObject,
        ct: CancellationToken,
        progress: Option<Progress>,
    ) -> CallToolResult {
        let watched = (tool.name == JOB_POLL).then(|| Watched::from_poll(args));
        match self.decode(tool, args).await {
            Ok(request) => self.run(request, ct, progress, watched).await,
            Err(refused) => refused,
        }
    }

    /// The typed request for a call of `tool` with `args`, or the error
    /// result that names what is wrong with them.
    pub(super) async fn decode(
        &self,
        tool: &'static ToolInfo,
        args: &JsonObject,
    ) -> Result<RequestOf<S>, CallToolResult> {
        let limits = self.dispatcher.config().limits;
        let msgpack = request_msgpack(tool.name, args, limits).map_err(|e| result::error(&e))?;
        match codec::from_msgpack::<RequestOf<S>>(&msgpack, limits) {
            Ok(request) => Ok(request),
            Err(_) => Err(self.explain(tool, args, &msgpack).await),
        }
    }

    /// The error for a request that does not decode. The dispatcher's own
    /// decode names the field that failed; the tool's input schema adds the
    /// type it expected. Only failed calls pay for the second decode.
    async fn explain(&self, tool: &ToolInfo, args: &JsonObject, msgpack: &[u8]) -> CallToolResult {
        let answer = self.dispatcher.call_msgpack(msgpack).await;
        match codec::from_msgpack::<Envelope<S>>(&answer, codec::Limits::default()) {
            Ok(ResponseEnvelope::Error(e)) => {
                result::error(&validation::explain(e, &self.schema, tool, args))
            }
            Ok(other) => result::from_envelope(other),
            Err(e) => result::error(&e),
        }
    }

    /// Runs a decoded call as its timing class says.
    async fn run(
        &self,
        request: RequestOf<S>,
        ct: CancellationToken,
        progress: Option<Progress>,
        watched: Option<Watched>,
    ) -> CallToolResult {
        let info = S::Catalogue::call_info(&request);
        if !info.timing.is_job() || info.tool.builtin {
            return self
                .run_inline(request, info, ct, progress.zip(watched))
                .await;
        }
        let budget = match info.timing {
            ToolTiming::AsyncShort => self.dispatcher.config().short_wait,
            ToolTiming::AsyncMedium => self.dispatcher.config().medium_wait,
            _ => Duration::ZERO,
        };
        let mut stream = self.dispatcher.call_streaming(request).await;
        let job_id = match stream.recv().await {
            Some(ResponseEnvelope::StreamStart { job_id, .. }) => job_id,
            // Refused before it started (shutting down): its one answer.
            Some(envelope) => return result::from_envelope(envelope),
            None => return result::error(&ToolError::internal("the job ended without an answer")),
        };
        if budget.is_zero() {
            return result::job_handle(&job_id, info.tool.name, info.timing);
        }
        self.follow(&job_id, info, &mut stream, budget, ct, progress)
            .await
    }

    /// A call without a job of its own: a `sync` tool or a job tool. A
    /// `job_poll` whose caller gave a progress token is sent the events of
    /// the jobs it waits on.
    async fn run_inline(
        &self,
        request: RequestOf<S>,
        info: CallInfo,
        ct: CancellationToken,
        watch: Option<(Progress, Watched)>,
    ) -> CallToolResult {
        // Subscribed before the call starts, so no event between the two is
        // missed.
        let mut events = watch.as_ref().map(|_| self.dispatcher.subscribe());
        let (mut progress, watched) = watch.unzip();
        let call = self.dispatcher.call(request);
        tokio::pin!(call);
        loop {
            tokio::select! {
                envelope = &mut call => {
                    // What the polled jobs sent before they ended goes out
                    // before the answer.
                    if let (Some(rx), Some(progress), Some(watched)) = (&mut events, &mut progress, &watched) {
                        while let Ok(event) = rx.try_recv() {
                            if watched.contains(event.job_id()) {
                                progress.event(&event).await;
                            }
                        }
                    }
                    return result::from_envelope(envelope);
                }
                // No job to cancel: dropping the handler's future stops it
                // at its next `.await`.
                () = ct.cancelled() => return result::error(&cancelled(info.tool.name)),
                event = next_event(&mut events) => match event {
                    Some(event) => {
                        if let (Some(progress), Some(watched)) = (&mut progress, &watched)
                            && watched.contains(event.job_id())
                        {
                            progress.event(&event).await;
                        }
                    }
                    None => events = None,
                },
            }
        }
    }

    /// Follows a started job for at most `budget`: its answer, else its
    /// handle; cancelled with the call. Chunks go to the caller as progress.
    async fn follow(
        &self,
        job_id: &str,
        info: CallInfo,
        stream: &mut mpsc::UnboundedReceiver<Envelope<S>>,
        budget: Duration,
        ct: CancellationToken,
        mut progress: Option<Progress>,
    ) -> CallToolResult {
        let handle = || result::job_handle(job_id, info.tool.name, info.timing);
        let expired = tokio::time::sleep(budget);
        tokio::pin!(expired);
        loop {
            tokio::select! {
                envelope = stream.recv() => match envelope {
                    Some(ResponseEnvelope::StreamChunk { chunk, .. }) => {
                        if let Some(progress) = &mut progress {
                            progress.send(chunk::text(&chunk)).await;
                        }
                    }
                    Some(ResponseEnvelope::StreamEnd { .. } | ResponseEnvelope::StreamStart { .. }) => {}
                    Some(envelope) => return result::from_envelope(envelope),
                    // The stream closed without an answer: the store has it.
                    None => return handle(),
                },
                () = &mut expired => return handle(),
                () = ct.cancelled() => {
                    // The handler sees its token at once; this returns when it
                    // has stopped or the grace has run out.
                    let _ = self.dispatcher.jobs().cancel(job_id).await;
                    return result::error(&cancelled(info.tool.name));
                }
            }
        }
    }
}

/// The next job event, or `None` once there are none to come; pending for
/// ever without a subscription. A receiver that fell behind skips ahead.
async fn next_event(events: &mut Option<broadcast::Receiver<JobEvent>>) -> Option<JobEvent> {
    let Some(rx) = events else {
        return std::future::pending().await;
    };
    loop {
        match rx.recv().await {
            Ok(event) => return Some(event),
            Err(broadcast::error::RecvError::Lagged(_)) => {}
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}

/// `{"tool": name, "action": …, …args}` as MsgPack: the tag first and the
/// action second, as the decoder reads them. The same bytes as writing the
/// JSON and transcoding it (`codec::json_to_msgpack`), without the JSON.
fn request_msgpack(
    tool: &str,
    args: &JsonObject,
    limits: codec::Limits,
) -> Result<Vec<u8>, ToolError> {
    let mut out = Vec::with_capacity(64);
    RequestArgs { tool, args }
        .serialize(&mut rmp_serde::Serializer::new(&mut out))
        .map_err(|e| ToolError::internal(format!("cannot encode the arguments: {e}")))?;
    limits.check_size(out.len())?;
    Ok(out)
}

/// A call's arguments with its tool's name, in the request's key order.
struct RequestArgs<'a> {
    tool: &'a str,
    args: &'a JsonObject,
}

impl Serialize for RequestArgs<'_> {
    fn serialize<Ser: serde::Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        let mut map = serializer.serialize_map(Some(self.args.len() + 1))?;
        map.serialize_entry("tool", self.tool)?;
        if let Some(action) = self.args.get("action") {
            map.serialize_entry("action", action)?;
        }
        for (key, value) in self.args.iter().filter(|(key, _)| *key != "action") {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

pub(super) fn cancelled(tool: &str) -> ToolError {
    ToolError::cancelled(format!("the call of `{tool}` was cancelled by the client"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arguments_encode_as_the_transcoded_json_would() {
        let args = json!({"b": [1, -2, 3.5, null, true], "action": "write", "a": {"x": "é"}, "n": 18446744073709551615u64});
        let Some(args) = args.as_object() else {
            panic!("an object");
        };
        let limits = codec::Limits::default();
        let direct = request_msgpack("fs", args, limits).unwrap_or_else(|e| panic!("{e:?}"));
        let mut json = br#"{"tool":"fs","action":"write""#.to_vec();
        for (key, value) in args.iter().filter(|(k, _)| *k != "action") {
            json.extend_from_slice(format!(",{}:{}", json!(key), value).as_bytes());
        }
        json.push(b'}');
        let transcoded = codec::json_to_msgpack(&json, limits).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(direct, transcoded);
    }

    #[test]
    fn arguments_over_the_limit_are_refused() {
        let args = json!({"text": "x".repeat(100)});
        let Some(args) = args.as_object() else {
            panic!("an object");
        };
        let limits = codec::Limits::default().max_bytes(50);
        let refused = request_msgpack("echo", args, limits).map(|_| ());
        assert_eq!(refused.map_err(|e| e.code), Err("INVALID_REQUEST".into()));
    }
}
