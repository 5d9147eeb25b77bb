//! A dispatcher whose job records are in a redb file: what a new process
//! reads back (finished jobs until they expire, interrupted ones as
//! `INTERRUPTED`, cancellations at shutdown as cancelled), and that
//! whatever a caller was told is on disk already.

mod support;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use support::*;
use toolwright::jobs::{INTERRUPTED, JobState, RedbJobs};
use toolwright::{Dispatcher, DispatcherConfig, ResponseEnvelope};

fn config() -> DispatcherConfig {
    DispatcherConfig::default().short_wait(Duration::ZERO)
}

/// A dispatcher on the redb file at `path`. The file is opened by one
/// process at a time: a store still open elsewhere is waited for.
fn open(path: &Path, config: DispatcherConfig) -> Dispatcher<Studio> {
    let mut tries = 0;
    let records = loop {
        match RedbJobs::open(path) {
            Ok(records) => break records,
            // The last process's writer thread is closing the file.
            Err(e) if tries < 100 => {
                tries += 1;
                let _ = e;
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => panic!("{e}"),
        }
    };
    Dispatcher::with_job_records(Studio::default(), config, Arc::new(records))
}

/// A runtime standing for one process: dropping it ends every task of it
/// mid-flight, as a crash would.
fn process() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("a runtime")
}

#[test]
fn a_new_process_reads_back_results_failures_and_interruptions() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("jobs.redb");
    let first = process();
    let (done, failed, running) = first.block_on(async {
        let d = open(&path, config());
        let done = started(&d.call(ToolRequest::Sleep(DelayRequest { ms: 1 })).await);
        let failed = started(
            &d.call(ToolRequest::Launch(LaunchRequest { fail: true }))
                .await,
        );
        let running = started(
            &d.call(ToolRequest::Sleep(DelayRequest { ms: 60_000 }))
                .await,
        );
        // Once a poll says they finished, their ends are on disk: no time
        // is given to a writer to catch up before the "crash".
        wait_all(&d, &[&done, &failed]).await;
        (done, failed, running)
    });
    drop(first);

    let second = process();
    second.block_on(async {
        let d = open(&path, config());
        let info = d.jobs().status(&done).await.expect("kept");
        assert_eq!(info.state, JobState::Complete);
        assert_eq!(info.result, Some(serde_json::json!({"slept_ms": 1})));
        let info = d.jobs().status(&failed).await.expect("kept");
        assert_eq!(info.state, JobState::Failed);
        assert_eq!(info.error_code.as_deref(), Some("ENGINE_DOWN"), "{info:?}");
        let info = d.jobs().status(&running).await.expect("kept");
        assert_eq!(info.state, JobState::Failed);
        assert_eq!(info.error_code.as_deref(), Some(INTERRUPTED), "{info:?}");
    });
    drop(second);

    // The interruption was written back: a third process says the same.
    let third = process();
    third.block_on(async {
        let d = open(&path, config());
        let info = d.jobs().status(&running).await.expect("kept");
        assert_eq!(info.error_code.as_deref(), Some(INTERRUPTED), "{info:?}");
    });
}

#[test]
fn shutdown_records_the_jobs_it_cancels_and_finished_jobs_expire() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("jobs.redb");
    let short = config().job_ttl(Duration::from_secs(2));
    let first = process();
    let running = first.block_on(async {
        let d = open(&path, short);
        let running = started(
            &d.call(ToolRequest::Sleep(DelayRequest { ms: 60_000 }))
                .await,
        );
        d.shutdown().await;
        running
    });
    drop(first);

    let second = process();
    second.block_on(async {
        let d = open(&path, short);
        let info = d.jobs().status(&running).await.expect("kept");
        assert_eq!(info.state, JobState::Cancelled);
    });
    drop(second);

    // Its time-to-live was recorded with it: a later process forgets it.
    std::thread::sleep(Duration::from_millis(2100));
    let third = process();
    third.block_on(async {
        let d = open(&path, config());
        assert!(d.jobs().status(&running).await.is_err());
        let ResponseEnvelope::Success(ToolResponse::JobList(list)) =
            d.call(ToolRequest::JobList(all_jobs())).await
        else {
            panic!("job_list answers");
        };
        assert_eq!(list.total, 0);
    });
}
