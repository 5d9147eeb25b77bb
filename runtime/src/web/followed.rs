//! Following one call to its end: the job it runs as, its progress, its
//! stream's chunks, and then its answer. The TOON WebSocket reports the
//! progress as `STATUS` frames; a `POST /api/tools/{name}` that accepts
//! `text/event-stream` reports every step as an event (`streamed.rs`).

use std::sync::Arc;

use futures_util::future::BoxFuture;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

use super::Web;
use crate::jobs::JobEvent;
use crate::port::{
    CallOptions, CallPort, PortEnvelope, StreamEvent, StreamReceiver, stream_channel,
};
use crate::{Bytes, ToolInfo};

/// One step of a followed call.
pub(super) enum Step<P: CallPort> {
    /// The call runs as job `job_id`.
    Job { job_id: String },
    /// The job's handler reported progress, between 0 and 1.
    Progress { job_id: String, fraction: f32 },
    /// The job's handler sent chunk `seq` of its stream (MsgPack).
    Chunk {
        job_id: String,
        seq: u64,
        chunk: Bytes,
    },
    /// The call ended with this answer; no step follows.
    Ended(PortEnvelope<P>),
}

/// A call sent to the port and waited for until it ends, with what it
/// reports meanwhile.
pub(super) struct Followed<P: CallPort> {
    /// The call, until it has answered.
    answer: Option<BoxFuture<'static, PortEnvelope<P>>>,
    steps: StreamReceiver,
    jobs: broadcast::Receiver<JobEvent>,
    /// False once the port's job events have closed.
    jobs_open: bool,
    job: Option<String>,
}

impl<P: CallPort> Followed<P> {
    /// Sends `request`, which the edge readied for `tool`, to the port,
    /// to be waited for until it ends whatever its timing class.
    pub(super) fn start(
        web: &Arc<Web<P>>,
        tool: &'static ToolInfo,
        request: Vec<u8>,
        options: CallOptions,
    ) -> Self {
        let (stream, steps) = stream_channel();
        // Subscribed before the call is made: no progress of its job is
        // sent before there is someone to hear it.
        let jobs = web.edge.port().subscribe();
        let options = options.wait_until_done().stream_to(stream);
        #[cfg(feature = "otel")]
        let span = options.span.clone();
        let web = web.clone();
        let answer = async move { web.edge.call_port(tool, request, options).await };
        #[cfg(feature = "otel")]
        let answer =
            tracing::Instrument::instrument(answer, span.unwrap_or_else(tracing::Span::none));
        Followed {
            answer: Some(Box::pin(answer)),
            steps,
            jobs,
            jobs_open: true,
            job: None,
        }
    }

    /// The next step; `None` after [`Step::Ended`]. Cancel-safe: a step
    /// not returned is not lost.
    pub(super) async fn next(&mut self) -> Option<Step<P>> {
        loop {
            let answer = self.answer.as_mut()?;
            tokio::select! {
                // In this order: every chunk sent before the answer was
                // made is in the channel by then, and is reported first.
                biased;
                Some(step) = self.steps.recv() => match step {
                    StreamEvent::Start { job_id, .. } => {
                        self.job = Some(job_id.clone());
                        return Some(Step::Job { job_id });
                    }
                    StreamEvent::Chunk { job_id, seq, chunk } => {
                        return Some(Step::Chunk { job_id, seq, chunk });
                    }
                    StreamEvent::End { .. } => {}
                },
                event = self.jobs.recv(), if self.jobs_open => match event {
                    Ok(JobEvent::Progress { job_id, fraction })
                        if self.job.as_deref() == Some(job_id.as_str()) =>
                    {
                        return Some(Step::Progress { job_id, fraction });
                    }
                    // Progress missed is made up by the next.
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => self.jobs_open = false,
                },
                envelope = answer => {
                    self.answer = None;
                    return Some(Step::Ended(envelope));
                }
            }
        }
    }
}
