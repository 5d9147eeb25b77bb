//! [`MemoryJobs`]: the records in this process's memory, gone with it.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::broadcast;
use tokio::time::Instant;

use super::{
    Change, Ending, INTERRUPTED, JobHead, JobPage, JobQuery, JobRecord, JobRecords, Retention,
    StoreError, StoreFuture, ready,
};
use crate::ToolError;
use crate::time::now_ms;

/// How many changes a follower may fall behind by before it is told it
/// missed some.
const CHANGES: usize = 1024;

/// Job records in memory: the default store of a dispatcher, and the
/// reference the other stores are tested against. Expiry follows tokio's
/// clock, so tests with paused time see jobs expire.
pub struct MemoryJobs {
    table: Mutex<Table>,
    changes: broadcast::Sender<Change>,
    /// Where every change is also written, for a store that outlives the
    /// process (`RedbJobs`).
    journal: Option<Arc<dyn Journal>>,
}

/// A copy of the records somewhere else, kept in step: told of every
/// change under the store's lock, in order.
pub(crate) trait Journal: Send + Sync + 'static {
    /// A record was written (or rewritten); a finished one expires at
    /// `expires_at` (Unix milliseconds).
    fn put(&self, record: &JobRecord, expires_at: Option<u64>);
    /// Records were forgotten.
    fn remove(&self, job_ids: Vec<String>);
    /// How many changes it has been told of.
    fn told(&self) -> u64;
    /// Waits until the first `ticket` changes are written.
    fn written(&self, ticket: u64) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

impl std::fmt::Debug for MemoryJobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryJobs").finish_non_exhaustive()
    }
}

impl Default for MemoryJobs {
    fn default() -> Self {
        Self::new()
    }
}

struct Table {
    /// Keyed by a sequence number in insertion order, so that iterating
    /// backwards is newest first.
    records: BTreeMap<u64, JobRecord>,
    index: HashMap<String, u64>,
    /// Finished jobs in the order they finished, with when each expires.
    finished: VecDeque<(u64, Instant)>,
    /// The bound on finished jobs the last settle asked for.
    max_finished: usize,
    next_seq: u64,
    leases: HashMap<String, Instant>,
}

impl MemoryJobs {
    /// An empty store.
    pub fn new() -> Self {
        Self::journaled(None)
    }

    /// An empty store that tells `journal` of every change.
    pub(crate) fn journaled(journal: Option<Arc<dyn Journal>>) -> Self {
        MemoryJobs {
            journal,
            table: Mutex::new(Table {
                records: BTreeMap::new(),
                index: HashMap::new(),
                finished: VecDeque::new(),
                max_finished: usize::MAX,
                next_seq: 0,
                leases: HashMap::new(),
            }),
            changes: broadcast::channel(CHANGES).0,
        }
    }

    /// The table, with expired jobs forgotten.
    fn lock(&self) -> MutexGuard<'_, Table> {
        // Nothing panics while holding the lock; if something ever does,
        // the table is still consistent enough to serve.
        let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
        self.evict(&mut table);
        table
    }

    fn evict(&self, table: &mut Table) {
        let gone = table.evict(Instant::now());
        if let Some(journal) = &self.journal
            && !gone.is_empty()
        {
            journal.remove(gone);
        }
    }

    /// Tells the journal, if any, of `record` as it is now.
    fn journal_put(&self, record: &JobRecord, expires: Option<Instant>) {
        if let Some(journal) = &self.journal {
            let expires_at = expires.map(|at| {
                let left = at.saturating_duration_since(Instant::now());
                now_ms().saturating_add(u64::try_from(left.as_millis()).unwrap_or(u64::MAX))
            });
            journal.put(record, expires_at);
        }
    }

    /// Answers `value` once the journal has written every change made
    /// so far (taken under the lock, so a reader never sees a change the
    /// journal could still lose).
    fn answer<'a, T: Send + 'a>(
        &'a self,
        table: MutexGuard<'_, Table>,
        value: T,
    ) -> StoreFuture<'a, T> {
        let Some(journal) = &self.journal else {
            return ready(Ok(value));
        };
        let ticket = journal.told();
        drop(table);
        Box::pin(async move {
            journal.written(ticket).await;
            Ok(value)
        })
    }

    /// Settles `job_id` unless it has settled; whether it did now.
    fn settle_locked(
        &self,
        table: &mut Table,
        job_id: &str,
        ending: Ending,
        keep: Retention,
    ) -> bool {
        let Some(&seq) = table.index.get(job_id) else {
            return false;
        };
        let Some(record) = table.records.get_mut(&seq) else {
            return false;
        };
        if record.is_finished() {
            return false;
        }
        let state = ending.state;
        record.settle(ending);
        let expires = Instant::now()
            .checked_add(keep.ttl)
            .unwrap_or_else(far_future);
        self.journal_put(record, Some(expires));
        table.finished.push_back((seq, expires));
        table.max_finished = keep.max_finished;
        self.evict(table);
        // Sending fails only when nobody follows.
        let _ = self.changes.send(Change::Settled {
            job_id: job_id.to_owned(),
            state,
        });
        true
    }

    #[cfg(feature = "durable")]
    /// Puts back a record read from elsewhere, in the order given (oldest
    /// first); a finished one expires `ttl_left` from now.
    pub(crate) fn restore(&self, record: JobRecord, ttl_left: Option<Duration>) {
        let mut table = self.lock();
        let seq = table.next_seq;
        table.next_seq += 1;
        table.index.insert(record.job_id.clone(), seq);
        if record.is_finished() {
            let expires = Instant::now()
                .checked_add(ttl_left.unwrap_or_default())
                .unwrap_or_else(far_future);
            // Restored in creation order: keep the queue in expiry order.
            let at = table.finished.partition_point(|&(_, t)| t <= expires);
            table.finished.insert(at, (seq, expires));
        }
        table.records.insert(seq, record);
    }
}

/// An instant later than any deadline this store sets in practice: ten
/// years on (a day on, on a clock that cannot count that far).
fn far_future() -> Instant {
    let now = Instant::now();
    now.checked_add(Duration::from_secs(10 * 365 * 24 * 60 * 60))
        .or_else(|| now.checked_add(Duration::from_secs(24 * 60 * 60)))
        .unwrap_or(now)
}

impl Table {
    /// Forgets finished jobs past their expiry, then the oldest finished
    /// ones beyond the bound, and names them. Pending and running jobs are
    /// never forgotten.
    fn evict(&mut self, now: Instant) -> Vec<String> {
        let mut gone = Vec::new();
        while let Some(&(seq, expires)) = self.finished.front() {
            if expires > now && self.finished.len() <= self.max_finished {
                break;
            }
            self.finished.pop_front();
            if let Some(record) = self.records.remove(&seq) {
                self.index.remove(&record.job_id);
                gone.push(record.job_id);
            }
        }
        gone
    }

    fn get_mut(&mut self, job_id: &str) -> Option<&mut JobRecord> {
        let seq = self.index.get(job_id)?;
        self.records.get_mut(seq)
    }
}

impl JobRecords for MemoryJobs {
    fn insert(&self, job: JobRecord) -> StoreFuture<'_, ()> {
        let mut table = self.lock();
        if table.index.contains_key(&job.job_id) {
            return ready(Err(StoreError(format!(
                "the job {} is recorded already",
                job.job_id
            ))));
        }
        let seq = table.next_seq;
        table.next_seq += 1;
        table.index.insert(job.job_id.clone(), seq);
        self.journal_put(&job, None);
        table.records.insert(seq, job);
        self.answer(table, ())
    }

    fn start<'a>(&'a self, job_id: &'a str, at: u64) -> StoreFuture<'a, ()> {
        let mut table = self.lock();
        if let Some(record) = table.get_mut(job_id) {
            // Like progress, not worth a disk write of its own: a job the
            // process stopped while it ran is interrupted, started or not.
            record.start(at);
        }
        self.answer(table, ())
    }

    fn progress<'a>(&'a self, job_id: &'a str, fraction: f32) -> StoreFuture<'a, ()> {
        let mut table = self.lock();
        if let Some(record) = table.get_mut(job_id)
            && !record.is_finished()
        {
            record.progress = Some(fraction);
            // Progress is not worth a disk write of its own: it goes with
            // the job's next change.
        }
        self.answer(table, ())
    }

    fn settle<'a>(
        &'a self,
        job_id: &'a str,
        ending: Ending,
        keep: Retention,
    ) -> StoreFuture<'a, bool> {
        let mut table = self.lock();
        let settled = self.settle_locked(&mut table, job_id, ending, keep);
        self.answer(table, settled)
    }

    fn get<'a>(&'a self, job_id: &'a str) -> StoreFuture<'a, Option<JobRecord>> {
        let table = self.lock();
        let record = table
            .index
            .get(job_id)
            .and_then(|seq| table.records.get(seq))
            .cloned();
        self.answer(table, record)
    }

    fn head<'a>(&'a self, job_id: &'a str) -> StoreFuture<'a, Option<JobHead>> {
        let table = self.lock();
        let head = table
            .index
            .get(job_id)
            .and_then(|seq| table.records.get(seq))
            .map(|r| JobHead {
                state: r.state,
                owner: r.owner.clone(),
            });
        self.answer(table, head)
    }

    fn list(&self, query: JobQuery) -> StoreFuture<'_, JobPage> {
        let table = self.lock();
        let mut page = JobPage::new();
        for record in table.records.values().rev() {
            page.add(&query, record);
        }
        self.answer(table, page)
    }

    fn renew<'a>(&'a self, worker: &'a str, lease: Duration) -> StoreFuture<'a, ()> {
        let until = Instant::now().checked_add(lease).unwrap_or_else(far_future);
        self.lock().leases.insert(worker.to_owned(), until);
        ready(Ok(()))
    }

    fn reap(&self, keep: Retention) -> StoreFuture<'_, Vec<String>> {
        let mut table = self.lock();
        let now = Instant::now();
        table.leases.retain(|_, until| *until > now);
        let lapsed: Vec<String> = table
            .records
            .values()
            .filter(|r| !r.is_finished())
            .filter(|r| {
                r.worker
                    .as_ref()
                    .is_some_and(|w| !table.leases.contains_key(w))
            })
            .map(|r| r.job_id.clone())
            .collect();
        let at = now_ms();
        let reaped = lapsed
            .into_iter()
            .filter(|id| {
                let ending = Ending::failed(interrupted(), at);
                self.settle_locked(&mut table, id, ending, keep)
            })
            .collect();
        self.answer(table, reaped)
    }

    fn follow(&self) -> broadcast::Receiver<Change> {
        self.changes.subscribe()
    }
}

/// The error of a job whose worker stopped before it finished.
pub(crate) fn interrupted() -> ToolError {
    ToolError::new(
        INTERRUPTED,
        "the worker running the job stopped before it finished",
    )
}
