//! The dispatcher: answers calls according to their timing class. Used by
//! every transport (HOOT01, MCP, HTTP) and by Rust callers directly.

mod config;
mod decode;
mod job_tools;
mod msgpack;
mod panic;
mod runner;
mod sink;
mod stream;
mod suggest;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::broadcast;

pub use config::DispatcherConfig;

use crate::jobs::{JobEvent, JobStore, Outcome};
use crate::{CallContext, CallInfo, Catalogue, ResponseEnvelope, Service, ToolTiming};
use panic::CatchPanic;

/// The catalogue response type of a service.
type ResponseOf<S> = <<S as Service>::Catalogue as Catalogue>::Response;
/// The catalogue request type of a service.
type RequestOf<S> = <<S as Service>::Catalogue as Catalogue>::Request;

/// Serves a [`Service`]: answers each call as its tool's [`ToolTiming`]
/// says, runs jobs, and answers the job tools itself.
///
/// | timing | answer |
/// |---|---|
/// | `sync` | the handler runs inline; `Success` or `Error` |
/// | `async_short`, `async_medium` | a job; `Success`/`Error` if it ends within the wait budget, else `JobStarted` |
/// | `async_long` | a job; `JobStarted` at once |
/// | `fire_and_forget` | a job; `JobStarted` at once, its failure recorded in the job |
///
/// Cheap to clone: clones share the service, the configuration and the
/// jobs. Jobs run on the tokio runtime the call is made on.
pub struct Dispatcher<S: Service> {
    inner: Arc<Inner<S>>,
}

struct Inner<S: Service> {
    service: Arc<S>,
    config: DispatcherConfig,
    jobs: JobStore<ResponseOf<S>>,
}

impl<S: Service> Clone for Dispatcher<S> {
    fn clone(&self) -> Self {
        Dispatcher {
            inner: self.inner.clone(),
        }
    }
}

impl<S: Service> std::fmt::Debug for Dispatcher<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dispatcher")
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

impl<S: Service> Dispatcher<S> {
    /// A dispatcher with the default configuration.
    pub fn new(service: S) -> Self {
        Self::with_config(service, DispatcherConfig::default())
    }

    /// A dispatcher with the given configuration.
    pub fn with_config(service: S, config: DispatcherConfig) -> Self {
        Self::from_arc(Arc::new(service), config)
    }

    /// A dispatcher serving a service that is shared elsewhere too.
    pub fn from_arc(service: Arc<S>, config: DispatcherConfig) -> Self {
        Dispatcher {
            inner: Arc::new(Inner {
                service,
                jobs: JobStore::new(config.store()),
                config,
            }),
        }
    }

    /// The service.
    pub fn service(&self) -> &Arc<S> {
        &self.inner.service
    }

    /// The configuration.
    pub fn config(&self) -> &DispatcherConfig {
        &self.inner.config
    }

    /// The jobs: status, list, poll, cancel and typed results.
    pub fn jobs(&self) -> &JobStore<ResponseOf<S>> {
        &self.inner.jobs
    }

    /// Receives an event for every job from now on (started, progress,
    /// chunk, finished), for transports that publish job activity.
    pub fn subscribe(&self) -> broadcast::Receiver<JobEvent> {
        self.inner.jobs.subscribe()
    }

    /// Cancels every running job, refuses new ones, and waits (at most the
    /// cancel grace) for their handlers to stop. `sync` calls are still
    /// answered.
    pub async fn shutdown(&self) {
        self.inner.jobs.shutdown().await;
    }

    /// Answers one call. See the table on [`Dispatcher`] for how the timing
    /// class shapes the answer; the job tools are answered from the job
    /// store. Never panics: a handler that panics is an `INTERNAL` error.
    pub async fn call(&self, request: RequestOf<S>) -> ResponseEnvelope<ResponseOf<S>> {
        let info = S::Catalogue::call_info(&request);
        if info.timing == ToolTiming::Sync && !info.tool.builtin {
            // Inline, not through `call_inline`: one async level less to
            // build and move.
            let cx = CallContext::detached();
            let handler = S::call(&self.inner.service, request, cx);
            return envelope(CatchPanic::new(info.tool.name, handler).await);
        }
        // Job calls and job tools have large futures (waits, polls) and are
        // rare next to `sync` calls: boxing them keeps this future, which
        // every `sync` call builds and moves, small.
        Box::pin(self.call_job(request, info)).await
    }

    /// Everything but a `sync` call: a job tool, or a job.
    async fn call_job(
        &self,
        request: RequestOf<S>,
        info: CallInfo,
    ) -> ResponseEnvelope<ResponseOf<S>> {
        let request = if info.tool.builtin {
            match S::Catalogue::into_job_call(request) {
                Ok(call) => return self.answer_job_call(call).await,
                Err(request) => request,
            }
        } else {
            request
        };
        match info.timing {
            ToolTiming::Sync => self.call_inline(request, info).await,
            ToolTiming::AsyncShort => {
                self.call_waiting(request, info, self.config().short_wait)
                    .await
            }
            ToolTiming::AsyncMedium => {
                self.call_waiting(request, info, self.config().medium_wait)
                    .await
            }
            ToolTiming::AsyncLong | ToolTiming::FireAndForget => {
                match runner::spawn(&self.inner, request, info, false, None) {
                    Ok(job) => job_started(&job.job_id, info),
                    Err(e) => ResponseEnvelope::Error(e),
                }
            }
        }
    }

    /// `sync`: the handler runs in this task, without a job.
    async fn call_inline(
        &self,
        request: RequestOf<S>,
        info: CallInfo,
    ) -> ResponseEnvelope<ResponseOf<S>> {
        let cx = CallContext::detached();
        envelope(CatchPanic::new(info.tool.name, S::call(&self.inner.service, request, cx)).await)
    }

    /// `async_short` and `async_medium`: a job, answered inline when it ends
    /// within `budget`.
    async fn call_waiting(
        &self,
        request: RequestOf<S>,
        info: CallInfo,
        budget: Duration,
    ) -> ResponseEnvelope<ResponseOf<S>> {
        let job = match runner::spawn(&self.inner, request, info, true, None) {
            Ok(job) => job,
            Err(e) => return ResponseEnvelope::Error(e),
        };
        let Some(mut waiter) = job.waiter else {
            return job_started(&job.job_id, info);
        };
        match tokio::time::timeout(budget, &mut waiter).await {
            Ok(Ok(outcome)) => envelope(outcome),
            // The store dropped the waiter without an outcome: nothing to
            // give but the id.
            Ok(Err(_)) => job_started(&job.job_id, info),
            Err(_elapsed) => {
                if self.inner.jobs.detach_waiter(&job.job_id) {
                    job_started(&job.job_id, info)
                } else {
                    // It finished as the budget ran out: the outcome is
                    // on its way to us, not in the store.
                    match waiter.try_recv() {
                        Ok(outcome) => envelope(outcome),
                        Err(_) => job_started(&job.job_id, info),
                    }
                }
            }
        }
    }
}

fn envelope<R>(outcome: Outcome<R>) -> ResponseEnvelope<R> {
    match outcome {
        Ok(response) => ResponseEnvelope::Success(response),
        Err(e) => ResponseEnvelope::Error(e),
    }
}

fn job_started<R>(job_id: &str, info: CallInfo) -> ResponseEnvelope<R> {
    ResponseEnvelope::JobStarted {
        job_id: job_id.to_owned(),
        tool: info.tool.name.to_owned(),
        expected_timing: info.timing,
    }
}
