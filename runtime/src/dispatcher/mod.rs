//! The dispatcher: answers calls according to their timing class. Used by
//! every transport (HOOT01, MCP, HTTP) and by Rust callers directly.

mod config;
mod decode;
mod entry;
mod inline;
mod job_tools;
mod msgpack;
mod paging;
mod panic;
mod policy;
mod port;
mod runner;
mod sink;
mod stream;
#[cfg(feature = "otel")]
mod traced;

use std::sync::Arc;
use tokio::sync::broadcast;

pub use config::DispatcherConfig;
pub(crate) use inline::Rest as RestOfMap;
#[doc(hidden)]
pub use inline::{InlineAnswer, MsgpackCall};

use crate::events::{ToolEvents, ToolSource};
use crate::jobs::{JobEvent, JobRecords, JobStore, Outcome};
use crate::port::CallOptions;
use crate::{CallInfo, Catalogue, ResponseEnvelope, Service, ToolTiming, Validate};
use std::panic::{AssertUnwindSafe, catch_unwind};

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
///
/// # Entry points
///
/// | method | in → out | for |
/// |---|---|---|
/// | [`Dispatcher::call`] | typed request → typed envelope | Rust callers and tests |
/// | [`Dispatcher::call_with`] | typed request and [`CallOptions`] → typed envelope | the same, with a wait budget, a cancel token, a stream, an owner |
/// | [`Dispatcher::call_msgpack`] | MsgPack → MsgPack | the fastest path for bytes; what the dispatch benchmark measures |
/// | [`CallPort::call`](crate::port::CallPort::call) | MsgPack and [`CallOptions`] → envelope | every transport: the JSON edge (MCP, web), HOOT01, the gateway |
///
/// All four answer a call the same way: a `sync` call of a plain-`fn`
/// handler without a future, any other call that is not a job through one
/// path (its `@paged` cursor opened, a panic caught), and a job as the
/// timing policy says.
pub struct Dispatcher<S: Service> {
    inner: Arc<Inner<S>>,
}

struct Inner<S: Service> {
    service: Arc<S>,
    config: DispatcherConfig,
    jobs: JobStore<ResponseOf<S>>,
    events: ToolEvents,
    /// Where the service says its resources changed, once
    /// [`Dispatcher::with_resource_updates`] connected it.
    updates: std::sync::RwLock<Option<crate::entry::ResourceUpdates>>,
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

    /// A dispatcher whose job records are kept in `records`: a
    /// [`RedbJobs`](crate::jobs::RedbJobs) file, so that they outlive the
    /// process, or a store every worker and gateway of a deployment shares
    /// (`RedisJobs`, feature `redis`). [`jobs::open`](crate::jobs::open)
    /// opens one from a `--jobs` argument.
    ///
    /// ```no_run
    /// # #[cfg(feature = "durable")]
    /// # fn make<S: toolwright::Service>(service: S) -> Result<(), Box<dyn std::error::Error>> {
    /// use std::sync::Arc;
    /// use toolwright::jobs::RedbJobs;
    /// let jobs = Arc::new(RedbJobs::open("jobs.redb")?);
    /// let dispatcher = toolwright::Dispatcher::with_job_records(service, Default::default(), jobs);
    /// # Ok(()) }
    /// ```
    pub fn with_job_records(
        service: S,
        config: DispatcherConfig,
        records: Arc<dyn JobRecords>,
    ) -> Self {
        Dispatcher {
            inner: Arc::new(Inner {
                service: Arc::new(service),
                jobs: JobStore::with_records(config.store(), records),
                config,
                events: ToolEvents::new(ToolSource::Local),
                updates: std::sync::RwLock::default(),
            }),
        }
    }

    /// A dispatcher serving a service that is shared elsewhere too.
    pub fn from_arc(service: Arc<S>, config: DispatcherConfig) -> Self {
        Dispatcher {
            inner: Arc::new(Inner {
                service,
                jobs: JobStore::new(config.store()),
                config,
                events: ToolEvents::new(ToolSource::Local),
                updates: std::sync::RwLock::default(),
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

    /// Serves `updates` as its resources' updates: the channel its service
    /// says [`updated`](crate::entry::ResourceUpdates::updated) on, made
    /// before the service and kept by it:
    ///
    /// ```text
    /// let updates = ResourceUpdates::new();
    /// let garden = Garden::new(updates.clone());
    /// let dispatcher = Dispatcher::new(garden).with_resource_updates(updates);
    /// ```
    ///
    /// Call it before the doors serve the dispatcher: a door asks once,
    /// when it starts, whether there are updates to hear. Without it the
    /// dispatcher hears none, and MCP offers no subscriptions (the
    /// `resources.subscribe` capability is left out) even for resources
    /// declared `@subscribable`.
    #[must_use]
    pub fn with_resource_updates(self, updates: crate::entry::ResourceUpdates) -> Self {
        match self.inner.updates.write() {
            Ok(mut slot) => *slot = Some(updates),
            Err(poisoned) => *poisoned.into_inner() = Some(updates),
        }
        self
    }

    /// Receives every update of its resources from now on; `None` when
    /// [`with_resource_updates`](Self::with_resource_updates) connected no
    /// channel, so none will come.
    pub fn resource_updates(&self) -> Option<broadcast::Receiver<std::sync::Arc<str>>> {
        let slot = match self.inner.updates.read() {
            Ok(slot) => slot,
            Err(poisoned) => poisoned.into_inner(),
        };
        slot.as_ref().map(crate::entry::ResourceUpdates::subscribe)
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
    /// A request that breaks a `@range`, `@length` or `@pattern` of its
    /// tool is `INVALID_REQUEST`, naming the field and the bound; no
    /// handler sees it.
    pub async fn call(&self, request: RequestOf<S>) -> ResponseEnvelope<ResponseOf<S>> {
        self.call_with(request, CallOptions::default()).await
    }

    /// [`Dispatcher::call`] of a request that [`Dispatcher::answer_inline`]
    /// handed back (valid, and not answered inline), made with `options`.
    pub(super) async fn call_valid(
        &self,
        request: RequestOf<S>,
        options: CallOptions,
    ) -> ResponseEnvelope<ResponseOf<S>> {
        let info = S::Catalogue::call_info(&request);
        // Boxed: calls that get here are rarer than those answered inline,
        // and their futures (job waits, polls) are large; the callers'
        // futures, built and moved on every call, stay small.
        Box::pin(self.answer(request, info, options)).await
    }

    /// The outcome of a call that needs no future, given to `finish`: one
    /// that breaks a constraint of its tool, or a `sync` call whose handler
    /// [`Service::call_inline`] runs. Hands back a valid request that needs
    /// more. `finish` takes the outcome where it was made, so that a caller
    /// that encodes it does not move it first.
    #[inline]
    pub(crate) fn answer_inline<T>(
        &self,
        request: RequestOf<S>,
        finish: impl Fn(Outcome<ResponseOf<S>>) -> T,
    ) -> Result<T, RequestOf<S>> {
        if let Err(violation) = request.validate() {
            return Ok(finish(Err(violation.into())));
        }
        self.answer_valid_inline(request, finish)
    }

    /// [`answer_inline`](Self::answer_inline) of a request already
    /// validated.
    #[inline]
    pub(crate) fn answer_valid_inline<T>(
        &self,
        request: RequestOf<S>,
        finish: impl Fn(Outcome<ResponseOf<S>>) -> T,
    ) -> Result<T, RequestOf<S>> {
        let info = S::Catalogue::call_info(&request);
        if info.timing != ToolTiming::Sync || info.tool.builtin {
            return Err(request);
        }
        // As `CatchPanic` does for a future: a handler that panicked is
        // not called again, so unwind safety can be asserted. A panic comes
        // before `finish` is called, so the panic is what it finishes.
        match catch_unwind(AssertUnwindSafe(|| {
            S::call_inline(&self.inner.service, request, &finish)
        })) {
            Ok(answered) => answered,
            Err(payload) => Ok(finish(Err(panic::panicked(
                info.tool.name,
                payload.as_ref(),
            )))),
        }
    }

    /// Answers one call made with `options`: how long a job is waited for,
    /// what cancels it, where its stream goes. The timing policy of every
    /// transport; see [`CallPort::call`](crate::port::CallPort::call). A
    /// `sync` call of a plain-`fn` handler is answered without a future,
    /// and so cannot be cancelled: it has ended before a cancel could come.
    pub async fn call_with(
        &self,
        request: RequestOf<S>,
        options: CallOptions,
    ) -> ResponseEnvelope<ResponseOf<S>> {
        #[cfg(feature = "otel")]
        let inline = self.answer_inline_traced(request, &options);
        #[cfg(not(feature = "otel"))]
        let inline = self.answer_inline(request, envelope);
        match inline {
            Ok(envelope) => envelope,
            Err(request) => self.call_valid(request, options).await,
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
