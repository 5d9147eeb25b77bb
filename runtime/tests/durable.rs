//! A job store with a backend: what it writes, and what a new store reads
//! back — finished jobs until their time-to-live, interrupted ones as
//! `INTERRUPTED`, cancellations at shutdown as cancelled.

mod support;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use support::*;
use toolwright::jobs::JobState;
use toolwright::jobs::durable::{BackendError, INTERRUPTED, JobBackend, StoredJob};
use toolwright::{Dispatcher, DispatcherConfig, ResponseEnvelope};

/// A backend in memory, shared so that a second store reads what the first
/// wrote.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<BTreeMap<String, StoredJob>>>);

impl JobBackend for Shared {
    fn put(&mut self, job: &StoredJob) -> Result<(), BackendError> {
        self.0
            .lock()
            .unwrap()
            .insert(job.job_id.clone(), job.clone());
        Ok(())
    }

    fn remove(&mut self, job_ids: &[String]) -> Result<(), BackendError> {
        let mut jobs = self.0.lock().unwrap();
        for id in job_ids {
            jobs.remove(id);
        }
        Ok(())
    }

    fn load(&mut self) -> Result<Vec<StoredJob>, BackendError> {
        Ok(self.0.lock().unwrap().values().cloned().collect())
    }
}

fn config() -> DispatcherConfig {
    DispatcherConfig::default().short_wait(Duration::ZERO)
}

fn open(backend: &Shared, config: DispatcherConfig) -> Dispatcher<Studio> {
    Dispatcher::with_job_backend(Studio::default(), config, backend.clone()).expect("loads")
}

#[tokio::test]
async fn a_new_store_reads_back_results_failures_and_interruptions() {
    let backend = Shared::default();
    let first = open(&backend, config());
    let done = started(&first.call(ToolRequest::Sleep(DelayRequest { ms: 1 })).await);
    let failed = started(
        &first
            .call(ToolRequest::Launch(LaunchRequest { fail: true }))
            .await,
    );
    let running = started(
        &first
            .call(ToolRequest::Sleep(DelayRequest { ms: 60_000 }))
            .await,
    );
    wait_all(&first, &[&done, &failed]).await;
    // Let the writer catch up with the finishes, as a crash might not.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(backend.0.lock().unwrap().len(), 3);

    // A second store on the same backend, as after a crash: the first is
    // never shut down.
    let second = open(&backend, config());
    let info = second.jobs().status(&done).expect("kept");
    assert_eq!(info.state, JobState::Complete);
    assert!(info.result.is_some(), "{info:?}");
    let info = second.jobs().status(&failed).expect("kept");
    assert_eq!(info.state, JobState::Failed);
    assert_eq!(info.error_code.as_deref(), Some("ENGINE_DOWN"), "{info:?}");
    let info = second.jobs().status(&running).expect("kept");
    assert_eq!(info.state, JobState::Failed);
    assert_eq!(info.error_code.as_deref(), Some(INTERRUPTED), "{info:?}");
    // The interruption is written back, so a third start says the same.
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(
        backend.0.lock().unwrap()[&running]
            .error
            .as_ref()
            .map(|e| e.code.to_string()),
        Some(INTERRUPTED.to_owned())
    );
    drop(first);
}

#[tokio::test]
async fn shutdown_records_the_jobs_it_cancels_and_expired_jobs_are_dropped() {
    let backend = Shared::default();
    let first = open(&backend, config());
    let running = started(
        &first
            .call(ToolRequest::Sleep(DelayRequest { ms: 60_000 }))
            .await,
    );
    first.shutdown().await;
    // Written before shutdown returned.
    assert_eq!(
        backend.0.lock().unwrap()[&running].state,
        JobState::Cancelled
    );
    let second = open(&backend, config());
    assert_eq!(
        second.jobs().status(&running).expect("kept").state,
        JobState::Cancelled
    );

    // With a time-to-live shorter than the job's age, it is gone, from the
    // store and from the backend.
    tokio::time::sleep(Duration::from_millis(20)).await;
    let third = open(&backend, config().job_ttl(Duration::from_millis(10)));
    assert!(third.jobs().status(&running).is_err());
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(backend.0.lock().unwrap().is_empty());
    let ResponseEnvelope::Success(_) = third.call(ToolRequest::JobList(all_jobs())).await else {
        panic!("job_list answers");
    };
}
