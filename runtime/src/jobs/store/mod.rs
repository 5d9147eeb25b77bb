//! `JobStore`: a dispatcher's jobs. Their records live in a
//! [`JobRecords`] store, which other processes may share; the handlers'
//! tokens and the callers waiting inline live here.

mod background;
mod cancel;
mod events;
mod health;
mod id;
mod local;
pub(super) mod poll;

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::{broadcast, oneshot};
use tokio_util::sync::CancellationToken;

pub use events::JobEvent;
pub(crate) use local::{Outcome, StopGuard};

use crate::jobs::records::{Ending, JobRecord, JobRecords, MemoryJobs, Retention};
use crate::jobs::tools;
use crate::jobs::{JobError, JobInfo, JobListRequest, JobListResponse, Owner};
use crate::time::now_ms;
use crate::{Bytes, ToolError, ToolTiming, codes};
use background::Background;
#[cfg(feature = "hoot")]
pub(crate) use background::periodically;
use id::IdGen;
use local::{Latch, Local, Running, response_json};

/// Largest event channel: `broadcast` preallocates every slot.
const MAX_EVENT_CAPACITY: usize = 1 << 16;

/// How long `cancel` and `shutdown` wait past the grace period for a task
/// to end, to allow for scheduling on a loaded machine.
const STOP_MARGIN: Duration = Duration::from_millis(100);

/// The jobs of one dispatcher: every `async_*` and `fire_and_forget` call,
/// from acceptance until it expires.
///
/// Cheap to clone (it is a handle). `R` is the catalogue's `ToolResponse`.
/// The records (state, timestamps, progress, result or error, owner) are
/// kept in the dispatcher's [`JobRecords`] store: in memory by default, in
/// a redb file, or in Redis, where every worker and gateway of a deployment
/// reads them. A change is answered for (a `job_started`, a result, a
/// cancel) only once the store has it.
///
/// Finished jobs are kept for the configured time-to-live (and, in the
/// stores that hold them in this process, up to the configured count),
/// then forgotten; pending and running jobs are never forgotten. A job
/// answered within its wait budget, or streamed, hands its response to its
/// caller and is recorded complete without a `result`.
pub struct JobStore<R> {
    shared: Arc<Shared<R>>,
}

impl<R> Clone for JobStore<R> {
    fn clone(&self) -> Self {
        JobStore {
            shared: self.shared.clone(),
        }
    }
}

impl<R> std::fmt::Debug for JobStore<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobStore")
            .field("keep", &self.shared.keep)
            .field("worker", &self.shared.background.worker())
            .finish_non_exhaustive()
    }
}

struct Shared<R> {
    records: Arc<dyn JobRecords>,
    local: Mutex<Local<R>>,
    ids: IdGen,
    events: broadcast::Sender<JobEvent>,
    keep: Retention,
    grace: Duration,
    max_active: usize,
    max_active_per_owner: usize,
    /// This process as a worker: its lease, and the tasks that renew it,
    /// reap lapsed ones and follow settles made elsewhere.
    background: Background,
}

/// A job just created, for the dispatcher to run.
pub(crate) struct NewJob<R> {
    pub(crate) id: Arc<str>,
    pub(crate) token: CancellationToken,
    /// For the task: opens the job's `stopped` latch when the task ends.
    pub(crate) stop_guard: StopGuard,
    /// The outcome, when the job was created with a waiter.
    pub(crate) waiter: Option<oneshot::Receiver<Outcome<R>>>,
}

/// Bounds and sizes of a store.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StoreConfig {
    pub(crate) ttl: Duration,
    pub(crate) max_finished: usize,
    pub(crate) grace: Duration,
    pub(crate) event_capacity: usize,
    pub(crate) max_active: usize,
    pub(crate) max_active_per_owner: usize,
    pub(crate) lease: Duration,
}

impl<R: Serialize + Send + 'static> JobStore<R> {
    /// A store whose records are in this process's memory.
    pub(crate) fn new(config: StoreConfig) -> Self {
        Self::with_records(config, Arc::new(MemoryJobs::new()))
    }

    /// A store whose records are in `records`.
    pub(crate) fn with_records(config: StoreConfig, records: Arc<dyn JobRecords>) -> Self {
        let (events, _) = broadcast::channel(config.event_capacity.clamp(1, MAX_EVENT_CAPACITY));
        let background = Background::new(records.is_shared(), config.lease);
        JobStore {
            shared: Arc::new(Shared {
                records,
                local: Mutex::new(Local::new()),
                ids: IdGen::new(),
                events,
                keep: Retention {
                    ttl: config.ttl,
                    max_finished: config.max_finished,
                },
                grace: config.grace,
                max_active: config.max_active,
                max_active_per_owner: config.max_active_per_owner,
                background,
            }),
        }
    }

    /// Receives an event for every job this process runs from now on:
    /// started, progress, chunks, finished.
    pub fn subscribe(&self) -> broadcast::Receiver<JobEvent> {
        self.shared.events.subscribe()
    }

    /// The store the records are kept in.
    pub fn records(&self) -> &Arc<dyn JobRecords> {
        &self.shared.records
    }

    // ---- for the dispatcher ----

    /// Accepts a job: recorded pending in the store before this returns.
    /// With `waiter`, the outcome is sent to the returned receiver when the
    /// job finishes, if it is still listening then.
    ///
    /// # Errors
    /// `BUSY` past the caps, `CANCELLED` while shutting down, and
    /// `UNAVAILABLE` when the store cannot record it (nothing runs then).
    pub(crate) async fn create(
        &self,
        tool: &'static str,
        timing: ToolTiming,
        waiter: bool,
        owner: Option<Owner>,
    ) -> Result<NewJob<R>, ToolError> {
        let id = self.shared.ids.next();
        let (tx, rx) = if waiter {
            let (tx, rx) = oneshot::channel();
            (Some(tx), Some(rx))
        } else {
            (None, None)
        };
        let busy = |n: usize, whose: &str| {
            ToolError::new(
                codes::BUSY,
                format!(
                    "{n} jobs of {whose} are pending or running, as many as the server \
                     takes; retry when one has finished"
                ),
            )
        };
        let token = CancellationToken::new();
        let stopped = Latch::new();
        {
            let mut local = self.local();
            if local.closed {
                return Err(ToolError::cancelled("the server is shutting down"));
            }
            // Admission: refused at once, before anything runs.
            let (all, own) = local.active(owner.as_ref());
            if all >= self.shared.max_active {
                return Err(busy(all, "all callers"));
            }
            if owner.is_some() && own >= self.shared.max_active_per_owner {
                return Err(busy(own, "this caller"));
            }
            local.insert(
                id.clone(),
                Running {
                    tool,
                    owner: owner.clone(),
                    waiter: tx,
                    token: token.clone(),
                    stopped: stopped.clone(),
                    started: false,
                },
            );
        }
        let at = now_ms();
        let recorded = async {
            let worker = self.shared.background.hold(self).await?;
            let record = JobRecord::pending(
                &id,
                tool,
                owner.as_ref().map(Owner::as_str),
                Some(worker),
                at,
            );
            self.shared.records.insert(record).await
        };
        if let Err(e) = recorded.await {
            self.local().remove(&id);
            return Err(e.into());
        }
        self.emit(|| JobEvent::Started {
            job_id: id.to_string(),
            tool: tool.to_owned(),
            timing,
            at,
            traceparent: started_in(),
        });
        Ok(NewJob {
            id,
            token,
            stop_guard: StopGuard(stopped),
            waiter: rx,
        })
    }
}

impl<R: Send + 'static> JobStore<R> {
    /// Records that the job's handler has started. A store that cannot be
    /// reached misses it: the job shows pending until it ends.
    pub(crate) async fn mark_running(&self, job_id: &str) {
        if let Some(job) = self.local().running.get_mut(job_id) {
            job.started = true;
        }
        let _ = self.shared.records.start(job_id, now_ms()).await;
    }

    /// Records the handler's progress.
    pub(crate) fn set_progress(&self, job_id: &str, fraction: f32) {
        let records = self.shared.records.clone();
        let id = job_id.to_owned();
        background::write(async move {
            let _ = records.progress(&id, fraction).await;
        });
        self.emit(|| JobEvent::Progress {
            job_id: job_id.to_owned(),
            fraction,
        });
    }

    /// Publishes a chunk to subscribers.
    pub(crate) fn chunk_event(&self, job_id: &str, seq: u64, chunk: &[u8]) {
        self.emit(|| JobEvent::Chunk {
            job_id: job_id.to_owned(),
            seq,
            chunk: Bytes::from(chunk),
        });
    }

    /// Stops sending the job's outcome to its waiter, which gave up waiting.
    /// False when the outcome is on its way to it already.
    pub(crate) fn detach_waiter(&self, job_id: &str) -> bool {
        self.local()
            .running
            .get_mut(job_id)
            .is_some_and(|r| r.waiter.take().is_some())
    }

    /// Sends an event built only when someone listens.
    fn emit(&self, event: impl FnOnce() -> JobEvent) {
        if self.shared.events.receiver_count() > 0 {
            let _ = self.shared.events.send(event());
        }
    }

    fn finished_event(&self, job_id: &str, tool: &str, ending: &Ending) {
        crate::metrics::job_finished(ending.state);
        let event = JobEvent::Finished {
            job_id: job_id.to_owned(),
            tool: tool.to_owned(),
            state: ending.state,
            error_code: ending.error.as_ref().map(|e| e.code.to_string()),
            at: ending.at,
        };
        // Broadcasting fails only when nobody listens.
        let _ = self.shared.events.send(event);
    }

    fn local(&self) -> MutexGuard<'_, Local<R>> {
        // Nothing panics while holding the lock; if something ever does,
        // the table is still consistent enough to serve.
        self.shared
            .local
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl<R: Serialize + Send + 'static> JobStore<R> {
    /// Records the handler's outcome, unless the job was settled first (a
    /// cancel, a shutdown); then hands it to the caller waiting inline, if
    /// one is still there. A store that cannot be reached is retried until
    /// it takes the outcome, and the waiting caller is answered meanwhile.
    pub(crate) async fn finish(&self, job_id: &str, outcome: Outcome<R>) {
        let Some(mut job) = self.local().remove(job_id) else {
            return;
        };
        let waiter = job.waiter.take().filter(|w| !w.is_closed());
        let at = now_ms();
        let ending = match &outcome {
            // A caller waiting for the response takes it: it is not kept,
            // unless other servers share the records. Then a session that
            // moved, or a caller whose gateway died while it waited, asks
            // another server for it.
            Ok(_) if waiter.is_some() && !self.shared.records.is_shared() => {
                Ending::complete(None, at)
            }
            Ok(response) => Ending::complete(response_json(response, job.tool), at),
            Err(e) => Ending::failed(e.clone(), at),
        };
        let mut waiter = waiter;
        let mut outcome = Some(outcome);
        let mut backoff = background::Backoff::new();
        loop {
            match self
                .shared
                .records
                .settle(job_id, ending.clone(), self.shared.keep)
                .await
            {
                Ok(true) => break,
                Ok(false) => {
                    // Settled elsewhere (cancelled through another server,
                    // or reaped): that is the job's end.
                    if let Some(waiter) = waiter.take() {
                        let _ = waiter.send(Err(self.ended_elsewhere(job_id).await));
                    }
                    return;
                }
                Err(_) => {
                    // The caller need not wait for the store to come back.
                    if let (Some(waiter), Some(outcome)) = (waiter.take(), outcome.take()) {
                        let _ = waiter.send(outcome);
                    }
                    backoff.wait().await;
                }
            }
        }
        self.finished_event(job_id, job.tool, &ending);
        if let (Some(waiter), Some(outcome)) = (waiter, outcome) {
            let _ = waiter.send(outcome);
        }
    }

    /// Why a job settled by someone else ended, as its caller is told.
    async fn ended_elsewhere(&self, job_id: &str) -> ToolError {
        match self.shared.records.get(job_id).await {
            Ok(Some(JobRecord {
                error: Some(error), ..
            })) => error,
            _ => ToolError::cancelled("the job was cancelled"),
        }
    }

    /// One job's state, timestamps and (once complete) result.
    ///
    /// # Errors
    /// [`JobError::InvalidJobId`] for a malformed id, [`JobError::NotFound`]
    /// for one that is unknown or expired, [`JobError::Unavailable`] when
    /// the store cannot be reached.
    pub async fn status(&self, job_id: &str) -> Result<JobInfo, JobError> {
        self.status_for(job_id, None).await
    }

    /// [`status`](Self::status) as `caller` sees it: another owner's job
    /// is not found.
    ///
    /// # Errors
    /// As [`status`](Self::status).
    pub async fn status_for(
        &self,
        job_id: &str,
        caller: Option<&Owner>,
    ) -> Result<JobInfo, JobError> {
        self.shared.background.reap_once(self).await;
        tools::status(self.shared.records.as_ref(), job_id, caller).await
    }

    /// Jobs newest first, filtered by state and tool, at most `limit` of
    /// them (and never more than 1,000), with the number that matched and
    /// how many the store holds in each state.
    ///
    /// # Errors
    /// [`JobError::Unavailable`] when the store cannot be reached.
    pub async fn list(&self, request: JobListRequest) -> Result<JobListResponse, JobError> {
        self.list_for(request, None).await
    }

    /// [`list`](Self::list) as `caller` sees it: its own jobs, counted.
    ///
    /// # Errors
    /// As [`list`](Self::list).
    pub async fn list_for(
        &self,
        request: JobListRequest,
        caller: Option<&Owner>,
    ) -> Result<JobListResponse, JobError> {
        self.shared.background.reap_once(self).await;
        tools::list(self.shared.records.as_ref(), request, caller).await
    }
}

/// Checks that `id` has the shape of a job id.
pub(crate) fn check_id(id: &str) -> Result<(), JobError> {
    id::check(id)
}

/// The trace of the call being served, which a job it starts belongs to.
fn started_in() -> Option<String> {
    #[cfg(feature = "otel")]
    return crate::otel::traceparent_text(&tracing::Span::current());
    #[cfg(not(feature = "otel"))]
    None
}
