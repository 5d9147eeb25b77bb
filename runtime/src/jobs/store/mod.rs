//! `JobStore`: the in-memory table of jobs. The dispatcher creates and
//! settles jobs in it; the job tools and Rust callers read it.

mod cancel;
mod events;
mod id;
mod persist;
mod poll;
mod record;
mod table;

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::{broadcast, oneshot, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

pub use events::JobEvent;
pub(crate) use record::{Outcome, StopGuard};

use crate::jobs::{JobError, JobInfo, JobListRequest, JobListResponse, JobState, Owner};
use crate::time::now_ms;
use crate::{Bytes, ToolError, ToolTiming, codes};
use id::IdGen;
use record::Record;
use table::Table;

/// Most jobs one `list` returns, whatever the request's `limit`.
const MAX_LIST: u32 = 1000;

/// Largest event channel: `broadcast` preallocates every slot.
const MAX_EVENT_CAPACITY: usize = 1 << 16;

/// How long `cancel` and `shutdown` wait past the grace period for a task
/// to end, to allow for scheduling on a loaded machine.
const STOP_MARGIN: Duration = Duration::from_millis(100);

/// The jobs of one dispatcher: every `async_*` and `fire_and_forget` call,
/// from acceptance until it expires.
///
/// Cheap to clone (it is a handle). `R` is the catalogue's `ToolResponse`.
/// Finished jobs are kept for the configured time-to-live and up to the
/// configured count, then dropped oldest first; pending and running jobs are
/// never dropped. Expiry is checked on every access, so no background task
/// is needed.
///
/// A job's response is kept once: a job answered within its wait budget, or
/// streamed, hands the response to its caller and is listed as complete
/// without a `result`.
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
            .field("ttl", &self.shared.ttl)
            .field("max_finished", &self.shared.max_finished)
            .finish_non_exhaustive()
    }
}

struct Shared<R> {
    table: Mutex<Table<R>>,
    ids: IdGen,
    /// Bumped whenever a job finishes; `poll` waits on it.
    settled: watch::Sender<u64>,
    events: broadcast::Sender<JobEvent>,
    ttl: Duration,
    max_finished: usize,
    grace: Duration,
    max_active: usize,
    max_active_per_owner: usize,
    /// Where jobs are written to outlive the process, if anywhere.
    persist: Option<persist::Persist<R>>,
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
}

impl<R: Send + 'static> JobStore<R> {
    pub(crate) fn new(config: StoreConfig) -> Self {
        Self::build(config, None)
    }

    fn build(config: StoreConfig, persist: Option<persist::Persist<R>>) -> Self {
        let (events, _) = broadcast::channel(config.event_capacity.clamp(1, MAX_EVENT_CAPACITY));
        JobStore {
            shared: Arc::new(Shared {
                table: Mutex::new(Table::new()),
                ids: IdGen::new(),
                settled: watch::Sender::new(0),
                events,
                ttl: config.ttl,
                max_finished: config.max_finished,
                grace: config.grace,
                max_active: config.max_active,
                max_active_per_owner: config.max_active_per_owner,
                persist,
            }),
        }
    }

    /// Receives an event for every job from now on: started, progress,
    /// chunks, finished.
    pub fn subscribe(&self) -> broadcast::Receiver<JobEvent> {
        self.shared.events.subscribe()
    }

    /// The response of a finished job, typed: `Ok(None)` while it is still
    /// pending or running, and for a job whose response went to the caller
    /// that waited for it inline.
    ///
    /// # Errors
    /// [`JobError::InvalidJobId`] for a malformed id, [`JobError::NotFound`]
    /// for one that is unknown or expired.
    pub fn result(&self, job_id: &str) -> Result<Option<Outcome<R>>, JobError>
    where
        R: Clone,
    {
        id::check(job_id)?;
        let table = self.lock();
        let record = table.get(job_id).ok_or_else(|| not_found(job_id))?;
        if !record.is_finished() {
            return Ok(None);
        }
        Ok(match (&record.error, &record.result) {
            (Some(e), _) => Some(Err(e.clone())),
            (None, Some(r)) => Some(Ok(r.clone())),
            (None, None) => None,
        })
    }

    // ---- for the dispatcher ----

    /// Accepts a job. With `waiter`, the outcome is sent to the returned
    /// receiver when the job finishes, if it is still listening then.
    pub(crate) fn create(
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
        let at = now_ms();
        let busy = |n: usize, whose: &str| {
            ToolError::new(
                codes::BUSY,
                format!(
                    "{n} jobs of {whose} are pending or running, as many as the server \
                     takes; retry when one has finished"
                ),
            )
        };
        let (token, stop_guard) = {
            let mut table = self.lock();
            if table.closed {
                return Err(ToolError::cancelled("the server is shutting down"));
            }
            // Admission: refused at once, before anything runs.
            let (all, own) = table.active(owner.as_ref());
            if all >= self.shared.max_active {
                return Err(busy(all, "all callers"));
            }
            if owner.is_some() && own >= self.shared.max_active_per_owner {
                return Err(busy(own, "this caller"));
            }
            let record = Record::new(id.clone(), tool, at, tx, owner);
            let handles = (record.token.clone(), StopGuard(record.stopped.clone()));
            if let Some(persist) = &self.shared.persist {
                persist.put(&record);
            }
            table.insert(record);
            handles
        };
        self.emit(|| JobEvent::Started {
            job_id: id.to_string(),
            tool: tool.to_owned(),
            timing,
            at,
        });
        Ok(NewJob {
            id,
            token,
            stop_guard,
            waiter: rx,
        })
    }

    /// Records that the job's handler has started.
    pub(crate) fn mark_running(&self, job_id: &str) {
        let mut table = self.lock();
        if let Some(r) = table.get_mut(job_id)
            && r.state == JobState::Pending
        {
            r.state = JobState::Running;
            r.started_at = Some(now_ms());
        }
    }

    /// Records the handler's progress.
    pub(crate) fn set_progress(&self, job_id: &str, fraction: f32) {
        {
            let mut table = self.lock();
            match table.get_mut(job_id) {
                Some(r) if !r.is_finished() => r.progress = Some(fraction),
                _ => return,
            }
        }
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

    /// Records the handler's outcome, unless the job was cancelled first.
    pub(crate) fn finish(&self, job_id: &str, outcome: Outcome<R>) {
        let mut table = self.lock();
        self.settle_locked(&mut table, job_id, outcome);
    }

    /// Stops sending the job's outcome to its waiter, which gave up waiting.
    /// False when the outcome has been sent already.
    pub(crate) fn detach_waiter(&self, job_id: &str) -> bool {
        let mut table = self.lock();
        table
            .get_mut(job_id)
            .is_some_and(|r| r.waiter.take().is_some())
    }

    fn settle_locked(&self, table: &mut Table<R>, job_id: &str, outcome: Outcome<R>) {
        let Some(record) = table.settle(job_id, outcome, now_ms(), Instant::now()) else {
            return;
        };
        if let Some(persist) = &self.shared.persist {
            persist.put(record);
        }
        let event = JobEvent::Finished {
            job_id: record.id.to_string(),
            tool: record.tool.to_owned(),
            state: record.state,
            error_code: record.error.as_ref().map(|e| e.code.to_string()),
            at: record.completed_at.unwrap_or_default(),
        };
        // Broadcasting fails only when nobody listens.
        let _ = self.shared.events.send(event);
        self.shared.settled.send_modify(|n| *n = n.wrapping_add(1));
        self.evict(table);
    }

    /// Sends an event built only when someone listens.
    fn emit(&self, event: impl FnOnce() -> JobEvent) {
        if self.shared.events.receiver_count() > 0 {
            let _ = self.shared.events.send(event());
        }
    }
}

impl<R: Serialize + Send + 'static> JobStore<R> {
    /// One job's state, timestamps and (once complete) result.
    ///
    /// # Errors
    /// [`JobError::InvalidJobId`] for a malformed id, [`JobError::NotFound`]
    /// for one that is unknown or expired.
    pub fn status(&self, job_id: &str) -> Result<JobInfo, JobError> {
        self.status_for(job_id, None)
    }

    /// [`status`](Self::status) as `caller` sees it: another owner's job
    /// is not found.
    ///
    /// # Errors
    /// As [`status`](Self::status).
    pub fn status_for(&self, job_id: &str, caller: Option<&Owner>) -> Result<JobInfo, JobError> {
        id::check(job_id)?;
        let table = self.lock();
        table
            .get(job_id)
            .filter(|r| r.seen_by(caller))
            .map(Record::info)
            .ok_or_else(|| not_found(job_id))
    }

    /// Jobs newest first, filtered by state and tool, at most `limit` of
    /// them (and never more than 1,000), with the number that matched and
    /// how many the store holds in each state.
    pub fn list(&self, request: JobListRequest) -> JobListResponse {
        self.list_for(request, None)
    }

    /// [`list`](Self::list) as `caller` sees it: its own jobs, counted.
    pub fn list_for(&self, request: JobListRequest, caller: Option<&Owner>) -> JobListResponse {
        let table = self.lock();
        let limit = usize::try_from(request.limit.min(MAX_LIST)).unwrap_or(usize::MAX);
        let mut total: u32 = 0;
        let mut jobs = Vec::new();
        for record in table.newest_first() {
            if !record.seen_by(caller)
                || request.state.is_some_and(|s| s != record.state)
                || request
                    .tool_name
                    .as_deref()
                    .is_some_and(|t| t != record.tool)
            {
                continue;
            }
            total = total.saturating_add(1);
            if jobs.len() < limit {
                jobs.push(record.info());
            }
        }
        JobListResponse {
            jobs,
            total,
            by_state: table.counts(caller),
        }
    }
}

impl<R> JobStore<R> {
    /// The table, with expired jobs dropped.
    fn lock(&self) -> MutexGuard<'_, Table<R>> {
        // Nothing panics while holding the lock; if something ever does,
        // the table is still consistent enough to serve.
        let mut table = self
            .shared
            .table
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        self.evict(&mut table);
        table
    }

    fn evict(&self, table: &mut Table<R>) {
        let gone = table.evict(Instant::now(), self.shared.ttl, self.shared.max_finished);
        if let Some(persist) = &self.shared.persist {
            persist.remove(gone);
        }
    }

    /// The last write to the store's [`JobBackend`](crate::jobs::durable::JobBackend)
    /// that failed, if any: the jobs are still served from memory.
    pub fn backend_error(&self) -> Option<String> {
        self.shared
            .persist
            .as_ref()
            .and_then(persist::Persist::failed)
    }
}

fn not_found(job_id: &str) -> JobError {
    JobError::NotFound {
        job_id: job_id.to_owned(),
    }
}
