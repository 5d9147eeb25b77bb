//! [`RedbJobs`]: the records in memory and in a redb file, so that they
//! outlive the process.

use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::Duration;

use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, watch};

use super::memory::Journal;
use super::{
    Change, Ending, JobHead, JobPage, JobQuery, JobRecord, JobRecords, MemoryJobs, Retention,
    StoreError, StoreFuture,
};
use crate::time::now_ms;

const JOBS: TableDefinition<&str, &[u8]> = TableDefinition::new("jobs");

/// Most changes written in one transaction: one commit (one `fsync`) for
/// every change that queued while the last was being written.
const MAX_BATCH: usize = 1024;

/// Job records in a redb file: pure Rust, crash-safe, for one process
/// that restarts. Every change is committed to the file before the call
/// that made it returns, and before anyone reads it; changes that queue
/// while a commit is under way share the next one.
///
/// Opening the file brings back its jobs: finished ones until they
/// expire, and those that were pending or running when the last process
/// stopped, which the first read settles failed with
/// [`INTERRUPTED`](super::INTERRUPTED). A file that cannot be written is
/// reported by [`RedbJobs::last_error`] while the jobs go on in memory.
pub struct RedbJobs {
    memory: MemoryJobs,
    disk: Arc<Disk>,
}

impl std::fmt::Debug for RedbJobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedbJobs").finish_non_exhaustive()
    }
}

/// A record as the file keeps it.
#[derive(Serialize, Deserialize)]
struct Stored {
    record: JobRecord,
    /// When a finished job is forgotten, in Unix milliseconds.
    expires_at: Option<u64>,
}

enum Op {
    Put(String, Vec<u8>),
    Remove(Vec<String>),
}

/// The file's end of the store: a writer thread and how far it has got.
struct Disk {
    ops: Mutex<mpsc::Sender<Op>>,
    told: AtomicU64,
    done: watch::Receiver<u64>,
    error: Arc<Mutex<Option<String>>>,
}

impl RedbJobs {
    /// Opens the database at `path`, creating it when there is none, and
    /// reads its jobs back.
    ///
    /// # Errors
    /// When the file cannot be opened, is not a redb database, or cannot
    /// be read.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let db = Database::create(path).map_err(error)?;
        let (stored, expired) = load(&db)?;
        let disk = Arc::new(Disk::start(db)?);
        let memory = MemoryJobs::journaled(Some(disk.clone() as Arc<dyn Journal>));
        let now = now_ms();
        for Stored { record, expires_at } in stored {
            let left = expires_at.map(|at| Duration::from_millis(at.saturating_sub(now)));
            memory.restore(record, left);
        }
        disk.remove(expired);
        Ok(RedbJobs { memory, disk })
    }

    /// The last write to the file that failed, if any: the jobs are still
    /// served from memory.
    pub fn last_error(&self) -> Option<String> {
        self.disk
            .error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

/// Every record in `db`, oldest first, and the ids of those that expired.
fn load(db: &Database) -> Result<(Vec<Stored>, Vec<String>), StoreError> {
    let tx = db.begin_read().map_err(error)?;
    let table = match tx.open_table(JOBS) {
        Ok(table) => table,
        Err(redb::TableError::TableDoesNotExist(_)) => return Ok((Vec::new(), Vec::new())),
        Err(e) => return Err(error(e)),
    };
    let now = now_ms();
    let mut stored = Vec::new();
    let mut expired = Vec::new();
    for entry in table.iter().map_err(error)? {
        let (key, value) = entry.map_err(error)?;
        // A record this version cannot read is dropped, not fatal: the
        // rest of the jobs still come back.
        match rmp_serde::from_slice::<Stored>(value.value()) {
            Ok(job) if job.expires_at.is_none_or(|at| at > now) => stored.push(job),
            _ => expired.push(key.value().to_owned()),
        }
    }
    stored.sort_by_key(|job| job.record.created_at);
    Ok((stored, expired))
}

fn error(e: impl std::fmt::Display) -> StoreError {
    StoreError(e.to_string())
}

impl Disk {
    fn start(db: Database) -> Result<Self, StoreError> {
        let (ops, rx) = mpsc::channel::<Op>();
        let (done_tx, done) = watch::channel(0u64);
        let error = Arc::new(Mutex::new(None));
        let noted = error.clone();
        std::thread::Builder::new()
            .name("toolwright-jobs".into())
            .spawn(move || write_all(&db, &rx, &done_tx, &noted))
            .map_err(|e| StoreError(format!("no writer thread: {e}")))?;
        Ok(Disk {
            ops: Mutex::new(ops),
            told: AtomicU64::new(0),
            done,
            error,
        })
    }

    fn send(&self, op: Op) {
        self.told.fetch_add(1, Ordering::AcqRel);
        let ops = self.ops.lock().unwrap_or_else(PoisonError::into_inner);
        // The thread lives as long as the store; if it ever died, readers
        // would wait on it, so say so.
        if ops.send(op).is_err() {
            *self.error.lock().unwrap_or_else(PoisonError::into_inner) =
                Some("the writer thread has stopped".to_owned());
        }
    }
}

/// The writer thread: every change in order, batched into transactions.
fn write_all(
    db: &Database,
    rx: &mpsc::Receiver<Op>,
    done: &watch::Sender<u64>,
    error: &Mutex<Option<String>>,
) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(op) => batch.push(op),
                Err(_) => break,
            }
        }
        let n = batch.len() as u64;
        if let Err(e) = commit(db, batch) {
            *error.lock().unwrap_or_else(PoisonError::into_inner) = Some(e.to_string());
        }
        // Readers wait for changes to be tried, not to succeed: a failed
        // write is reported by `last_error`, and memory goes on.
        done.send_modify(|d| *d += n);
    }
}

fn commit(db: &Database, batch: Vec<Op>) -> Result<(), StoreError> {
    let tx = db.begin_write().map_err(error)?;
    {
        let mut table = tx.open_table(JOBS).map_err(error)?;
        for op in batch {
            match op {
                Op::Put(id, bytes) => {
                    table.insert(id.as_str(), bytes.as_slice()).map_err(error)?;
                }
                Op::Remove(ids) => {
                    for id in ids {
                        table.remove(id.as_str()).map_err(error)?;
                    }
                }
            }
        }
    }
    tx.commit().map_err(error)
}

impl Journal for Disk {
    fn put(&self, record: &JobRecord, expires_at: Option<u64>) {
        let stored = Stored {
            record: record.clone(),
            expires_at,
        };
        match rmp_serde::to_vec_named(&stored) {
            Ok(bytes) => self.send(Op::Put(record.job_id.clone(), bytes)),
            Err(e) => {
                *self.error.lock().unwrap_or_else(PoisonError::into_inner) =
                    Some(format!("the job {} does not encode: {e}", record.job_id));
            }
        }
    }

    fn remove(&self, job_ids: Vec<String>) {
        if !job_ids.is_empty() {
            self.send(Op::Remove(job_ids));
        }
    }

    fn told(&self) -> u64 {
        self.told.load(Ordering::Acquire)
    }

    fn written(&self, ticket: u64) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        let mut done = self.done.clone();
        Box::pin(async move {
            // The writer thread never stops while the store lives.
            let _ = done.wait_for(|d| *d >= ticket).await;
        })
    }
}

impl JobRecords for RedbJobs {
    fn insert(&self, job: JobRecord) -> StoreFuture<'_, ()> {
        self.memory.insert(job)
    }

    fn start<'a>(&'a self, job_id: &'a str, at: u64) -> StoreFuture<'a, ()> {
        self.memory.start(job_id, at)
    }

    fn progress<'a>(&'a self, job_id: &'a str, fraction: f32) -> StoreFuture<'a, ()> {
        self.memory.progress(job_id, fraction)
    }

    fn settle<'a>(
        &'a self,
        job_id: &'a str,
        ending: Ending,
        keep: Retention,
    ) -> StoreFuture<'a, bool> {
        self.memory.settle(job_id, ending, keep)
    }

    fn get<'a>(&'a self, job_id: &'a str) -> StoreFuture<'a, Option<JobRecord>> {
        self.memory.get(job_id)
    }

    fn head<'a>(&'a self, job_id: &'a str) -> StoreFuture<'a, Option<JobHead>> {
        self.memory.head(job_id)
    }

    fn list(&self, query: JobQuery) -> StoreFuture<'_, JobPage> {
        self.memory.list(query)
    }

    fn renew<'a>(&'a self, worker: &'a str, lease: Duration) -> StoreFuture<'a, ()> {
        self.memory.renew(worker, lease)
    }

    fn reap(&self, keep: Retention) -> StoreFuture<'_, Vec<String>> {
        self.memory.reap(keep)
    }

    fn follow(&self) -> broadcast::Receiver<Change> {
        self.memory.follow()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_not_a_database_is_an_error() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("jobs.redb");
        std::fs::write(&path, b"not a database at all, just some bytes").expect("writes");
        assert!(RedbJobs::open(&path).is_err());
    }
}
