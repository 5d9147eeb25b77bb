//! The job store's contract: where each job's one record lives. A
//! [`JobStore`](super::JobStore) keeps what only its own process can hold
//! (the running handlers' cancellation tokens, the callers waiting inline,
//! the event channel) and writes everything a caller may ask about to a
//! [`JobRecords`]: in memory for one process ([`MemoryJobs`]), in a redb
//! file for one process that restarts (`RedbJobs`, feature `durable`), or
//! in Redis for every worker and gateway of a deployment (`RedisJobs`,
//! feature `redis`).
//!
//! Every store keeps the same promises, which `runtime/tests/job_records.rs`
//! checks against all three:
//!
//! - A record is visible to every reader once the call that wrote it has
//!   returned, and never before.
//! - A job settles once: of two [`settle`](JobRecords::settle) calls (a
//!   handler finishing, a cancel, a lapsed lease) exactly one returns
//!   `true`, and the state it wrote is the one every reader sees.
//! - A finished job is kept for the [`Retention`] it settled with, then
//!   forgotten; a pending or running one is never forgotten.
//! - A job whose worker's lease lapsed while it was unfinished is settled
//!   failed with [`INTERRUPTED`] by [`reap`](JobRecords::reap), exactly
//!   once, whoever reaps first.
//! - [`follow`](JobRecords::follow) tells of every job that settles from
//!   then on, or says that it may have missed some.

mod memory;
mod record;
#[cfg(feature = "durable")]
mod redb;
#[cfg(feature = "redis")]
pub(crate) mod redis;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use tokio::sync::broadcast;

use crate::jobs::{JobCounts, JobState};
use crate::{ToolError, codes};

pub use memory::MemoryJobs;
pub(crate) use record::is_finished;
pub use record::{Ending, JobRecord};
#[cfg(feature = "durable")]
pub use redb::RedbJobs;
#[cfg(feature = "redis")]
pub use redis::RedisJobs;

/// The code of a job whose worker stopped (or lost its lease) while the job
/// was pending or running: it did not finish.
pub const INTERRUPTED: &str = "INTERRUPTED";

/// What a [`JobRecords`] method returns: a boxed future, so that stores are
/// chosen at run time (`--jobs memory|PATH|redis://…`).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Where the records of a deployment's jobs are kept. See the
/// [module](self) for the promises every store keeps.
pub trait JobRecords: Send + Sync + 'static {
    /// Records a new job. A job id already recorded is an error.
    fn insert(&self, job: JobRecord) -> StoreFuture<'_, ()>;

    /// Records that a pending job's handler has started, at `at` (Unix
    /// milliseconds). Changes nothing for a job in any other state.
    fn start<'a>(&'a self, job_id: &'a str, at: u64) -> StoreFuture<'a, ()>;

    /// Records an unfinished job's progress, between 0 and 1.
    fn progress<'a>(&'a self, job_id: &'a str, fraction: f32) -> StoreFuture<'a, ()>;

    /// Moves an unfinished job to its final state, to be kept as `keep`
    /// says. `true` when this call settled it; `false` when it had settled
    /// already (or is unknown), and then nothing changed.
    fn settle<'a>(
        &'a self,
        job_id: &'a str,
        ending: Ending,
        keep: Retention,
    ) -> StoreFuture<'a, bool>;

    /// One job's record; `None` when it is unknown or expired.
    fn get<'a>(&'a self, job_id: &'a str) -> StoreFuture<'a, Option<JobRecord>>;

    /// One job's state and owner, without the rest of its record (its
    /// result may be large): what a poll or a cancel looks at. `None` when
    /// it is unknown or expired.
    fn head<'a>(&'a self, job_id: &'a str) -> StoreFuture<'a, Option<JobHead>>;

    /// The jobs `query` selects, newest first.
    fn list(&self, query: JobQuery) -> StoreFuture<'_, JobPage>;

    /// Holds (or renews) `worker`'s lease for `lease` from now: while it
    /// holds, the worker's unfinished jobs are its own to settle.
    fn renew<'a>(&'a self, worker: &'a str, lease: Duration) -> StoreFuture<'a, ()>;

    /// Settles as failed with [`INTERRUPTED`] every unfinished job whose
    /// worker holds no lease, to be kept as `keep` says; their ids.
    fn reap(&self, keep: Retention) -> StoreFuture<'_, Vec<String>>;

    /// A receiver of [`Change`]s from now on.
    fn follow(&self) -> broadcast::Receiver<Change>;

    /// Whether other processes share these records (so a job may be settled
    /// by someone other than the process that runs it).
    fn is_shared(&self) -> bool {
        false
    }

    /// Whether the store answers now: one cheap round trip (Redis:
    /// `PING`), for a readiness probe. By default `Ok`: a store in this
    /// process is always there.
    fn ping(&self) -> StoreFuture<'_, ()> {
        Box::pin(std::future::ready(Ok(())))
    }
}

/// A job's state and owner: [`JobRecords::head`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobHead {
    /// Its state.
    pub state: JobState,
    /// Who started it.
    pub owner: Option<String>,
}

impl JobHead {
    /// Whether it is in a state it never leaves.
    pub fn is_finished(&self) -> bool {
        is_finished(self.state)
    }
}

/// How long a finished job is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retention {
    /// Forgotten this long after it finished.
    pub ttl: Duration,
    /// At most this many finished jobs are kept, oldest finished forgotten
    /// first. A bound on memory for the stores that hold every job in this
    /// process; Redis bounds its memory itself (`maxmemory`), and ignores it.
    pub max_finished: usize,
}

/// Which jobs a [`JobRecords::list`] returns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JobQuery {
    /// Only this owner's jobs; `None` for every job.
    pub owner: Option<String>,
    /// Only jobs in this state.
    pub state: Option<JobState>,
    /// Only jobs that are pending or running.
    pub unfinished: bool,
    /// Only jobs of this tool.
    pub tool: Option<String>,
    /// At most this many records (the count and totals cover every match).
    pub limit: usize,
}

impl JobQuery {
    /// Whether `record` is one the query selects.
    pub fn selects(&self, record: &JobRecord) -> bool {
        self.sees(record)
            && self.state.is_none_or(|s| s == record.state)
            && (!self.unfinished || !record.is_finished())
            && self.tool.as_deref().is_none_or(|t| t == record.tool)
    }

    /// Whether the query's owner may see `record` (ignoring the other
    /// filters): the jobs counted in [`JobPage::counts`].
    pub fn sees(&self, record: &JobRecord) -> bool {
        self.owner.is_none() || self.owner == record.owner
    }
}

/// What a [`JobRecords::list`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct JobPage {
    /// The first `limit` jobs selected, newest first.
    pub jobs: Vec<JobRecord>,
    /// How many jobs were selected in all.
    pub total: u32,
    /// How many jobs the query's owner sees in each state, whatever the
    /// other filters.
    pub counts: JobCounts,
}

impl JobPage {
    /// An empty page, to be filled record by record, newest first.
    pub fn new() -> Self {
        JobPage {
            jobs: Vec::new(),
            total: 0,
            counts: JobCounts {
                pending: 0,
                running: 0,
                complete: 0,
                failed: 0,
                cancelled: 0,
            },
        }
    }

    /// Counts `record` and keeps it when `query` selects it and the page
    /// has room.
    pub fn add(&mut self, query: &JobQuery, record: &JobRecord) {
        if !query.sees(record) {
            return;
        }
        let n = match record.state {
            JobState::Pending => &mut self.counts.pending,
            JobState::Running => &mut self.counts.running,
            JobState::Complete => &mut self.counts.complete,
            JobState::Failed => &mut self.counts.failed,
            JobState::Cancelled => &mut self.counts.cancelled,
        };
        *n = n.saturating_add(1);
        if query.selects(record) {
            self.total = self.total.saturating_add(1);
            if self.jobs.len() < query.limit {
                self.jobs.push(record.clone());
            }
        }
    }
}

impl Default for JobPage {
    fn default() -> Self {
        Self::new()
    }
}

/// Something that happened to the records, for those that
/// [follow](JobRecords::follow) them.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// A job settled.
    Settled {
        /// The job.
        job_id: String,
        /// Its final state.
        state: JobState,
    },
    /// Changes may have been missed (the store's connection was lost and
    /// is back): whoever waits on jobs should read them again.
    Missed,
}

/// A store that could not be read or written: unreachable, refusing, or
/// holding something this version cannot read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError(pub String);

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the job store: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

impl From<StoreError> for ToolError {
    fn from(e: StoreError) -> Self {
        ToolError::new(codes::UNAVAILABLE, format!("{e}; retry once it is back"))
    }
}

/// The store a `--jobs` argument names: `memory`, a `redis://` (or
/// `rediss://`) URL, or the path of a redb file. The studio's `serve` and
/// `gateway` take it, as `--jobs` or `$TOOLWRIGHT_JOBS`.
///
/// Call it within a tokio runtime when it may name Redis.
///
/// # Errors
/// A store that cannot be opened (a file that is not a redb database, a
/// URL that is not Redis's), or one this build has no feature for
/// (`durable` for a file, `redis` for a URL).
pub fn open(spec: &str) -> Result<std::sync::Arc<dyn JobRecords>, StoreError> {
    if spec == "memory" {
        return Ok(std::sync::Arc::new(MemoryJobs::new()));
    }
    if spec.starts_with("redis://") || spec.starts_with("rediss://") {
        #[cfg(feature = "redis")]
        return Ok(std::sync::Arc::new(RedisJobs::open(spec)?));
        #[cfg(not(feature = "redis"))]
        return Err(StoreError(format!(
            "{spec}: this build keeps no jobs in Redis (the runtime's feature `redis`)"
        )));
    }
    #[cfg(feature = "durable")]
    return Ok(std::sync::Arc::new(RedbJobs::open(spec)?));
    #[cfg(not(feature = "durable"))]
    Err(StoreError(format!(
        "{spec}: this build keeps no jobs in files (the runtime's feature `durable`)"
    )))
}

/// A future that is ready at once, for stores that answer in place.
pub(crate) fn ready<'a, T: Send + 'a>(value: Result<T, StoreError>) -> StoreFuture<'a, T> {
    Box::pin(std::future::ready(value))
}
