//! The call port: the one seam every transport (MCP, HOOT01, HTTP) calls
//! tools through. The in-process [`Dispatcher`](crate::Dispatcher) is one
//! implementation; a HOOT01 client to remote workers is another, so a
//! transport in front of either serves the same catalogue the same way.

mod health;
mod options;
mod stream;

use std::future::Future;
use std::time::Duration;

use tokio::sync::broadcast;

pub use health::{Gauges, Readiness};
pub use options::CallOptions;
pub use stream::{STREAM_CAPACITY, StreamEvent, StreamReceiver, StreamSender, stream_channel};

use crate::codec::Limits;
use crate::entry::EntryAnswer;
use crate::events::ToolEvents;
use crate::jobs::{
    JobCancelResponse, JobEvent, JobInfo, JobListRequest, JobListResponse, JobPollRequest,
    JobPollResponse, Owner,
};
use crate::{Catalogue, ResponseEnvelope, ServerCatalogue, ToolError};

/// The envelope a port answers a call of its catalogue with.
pub type PortEnvelope<P> = ResponseEnvelope<<<P as CallPort>::Catalogue as Catalogue>::Response>;

/// Something that answers tool calls of one catalogue: in this process
/// ([`Dispatcher`](crate::Dispatcher)) or across a wire.
///
/// A call is the MsgPack request (`{"tool": …, …fields}`, docs/wire.md)
/// with [`CallOptions`]; the answer is the final [`ResponseEnvelope`]:
/// `Success`, `Error`, or `JobStarted` when the call runs on as a job. The
/// timing policy — how long a call that runs as a job is waited for, when
/// the caller gets a job handle instead, what cancelling does — is the
/// port's, so every transport in front of it answers alike.
///
/// Ports are cheap to clone; clones share everything.
pub trait CallPort: Clone + Send + Sync + 'static {
    /// The catalogue it serves: its tools' metadata and MCP schema.
    type Catalogue: ServerCatalogue;

    /// The tools of the catalogue that answer `NOT_IMPLEMENTED` here, when
    /// the port knows (a dispatcher knows its service's); `None` when it
    /// does not (a client forwarding to workers). `GET /api/tools` says
    /// of each tool whether it is served from it.
    const NOT_SERVED: Option<&'static [&'static str]> = None;

    /// Answers one call.
    ///
    /// - `sync` tools and the job tools answer inline.
    /// - A tool that runs as a job is waited for as long as
    ///   [`CallOptions::wait`] says (by default its timing class's budget:
    ///   `async_short` and `async_medium` the configured waits,
    ///   `async_long` and `fire_and_forget` none); its answer if it ends by
    ///   then, else `JobStarted`.
    /// - While it is waited for, the stream of a streaming call goes to
    ///   [`CallOptions::stream`]: `Start`, each `Chunk`, and `End` just
    ///   before the final answer. A call that stops being waited for stops
    ///   streaming (the job goes on; its chunks still reach
    ///   [`subscribe`](Self::subscribe)).
    /// - When [`CallOptions::cancel`] fires, the call is cancelled (a job's
    ///   handler is stopped) and the answer is a `CANCELLED` error.
    ///
    /// Never panics: bytes that do not decode are an `INVALID_REQUEST`
    /// error naming the field, an unknown tool `UNKNOWN_TOOL`.
    ///
    /// Every call is reported to [`events`](Self::events): `tool_start`
    /// when it arrives, `tool_complete` when it is answered or, for a call
    /// that runs on as a job, when the job ends.
    fn call(
        &self,
        request: Vec<u8>,
        options: CallOptions,
    ) -> impl Future<Output = PortEnvelope<Self>> + Send;

    /// Answers one entry's request: a resource read, a prompt get, a
    /// completion (the MsgPack map of [`crate::entry`]). It runs while it
    /// is waited for, never as a job; [`CallOptions::cancel`] stops it
    /// with `CANCELLED`, and its principal and caller reach the handler as
    /// a call's do.
    ///
    /// Never panics: a request that does not decode is `INVALID_REQUEST`,
    /// one naming no resource or prompt `UNKNOWN_ENTRY`.
    fn entry(
        &self,
        request: Vec<u8>,
        options: CallOptions,
    ) -> impl Future<Output = ResponseEnvelope<EntryAnswer>> + Send;

    /// Everything known about one job, as `caller` sees the jobs: with an
    /// owner, another owner's job is `NOT_FOUND`, as if it did not exist
    /// (the job tools' rule, checked in one place, the job store); `None`
    /// sees every job.
    ///
    /// # Errors
    /// The job tools' errors (`INVALID_JOB_ID`, `NOT_FOUND`), or the
    /// transport's (`UNAVAILABLE`).
    fn job_status(
        &self,
        job_id: &str,
        caller: Option<&Owner>,
    ) -> impl Future<Output = Result<JobInfo, ToolError>> + Send;

    /// The jobs `caller` sees, by state, as `job_list` answers.
    ///
    /// # Errors
    /// The transport's (`UNAVAILABLE`).
    fn job_list(
        &self,
        request: JobListRequest,
        caller: Option<&Owner>,
    ) -> impl Future<Output = Result<JobListResponse, ToolError>> + Send;

    /// Waits for `caller`'s jobs to finish, at most the request's timeout.
    ///
    /// # Errors
    /// As [`job_status`](Self::job_status).
    fn job_poll(
        &self,
        request: JobPollRequest,
        caller: Option<&Owner>,
    ) -> impl Future<Output = Result<JobPollResponse, ToolError>> + Send;

    /// Cancels a job of `caller`'s and returns once its handler has
    /// stopped.
    ///
    /// # Errors
    /// As [`job_status`](Self::job_status).
    fn job_cancel(
        &self,
        job_id: &str,
        caller: Option<&Owner>,
    ) -> impl Future<Output = Result<JobCancelResponse, ToolError>> + Send;

    /// Receives every job event from now on: started, progress, chunks,
    /// finished. A receiver that falls behind loses the oldest events.
    fn subscribe(&self) -> broadcast::Receiver<JobEvent>;

    /// Receives every update of the catalogue's resources from now on (the
    /// URI of each resource that changed): what the service says on its
    /// [`ResourceUpdates`](crate::entry::ResourceUpdates), here or on a
    /// backend's IOPub. A receiver that falls behind loses the oldest.
    /// `None` when this port can hear no update (no channel connected, no
    /// IOPub followed): doors then offer no subscriptions.
    fn resource_updates(&self) -> Option<broadcast::Receiver<std::sync::Arc<str>>>;

    /// The hub every call is reported to, for frontends that show
    /// executions live; its [`source`](ToolEvents::source) says where the
    /// port's tools run.
    fn events(&self) -> &ToolEvents;

    /// The bounds on requests the port accepts, for edges that build them.
    fn limits(&self) -> Limits;

    /// How long a finished job is kept for `job_status`.
    fn job_ttl(&self) -> Duration;

    /// Whether the port can take calls now, for a readiness probe
    /// (`/readyz`): a dispatcher when its job store answers, a HOOT01
    /// client when a backend is in rotation. Answers within about a
    /// second, whatever it waits on. By default, ready.
    fn readiness(&self) -> impl Future<Output = Readiness> + Send {
        std::future::ready(Readiness::Ready)
    }

    /// What the port holds now: its jobs, its backends, its calls in
    /// flight, as `/metrics` reports them. Cheap: read at every scrape,
    /// never scanning a store. By default, nothing.
    fn gauges(&self) -> Gauges {
        Gauges::default()
    }
}

/// How long a readiness check waits for what it checks (a job store's
/// answer) before saying the port is not ready.
pub(crate) const READINESS_TIMEOUT: Duration = Duration::from_secs(1);
