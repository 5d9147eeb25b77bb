//! Running a call as a job: create it in the store, give the handler a
//! context wired to it, spawn it under its cancellation token, and record
//! how it ends.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::paging;
use super::panic::CatchPanic;
use super::sink::{JobSink, StreamTo};
use super::{Inner, ResponseOf};
use crate::Principal;
use crate::caller::Caller;
use crate::jobs::Outcome;
use crate::jobs::Owner;
use crate::port::StreamEvent;
use crate::{CallContext, CallInfo, Catalogue, Service, ToolError};

/// A job that has been spawned.
pub(super) struct Spawned<R> {
    pub(super) job_id: Arc<str>,
    /// The outcome, when asked for (see [`spawn`]).
    pub(super) waiter: Option<oneshot::Receiver<Outcome<R>>>,
    pub(super) sink: Arc<JobSink<R>>,
}

/// Who a job is run for.
#[derive(Default)]
pub(super) struct Requester {
    /// The owner of the job.
    pub(super) owner: Option<Owner>,
    /// The client the handler's logs, progress and questions go to.
    pub(super) caller: Option<Arc<dyn Caller>>,
    /// Who the call is made for, as its door authenticated them.
    pub(super) principal: Option<Arc<Principal>>,
    /// The span of the call that starts the job.
    #[cfg(feature = "otel")]
    pub(super) span: Option<tracing::Span>,
}

impl Requester {
    pub(super) fn of(options: &crate::port::CallOptions) -> Self {
        Requester {
            owner: options.owner.clone(),
            caller: options.caller.clone(),
            principal: options.principal.clone(),
            #[cfg(feature = "otel")]
            span: options.span.clone(),
        }
    }
}

/// Creates a job for `request` and spawns its handler.
///
/// The job belongs to `requester`'s owner, and with its caller the
/// handler's logs, progress and questions go to the client that made the
/// call.
///
/// With `waiter`, the outcome is sent to [`Spawned::waiter`] when the job
/// ends, unless the receiver is gone or detached by then, in which case the
/// store keeps it. With `stream`, `StreamStart` is sent on it before the
/// handler can send a chunk, and chunks follow as the handler sends them.
///
/// # Errors
/// When there is no tokio runtime to spawn on, the dispatcher is shutting
/// down, or a paged call's cursor is not one it issued.
pub(super) async fn spawn<S: Service>(
    inner: &Inner<S>,
    mut request: <S::Catalogue as Catalogue>::Request,
    info: CallInfo,
    waiter: bool,
    stream: Option<StreamTo<ResponseOf<S>>>,
    requester: Requester,
) -> Result<Spawned<ResponseOf<S>>, ToolError> {
    let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
        ToolError::internal("the dispatcher runs jobs on a tokio runtime, and there is none")
    })?;
    // Before the job exists: a call with a bad cursor starts none.
    let scope = paging::open::<S>(&inner.config, &mut request)?;
    let tool = info.tool.name;
    let Requester {
        owner,
        caller,
        principal,
        #[cfg(feature = "otel")]
        span,
    } = requester;
    let job = inner.jobs.create(tool, info.timing, waiter, owner).await?;
    if let Some(tx) = &stream {
        tx.send(StreamEvent::Start {
            job_id: job.id.to_string(),
            tool: tool.to_owned(),
        });
    }
    if let Some(caller) = &caller {
        caller.started(&job.id);
    }
    let sink = Arc::new(JobSink::new(inner.jobs.clone(), job.id.clone(), stream));
    let cx = CallContext::new(Some(job.id.clone()), job.token.clone(), Some(sink.clone()))
        .with_caller(caller)
        .with_principal(principal);
    let handler = paging::call(&inner.service, request, cx, scope);
    #[cfg(feature = "otel")]
    let job_span = crate::otel::job(span.as_ref(), tool, &job.id);
    #[cfg(feature = "otel")]
    let handler = crate::otel::handler(Some(job_span.clone()), tool, handler);

    let store = inner.jobs.clone();
    let grace = inner.config.cancel_grace;
    let job_id = job.id.clone();
    let token = job.token;
    let stop_guard = job.stop_guard;
    let run = async move {
        let _stop_guard = stop_guard;
        // Cancelled before it started: the store has recorded that already.
        if token.is_cancelled() {
            return;
        }
        store.mark_running(&job_id).await;
        let outcome = supervise(tool, handler, &token, grace).await;
        #[cfg(feature = "otel")]
        crate::otel::record_outcome(&tracing::Span::current(), &outcome);
        store.finish(&job_id, outcome).await;
    };
    #[cfg(feature = "otel")]
    let run = tracing::Instrument::instrument(run, job_span);
    runtime.spawn(run);
    Ok(Spawned {
        job_id: job.id,
        waiter: job.waiter,
        sink,
    })
}

/// Runs a handler to its end, or until `grace` after `token` is cancelled,
/// when it is dropped (which stops it at the `.await` it is parked on).
async fn supervise<R>(
    tool: &'static str,
    handler: impl Future<Output = Result<R, ToolError>>,
    token: &CancellationToken,
    grace: Duration,
) -> Outcome<R> {
    let handler = CatchPanic::new(tool, handler);
    let deadline = async {
        token.cancelled().await;
        tokio::time::sleep(grace).await;
    };
    tokio::select! {
        // The handler first: one that finished when the grace ran out
        // keeps its outcome.
        biased;
        outcome = handler => outcome,
        () = deadline => Err(ToolError::cancelled(format!(
            "`{tool}` did not stop within {} ms of being cancelled and was aborted",
            grace.as_millis()
        ))),
    }
}
