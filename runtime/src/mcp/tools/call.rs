//! One `tools/call`: the arguments become the MsgPack request, the port
//! answers it as its timing class says (inline, or with a job handle), and
//! stream chunks and job progress go out as `notifications/progress` while
//! the caller waits, with what the handler tells its client (log messages,
//! its own progress; see `talk_back/`).

use std::sync::Arc;
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{CallToolResult, JsonObject};
use rmcp::service::RequestContext;
use tokio::sync::broadcast;

use super::result;
use crate::jobs::JobEvent;
use crate::mcp::server::McpServer;
use crate::mcp::talk_back::caller::McpCaller;
use crate::mcp::talk_back::progress::Progress;
use crate::mcp::talk_back::told::{drain, tell};
use crate::mcp::tasks::v2026_07_28::StartedJob;
use crate::mcp::tasks::v2026_07_28::questions::InTask;
use crate::mcp::tools::unified_envelope as envelope;
use crate::port::{
    CallOptions, CallPort, PortEnvelope, StreamEvent, StreamReceiver, stream_channel,
};
use crate::{Bytes, Catalogue, ResponseEnvelope, ToolError, ToolInfo, edge};

/// The job tool that waits, during which its caller is sent progress.
const JOB_POLL: &str = "job_poll";

/// How long an answer waits for a client to resume the stream its handler
/// closed (`Context::close_stream`) before it is given up.
const RESUME_GRACE: Duration = Duration::from_secs(300);

/// The jobs a `job_poll` call waits on, whose events its caller is sent:
/// the listed ones, or every job when the list is empty.
pub(in crate::mcp) struct Watched(Vec<String>);

impl Watched {
    /// What a `job_poll` call's arguments ask to wait on.
    pub(in crate::mcp) fn from_poll(args: &JsonObject) -> Self {
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

impl<P: CallPort> McpServer<P> {
    /// `result` of a call of `tool` with `args`, in the envelope when the
    /// server answers in it; the discovery tools answer bare.
    pub(in crate::mcp) fn enveloped(
        &self,
        tool: &str,
        args: Option<&rmcp::model::JsonObject>,
        result: rmcp::model::CallToolResult,
    ) -> rmcp::model::CallToolResult {
        let Some(traces) = self
            .shared
            .envelope
            .as_ref()
            .filter(|_| !self.discovers(tool))
        else {
            return result;
        };
        let action = args.and_then(|a| a.get("action")).and_then(|a| a.as_str());
        let meta = envelope::Meta {
            tool,
            action,
            backend: self.shared.edge.port().events().source().as_str(),
            paged: P::Catalogue::tool(tool).is_some_and(|info| info.pages(action)),
        };
        envelope::wrap(result, &meta, traces.next())
    }

    /// Answers a call of `tool` (a tool of the catalogue) with `args`, made
    /// by the client of `context`.
    pub(in crate::mcp) async fn call(
        &self,
        tool: &'static ToolInfo,
        args: &JsonObject,
        request: Vec<u8>,
        options: CallOptions,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let mut progress = context
            .meta
            .get_progress_token()
            .map(|token| Progress::new(token, context.peer.clone()));
        let started = context.extensions.get::<StartedJob>().cloned();
        let in_task = context.extensions.get::<Arc<InTask>>().cloned();
        let (caller, mut told) = McpCaller::for_request(&context, &self.session.log_level);
        let resumption = caller.resumption();
        let cancelled = context.ct.clone();
        let peer = context.peer;
        let mut options = options.cancel_on(context.ct).caller(Arc::new(caller));
        // A caller that gave a progress token is sent the chunks of the
        // call while it waits, and a `job_poll` the events of its jobs.
        let mut chunks = None;
        let mut events = None;
        let mut watched = None;
        if progress.is_some() {
            let (tx, rx) = stream_channel();
            options = options.stream_to(tx);
            chunks = Some(rx);
            if tool.name == JOB_POLL {
                // Subscribed before the call starts, so no event between
                // the two is missed.
                events = Some(self.shared.edge.port().subscribe());
                watched = Some(Watched::from_poll(args));
            }
        }
        let call = self.shared.edge.call_port(tool, request, options);
        tokio::pin!(call);
        let envelope = loop {
            tokio::select! {
                envelope = &mut call => break envelope,
                // A job that asks inside its task while the call still
                // waits on it: the call answers with the task now, so that
                // the client sees the question (the job runs on).
                job_id = asked_in_task(in_task.as_deref()) => {
                    break ResponseEnvelope::JobStarted {
                        job_id,
                        tool: tool.name.to_owned(),
                        expected_timing: tool.timing,
                    };
                }
                chunk = next_chunk(&mut chunks) => match (chunk, &mut progress) {
                    (Some(chunk), Some(progress)) => progress.send(edge::chunk_text(&chunk)).await,
                    (Some(_), None) => {}
                    (None, _) => chunks = None,
                },
                event = next_event(&mut events) => match event {
                    Some(event) => report(&mut progress, watched.as_ref(), &event).await,
                    None => events = None,
                },
                Some(told) = told.recv() => tell(&peer, &mut progress, told).await,
            }
        };
        // What was sent before the call ended goes out before its answer.
        if let Some(rx) = &mut chunks {
            while let Ok(event) = rx.try_recv() {
                if let (StreamEvent::Chunk { chunk, .. }, Some(progress)) = (event, &mut progress) {
                    progress.send(edge::chunk_text(&chunk)).await;
                }
            }
        }
        if let Some(rx) = &mut events {
            while let Ok(event) = rx.try_recv() {
                report(&mut progress, watched.as_ref(), &event).await;
            }
        }
        drain(&mut told, &peer, &mut progress).await;
        if let (Some(started), ResponseEnvelope::JobStarted { job_id, .. }) = (&started, &envelope)
        {
            started.set(job_id);
        }
        // An answer sent on a stream the handler closed, before the client
        // is back, would be lost.
        resumption.wait(&cancelled, RESUME_GRACE).await;
        self.answer(tool, args, envelope)
    }

    /// The result for a call's final answer, finished by the edge (a
    /// request that did not decode gets the type its field expected).
    pub(in crate::mcp) fn answer(
        &self,
        tool: &ToolInfo,
        args: &JsonObject,
        envelope: PortEnvelope<P>,
    ) -> CallToolResult {
        let envelope = self.shared.edge.finish(tool, args, envelope);
        #[cfg(feature = "otel")]
        crate::otel::record_at_door(&tracing::Span::current(), &envelope);
        result::from_envelope(envelope, <P::Catalogue as Catalogue>::CONTENT)
    }
}

/// The job of a call that may become a task, once its handler has asked a
/// question inside it; never, for any other call.
async fn asked_in_task(in_task: Option<&InTask>) -> String {
    let Some(in_task) = in_task else {
        return std::future::pending().await;
    };
    loop {
        in_task.asked.notified().await;
        if let Some(job) = in_task.job() {
            return job.to_owned();
        }
    }
}

/// Sends a polled job's event to the caller, when it is one of the jobs
/// the poll waits on.
async fn report(progress: &mut Option<Progress>, watched: Option<&Watched>, event: &JobEvent) {
    if let (Some(progress), Some(watched)) = (progress, watched)
        && watched.contains(event.job_id())
    {
        progress.event(event).await;
    }
}

/// The next chunk of a call's stream, or `None` once the stream has
/// closed; pending for ever without one.
async fn next_chunk(stream: &mut Option<StreamReceiver>) -> Option<Bytes> {
    let Some(rx) = stream else {
        return std::future::pending().await;
    };
    loop {
        match rx.recv().await? {
            StreamEvent::Chunk { chunk, .. } => return Some(chunk),
            StreamEvent::Start { .. } | StreamEvent::End { .. } => {}
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

pub(in crate::mcp) fn cancelled(tool: &str) -> ToolError {
    ToolError::cancelled(format!("the call of `{tool}` was cancelled by the client"))
}
