//! Writing jobs to a [`JobBackend`] and reading them back. Writes go to one
//! background thread in the order the jobs changed, so the async runtime
//! never waits for a disk; [`JobStore::shutdown`] waits until they are
//! all written.

use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::oneshot;
use tokio::time::Instant;

use super::JobStore;
use super::record::Record;
use crate::jobs::durable::{BackendError, INTERRUPTED, JobBackend, StoredJob};
use crate::jobs::{JobState, Owner};
use crate::time::now_ms;
use crate::{ToolError, codes};

/// What the writer thread is asked to do.
enum Op {
    Put(StoredJob),
    Remove(Vec<String>),
    /// Answered once everything sent before it is written.
    Flush(oneshot::Sender<()>),
}

/// The store's end of its backend.
pub(super) struct Persist<R> {
    ops: mpsc::Sender<Op>,
    snapshot: fn(&Record<R>) -> StoredJob,
    /// The last write that failed, for [`JobStore::backend_error`].
    failed: Arc<Mutex<Option<String>>>,
}

impl<R> Persist<R> {
    pub(super) fn put(&self, record: &Record<R>) {
        // The thread outlives every store that holds its sender.
        let _ = self.ops.send(Op::Put((self.snapshot)(record)));
    }

    pub(super) fn remove(&self, job_ids: Vec<String>) {
        if !job_ids.is_empty() {
            let _ = self.ops.send(Op::Remove(job_ids));
        }
    }

    pub(super) async fn flush(&self) {
        let (tx, rx) = oneshot::channel();
        if self.ops.send(Op::Flush(tx)).is_ok() {
            let _ = rx.await;
        }
    }

    pub(super) fn failed(&self) -> Option<String> {
        self.failed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

fn snapshot<R: Serialize>(record: &Record<R>) -> StoredJob {
    StoredJob {
        job_id: record.id.to_string(),
        tool: record.tool.to_owned(),
        owner: record.owner.as_ref().map(|o| o.as_str().to_owned()),
        state: record.state,
        created_at: record.created_at,
        completed_at: record.completed_at,
        result: record
            .result
            .as_ref()
            .and_then(|r| rmp_serde::to_vec_named(r).ok()),
        error: record.error.clone(),
    }
}

/// Starts the writer thread on `backend`.
fn writer<R: Serialize>(mut backend: Box<dyn JobBackend>) -> Persist<R> {
    let (ops, rx) = mpsc::channel::<Op>();
    let failed = Arc::new(Mutex::new(None));
    let noted = failed.clone();
    let note = move |result: Result<(), BackendError>| {
        if let Err(e) = result {
            *noted.lock().unwrap_or_else(PoisonError::into_inner) = Some(e.to_string());
        }
    };
    std::thread::Builder::new()
        .name("toolwright-jobs".into())
        .spawn(move || {
            for op in rx {
                match op {
                    Op::Put(job) => note(backend.put(&job)),
                    Op::Remove(ids) => note(backend.remove(&ids)),
                    Op::Flush(done) => {
                        let _ = done.send(());
                    }
                }
            }
        })
        .map_or_else(
            // No thread: nothing is written, and the store says so.
            |e| {
                let failed = Arc::new(Mutex::new(Some(format!("no writer thread: {e}"))));
                let (ops, _) = mpsc::channel();
                Persist {
                    ops,
                    snapshot: snapshot::<R>,
                    failed,
                }
            },
            |_| Persist {
                ops,
                snapshot: snapshot::<R>,
                failed,
            },
        )
}

impl<R: Serialize + DeserializeOwned + Send + 'static> JobStore<R> {
    /// A store that keeps its jobs in `backend` too, with the jobs it holds
    /// read back: finished ones until their time-to-live, and ones that
    /// were pending or running as failed with `INTERRUPTED`. `tool` maps a
    /// stored tool name to the catalogue's; a job of a tool the catalogue
    /// no longer has is dropped.
    pub(crate) fn with_backend(
        config: super::StoreConfig,
        mut backend: Box<dyn JobBackend>,
        tool: impl Fn(&str) -> Option<&'static str>,
    ) -> Result<Self, BackendError> {
        let mut stored = backend.load()?;
        stored.sort_by_key(|job| job.created_at);
        let persist = writer::<R>(backend);
        let now = now_ms();
        let instant = Instant::now();
        let mut gone = Vec::new();
        let mut restored = Vec::new();
        for job in stored {
            let Some(name) = tool(&job.tool) else {
                gone.push(job.job_id);
                continue;
            };
            let mut record = Record::new(
                job.job_id.clone().into(),
                name,
                job.created_at,
                None,
                job.owner.as_deref().map(Owner::new),
            );
            let finished_at = if super::record::is_finished(job.state) {
                let completed = job.completed_at.unwrap_or(job.created_at);
                let age = Duration::from_millis(now.saturating_sub(completed));
                if age >= config.ttl {
                    gone.push(job.job_id);
                    continue;
                }
                record.state = job.state;
                record.completed_at = Some(completed);
                record.error = job.error;
                record.result = match job.result.map(|bytes| rmp_serde::from_slice::<R>(&bytes)) {
                    Some(Ok(result)) => Some(result),
                    Some(Err(_)) => {
                        record.state = JobState::Failed;
                        record.error = Some(ToolError::new(
                            codes::INTERNAL,
                            "the job's stored result could not be read back",
                        ));
                        None
                    }
                    None => None,
                };
                instant.checked_sub(age).unwrap_or(instant)
            } else {
                record.state = JobState::Failed;
                record.completed_at = Some(now);
                record.error = Some(ToolError::new(
                    INTERRUPTED,
                    "the server stopped while the job was pending or running; it did not finish",
                ));
                persist.put(&record);
                instant
            };
            // Nothing runs it: anyone waiting for it to stop need not wait.
            record.stopped.open();
            restored.push((record, finished_at));
        }
        persist.remove(gone);
        let store = JobStore::build(config, Some(persist));
        {
            let mut table = store.lock();
            for (record, finished_at) in restored {
                table.insert_finished(record, finished_at);
            }
        }
        Ok(store)
    }
}
