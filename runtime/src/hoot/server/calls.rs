//! The tokio side of the server: each call runs as a task that calls the
//! port and queues its Replies; job events become IOPub messages.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use super::talk::HootCaller;
use super::{Out, Shared};
use crate::hoot::RequestId;
use crate::hoot::iopub::{CallEvent, job_frames};
use crate::jobs::JobEvent;
use crate::jobs::Owner;
use crate::port::{CallOptions, CallPort, StreamEvent, stream_channel};
use crate::{Principal, ResponseEnvelope, ToolError, codec};

/// Jobs whose tool is remembered for their IOPub topics; beyond, events of
/// the oldest are published under the tool `_`.
const MAX_TOOLS: usize = 65_536;

/// One accepted Request.
pub(super) struct Call {
    pub(super) peer: Vec<u8>,
    pub(super) request_id: RequestId,
    pub(super) request: Vec<u8>,
    pub(super) wait: Option<Duration>,
    pub(super) stream: bool,
    pub(super) owner: Option<Owner>,
    /// The caller takes the handler's logs, progress and questions.
    pub(super) talk_back: bool,
    /// Who the call is made for, as the peer forwarded it: a peer the
    /// server trusts (see `ServerConfig::trust_plain_peers`).
    pub(super) principal: Option<Arc<Principal>>,
}

/// Calls the port and queues the call's Replies: its stream, if asked
/// for, then its final answer.
pub(super) async fn serve<P: CallPort>(
    port: P,
    shared: Arc<Shared>,
    call: Call,
    cancel: CancellationToken,
) {
    let Call {
        peer,
        request_id,
        request,
        wait,
        stream,
        owner,
        talk_back,
        principal,
    } = call;
    // An entry's request (a resource read, a prompt get, a completion)
    // rides the same Request frame; its first key tells it from a call. It
    // is no call of a tool, and `call/` does not publish it.
    let entry = crate::entry::EntryKind::of_request(&request).is_some();
    let publishing = shared.publishing && !entry;
    let tool = if publishing {
        crate::hoot::body::tool_of(&request)
    } else {
        String::new()
    };
    if publishing && let Some(frames) = CallEvent::start(request_id, &tool).frames() {
        shared.outbox.push(Out::Publish(frames));
    }
    // Without `talk_back` a handler that logs is not heard, and one that
    // samples or elicits is told `UNSUPPORTED`.
    let caller =
        talk_back.then(|| Arc::new(HootCaller::new(shared.clone(), peer.clone(), request_id)));
    let mut options = CallOptions {
        wait,
        cancel: Some(cancel),
        stream: None,
        owner,
        caller: caller.clone().map(|c| c as Arc<dyn crate::caller::Caller>),
        principal,
        #[cfg(feature = "otel")]
        span: crate::otel::current(),
    };
    // The worker's span (`traced.rs`), which records how the call ended.
    #[cfg(feature = "otel")]
    let span = options.span.clone();
    let reply = |body: Vec<u8>, last: bool| Out::Reply {
        peer: peer.clone(),
        request_id,
        body,
        last,
    };
    if entry {
        let envelope = port.entry(request, options).await;
        if let Some(caller) = &caller {
            caller.answered();
        }
        shared.outbox.push(reply(encode(&envelope), true));
        return;
    }
    let envelope = if stream {
        let (tx, mut rx) = stream_channel();
        options.stream = Some(tx);
        let call = port.call(request, options);
        tokio::pin!(call);
        let envelope = loop {
            tokio::select! {
                biased;
                event = rx.recv() => {
                    if let Some(event) = event {
                        shared.outbox.push(reply(stream_body(event), false));
                    }
                }
                envelope = &mut call => break envelope,
            }
        };
        // What the call sent before it ended goes before its answer.
        while let Ok(event) = rx.try_recv() {
            shared.outbox.push(reply(stream_body(event), false));
        }
        envelope
    } else {
        port.call(request, options).await
    };
    #[cfg(feature = "otel")]
    if let Some(span) = &span {
        crate::otel::record(span, &envelope);
    }
    if publishing && let Some(frames) = CallEvent::complete(request_id, &tool, &envelope).frames() {
        shared.outbox.push(Out::Publish(frames));
    }
    // Before the final Reply: nothing the handler says after it (a job's,
    // running on) can reach a caller that has stopped listening.
    if let Some(caller) = &caller {
        caller.answered();
    }
    shared.outbox.push(reply(encode(&envelope), true));
}

/// An envelope as the body of a final Reply; one that does not encode is
/// answered `INTERNAL`.
fn encode<R: serde::Serialize>(envelope: &ResponseEnvelope<R>) -> Vec<u8> {
    codec::to_msgpack(envelope).unwrap_or_else(|e| {
        let error: ResponseEnvelope<()> = ResponseEnvelope::Error(ToolError::internal(format!(
            "the answer does not encode: {e}"
        )));
        codec::to_msgpack(&error).unwrap_or_default()
    })
}

/// A stream event as the body of its non-final Reply.
fn stream_body(event: StreamEvent) -> Vec<u8> {
    codec::to_msgpack(&event.into_envelope::<()>()).unwrap_or_default()
}

/// Publishes every resource update of the port until the server stops.
pub(super) async fn publish_updates(
    mut updates: broadcast::Receiver<Arc<str>>,
    shared: Arc<Shared>,
) {
    loop {
        let uri = tokio::select! {
            () = shared.stopped.cancelled() => return,
            uri = updates.recv() => uri,
        };
        let uri = match uri {
            Ok(uri) => uri,
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return,
        };
        if let Some(frames) = crate::hoot::iopub::resource_frames(&uri)
            && !shared.outbox.push(Out::Publish(frames))
        {
            return;
        }
    }
}

/// Publishes every job event of the port until the server stops.
pub(super) async fn publish_jobs(mut events: broadcast::Receiver<JobEvent>, shared: Arc<Shared>) {
    // Progress and chunk events do not name their tool; the started event
    // does.
    let mut tools: HashMap<String, String> = HashMap::new();
    loop {
        let event = tokio::select! {
            () = shared.stopped.cancelled() => return,
            event = events.recv() => event,
        };
        let event = match event {
            Ok(event) => event,
            Err(broadcast::error::RecvError::Lagged(_)) => continue,
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let tool = match &event {
            JobEvent::Started { job_id, tool, .. } => {
                if tools.len() >= MAX_TOOLS {
                    tools.clear();
                }
                tools.insert(job_id.clone(), tool.clone());
                tool.clone()
            }
            JobEvent::Finished { job_id, tool, .. } => {
                tools.remove(job_id);
                tool.clone()
            }
            other => tools
                .get(other.job_id())
                .cloned()
                .unwrap_or_else(|| "_".into()),
        };
        if let Some(frames) = job_frames(&tool, &event)
            && !shared.outbox.push(Out::Publish(frames))
        {
            return;
        }
    }
}
