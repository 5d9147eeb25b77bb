//! The job store contract (`toolwright::jobs::records`), one suite run
//! against every store: in memory, in a redb file, in Redis (a server of
//! the test's own).

mod support;

use std::sync::Arc;
use std::time::Duration;

use support::redis::RedisServer;
use tokio::sync::broadcast::error::RecvError;
use toolwright::ToolError;
use toolwright::jobs::records::{
    Change, Ending, JobQuery, JobRecord, JobRecords, MemoryJobs, RedbJobs, RedisJobs, Retention,
};
use toolwright::jobs::{INTERRUPTED, JobState};

const KEEP: Retention = Retention {
    ttl: Duration::from_secs(3600),
    max_finished: 10_000,
};

/// A store under test, with what keeps it alive (a temporary directory, a
/// Redis server).
struct Store {
    records: Arc<dyn JobRecords>,
    _keep: Box<dyn std::any::Any + Send>,
}

fn memory() -> Store {
    Store {
        records: Arc::new(MemoryJobs::new()),
        _keep: Box::new(()),
    }
}

fn redb() -> Store {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let records = RedbJobs::open(dir.path().join("jobs.redb")).expect("opens");
    Store {
        records: Arc::new(records),
        _keep: Box::new(dir),
    }
}

fn redis() -> Store {
    let server = RedisServer::start();
    let records = RedisJobs::open(&server.url()).expect("opens");
    Store {
        records: Arc::new(records),
        _keep: Box::new(server),
    }
}

fn job(id: &str, owner: Option<&str>, worker: Option<&str>, at: u64) -> JobRecord {
    JobRecord::pending(id, "render", owner, worker, at)
}

async fn insert(records: &dyn JobRecords, record: JobRecord) {
    records.insert(record).await.expect("inserts");
}

async fn get(records: &dyn JobRecords, id: &str) -> Option<JobRecord> {
    records.get(id).await.expect("reads")
}

async fn head(records: &dyn JobRecords, id: &str) -> Option<(JobState, Option<String>)> {
    records
        .head(id)
        .await
        .expect("reads")
        .map(|h| (h.state, h.owner))
}

fn error(code: &'static str) -> ToolError {
    ToolError::new(code, "it broke")
}

async fn records_read_back_as_written(store: Store) {
    let records = store.records.as_ref();
    let mut written = job("job_a1", Some("alice"), Some("w1"), 1_000);
    insert(records, written.clone()).await;
    assert_eq!(get(records, "job_a1").await, Some(written.clone()));
    assert_eq!(get(records, "job_none1").await, None);
    assert_eq!(
        head(records, "job_a1").await,
        Some((JobState::Pending, Some("alice".into())))
    );
    assert_eq!(head(records, "job_none1").await, None);
    // An id is recorded once.
    assert!(records.insert(written.clone()).await.is_err());

    records.start("job_a1", 1_010).await.expect("starts");
    records.progress("job_a1", 0.25).await.expect("progresses");
    written.state = JobState::Running;
    written.started_at = Some(1_010);
    written.progress = Some(0.25);
    assert_eq!(get(records, "job_a1").await, Some(written.clone()));
    // Starting again changes nothing.
    records.start("job_a1", 2_000).await.expect("starts");
    assert_eq!(get(records, "job_a1").await, Some(written.clone()));

    let result = serde_json::json!({"frames": 3, "name": "ünïcode"});
    let ending = Ending::complete(Some(result.clone()), 1_500);
    assert!(
        records
            .settle("job_a1", ending, KEEP)
            .await
            .expect("settles")
    );
    assert_eq!(
        head(records, "job_a1").await,
        Some((JobState::Complete, Some("alice".into())))
    );
    written.state = JobState::Complete;
    written.completed_at = Some(1_500);
    written.result = Some(result);
    assert_eq!(get(records, "job_a1").await, Some(written.clone()));
    // Progress after the end changes nothing.
    records.progress("job_a1", 0.5).await.expect("progresses");
    assert_eq!(get(records, "job_a1").await, Some(written));
}

async fn a_job_settles_once(store: Store) {
    let records = store.records.clone();
    for n in 0..20 {
        let id = format!("job_race{n}");
        insert(records.as_ref(), job(&id, None, Some("w1"), n)).await;
        // Three parties race to end the job: its handler, a cancel, a reap.
        let endings = [
            Ending::complete(Some(serde_json::json!({"n": n})), 10),
            Ending::failed(ToolError::cancelled("cancelled by job_cancel"), 11),
            Ending::failed(error(INTERRUPTED), 12),
        ];
        let mut racers = tokio::task::JoinSet::new();
        for ending in endings {
            let records = records.clone();
            let id = id.clone();
            racers.spawn(async move {
                let state = ending.state;
                let won = records.settle(&id, ending, KEEP).await.expect("settles");
                (won, state)
            });
        }
        let mut winners = Vec::new();
        while let Some(raced) = racers.join_next().await {
            let (won, state) = raced.expect("the racer ran");
            if won {
                winners.push(state);
            }
        }
        assert_eq!(winners.len(), 1, "{id}: {winners:?}");
        let record = get(records.as_ref(), &id).await.expect("kept");
        assert_eq!(record.state, winners[0], "{id}");
    }
    // An unknown job does not settle.
    let ending = Ending::complete(None, 1);
    assert!(
        !records
            .settle("job_none1", ending, KEEP)
            .await
            .expect("answers")
    );
}

async fn lists_are_newest_first_filtered_counted_and_owned(store: Store) {
    let records = store.records.as_ref();
    for (i, owner) in ["alice", "bob", "alice", "alice", "bob"].iter().enumerate() {
        let at = 1_000 + i as u64;
        insert(
            records,
            job(&format!("job_l{i}"), Some(owner), Some("w1"), at),
        )
        .await;
    }
    let failed = Ending::failed(error("ENGINE_DOWN"), 2_000);
    assert!(
        records
            .settle("job_l2", failed, KEEP)
            .await
            .expect("settles")
    );
    let done = Ending::complete(None, 2_001);
    assert!(records.settle("job_l3", done, KEEP).await.expect("settles"));

    let ids = |page: &toolwright::jobs::records::JobPage| {
        page.jobs
            .iter()
            .map(|j| j.job_id.clone())
            .collect::<Vec<_>>()
    };
    let everyone = records
        .list(JobQuery {
            limit: 100,
            ..JobQuery::default()
        })
        .await
        .expect("lists");
    assert_eq!(
        ids(&everyone),
        ["job_l4", "job_l3", "job_l2", "job_l1", "job_l0"]
    );
    assert_eq!(everyone.total, 5);
    assert_eq!(
        (
            everyone.counts.pending,
            everyone.counts.complete,
            everyone.counts.failed
        ),
        (3, 1, 1)
    );

    let alice = records
        .list(JobQuery {
            owner: Some("alice".into()),
            limit: 2,
            ..JobQuery::default()
        })
        .await
        .expect("lists");
    assert_eq!(ids(&alice), ["job_l3", "job_l2"]);
    assert_eq!(alice.total, 3);
    assert_eq!((alice.counts.pending, alice.counts.failed), (1, 1));

    let unfinished = records
        .list(JobQuery {
            owner: Some("alice".into()),
            unfinished: true,
            limit: 100,
            ..JobQuery::default()
        })
        .await
        .expect("lists");
    assert_eq!(ids(&unfinished), ["job_l0"]);

    let failed = records
        .list(JobQuery {
            state: Some(JobState::Failed),
            tool: Some("render".into()),
            limit: 100,
            ..JobQuery::default()
        })
        .await
        .expect("lists");
    assert_eq!(ids(&failed), ["job_l2"]);
    assert_eq!(failed.counts.pending, 3, "counts ignore the state filter");
    let other_tool = records
        .list(JobQuery {
            tool: Some("mix".into()),
            limit: 100,
            ..JobQuery::default()
        })
        .await
        .expect("lists");
    assert_eq!(other_tool.total, 0);
    let nobody = records
        .list(JobQuery {
            owner: Some("carol".into()),
            limit: 100,
            ..JobQuery::default()
        })
        .await
        .expect("lists");
    assert_eq!((nobody.total, nobody.counts.pending), (0, 0));
}

async fn finished_jobs_expire_and_unfinished_ones_never(store: Store) {
    let records = store.records.as_ref();
    let brief = Retention {
        ttl: Duration::from_millis(300),
        max_finished: 10_000,
    };
    insert(records, job("job_e1", Some("alice"), Some("w1"), 1)).await;
    insert(records, job("job_e2", Some("alice"), Some("w1"), 2)).await;
    let done = Ending::complete(Some(serde_json::json!({})), 3);
    assert!(
        records
            .settle("job_e1", done, brief)
            .await
            .expect("settles")
    );
    assert!(get(records, "job_e1").await.is_some());
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(get(records, "job_e1").await, None);
    assert!(get(records, "job_e2").await.is_some(), "pending jobs stay");
    let listed = records
        .list(JobQuery {
            owner: Some("alice".into()),
            limit: 100,
            ..JobQuery::default()
        })
        .await
        .expect("lists");
    assert_eq!(listed.total, 1);
    assert_eq!(listed.jobs[0].job_id, "job_e2");
}

async fn a_lapsed_lease_interrupts_its_jobs_once(store: Store) {
    let records = store.records.clone();
    records
        .renew("alive", Duration::from_secs(60))
        .await
        .expect("renews");
    records
        .renew("dying", Duration::from_millis(200))
        .await
        .expect("renews");
    insert(records.as_ref(), job("job_r1", None, Some("alive"), 1)).await;
    insert(records.as_ref(), job("job_r2", None, Some("dying"), 2)).await;
    insert(records.as_ref(), job("job_r3", None, Some("dying"), 3)).await;
    insert(records.as_ref(), job("job_r4", None, None, 4)).await;
    let done = Ending::complete(None, 5);
    assert!(records.settle("job_r3", done, KEEP).await.expect("settles"));
    assert_eq!(
        records.reap(KEEP).await.expect("reaps"),
        Vec::<String>::new()
    );

    tokio::time::sleep(Duration::from_millis(400)).await;
    // Two reapers at once: the job is interrupted by exactly one.
    let (a, b) = tokio::join!(records.reap(KEEP), records.reap(KEEP));
    let mut reaped = a.expect("reaps");
    reaped.extend(b.expect("reaps"));
    assert_eq!(reaped, ["job_r2"]);
    let record = get(records.as_ref(), "job_r2").await.expect("kept");
    assert_eq!(record.state, JobState::Failed);
    assert_eq!(record.error.map(|e| e.code), Some(INTERRUPTED.into()));
    // The others are untouched: a live lease, an end already recorded, a
    // job no worker holds.
    assert_eq!(
        get(records.as_ref(), "job_r1").await.map(|r| r.state),
        Some(JobState::Pending)
    );
    assert_eq!(
        get(records.as_ref(), "job_r3").await.map(|r| r.state),
        Some(JobState::Complete)
    );
    assert_eq!(
        get(records.as_ref(), "job_r4").await.map(|r| r.state),
        Some(JobState::Pending)
    );
    // Its worker cannot settle it again.
    let late = Ending::complete(None, 9);
    assert!(!records.settle("job_r2", late, KEEP).await.expect("answers"));
}

async fn followers_hear_of_every_settle(store: Store) {
    let records = store.records.as_ref();
    let mut changes = records.follow();
    insert(records, job("job_f1", None, Some("w1"), 1)).await;
    let ending = Ending::failed(ToolError::cancelled("stop"), 2);
    assert!(
        records
            .settle("job_f1", ending, KEEP)
            .await
            .expect("settles")
    );
    let heard = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match changes.recv().await {
                Ok(Change::Settled { job_id, state }) => break (job_id, state),
                Ok(Change::Missed) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => panic!("the store stopped telling"),
            }
        }
    })
    .await
    .expect("the settle is heard");
    assert_eq!(heard, ("job_f1".to_owned(), JobState::Cancelled));
}

/// The suite, for one store.
macro_rules! contract {
    ($store:ident) => {
        mod $store {
            #[tokio::test]
            async fn records_read_back_as_written() {
                super::records_read_back_as_written(super::$store()).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn a_job_settles_once() {
                super::a_job_settles_once(super::$store()).await;
            }

            #[tokio::test]
            async fn lists_are_newest_first_filtered_counted_and_owned() {
                super::lists_are_newest_first_filtered_counted_and_owned(super::$store()).await;
            }

            #[tokio::test]
            async fn finished_jobs_expire_and_unfinished_ones_never() {
                super::finished_jobs_expire_and_unfinished_ones_never(super::$store()).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn a_lapsed_lease_interrupts_its_jobs_once() {
                super::a_lapsed_lease_interrupts_its_jobs_once(super::$store()).await;
            }

            #[tokio::test]
            async fn followers_hear_of_every_settle() {
                super::followers_hear_of_every_settle(super::$store()).await;
            }
        }
    };
}

contract!(memory);
contract!(redb);
contract!(redis);
