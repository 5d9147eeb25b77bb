//! A job's whole life through the dispatcher: started (`job_started` at
//! once), finished, polled, and its result read with `job_status`, for
//! each job store. The handler (`launch`, fire-and-forget) yields once and
//! answers, so the figures are the cost of the job around it. Two shapes: one job at a time (the per-job latency),
//! and a hundred started together then polled together (jobs/s when the
//! store can batch its work).
//!
//! `cargo bench -p toolwright --features durable,redis --bench jobs`
//! (Redis from Debian's `redis-server`, started on a free port).

#[path = "../tests/support/catalogue.rs"]
#[allow(dead_code, clippy::all, clippy::pedantic)]
mod catalogue;
#[cfg(feature = "redis")]
#[path = "../tests/support/redis.rs"]
#[allow(dead_code)]
mod redis_server;
#[path = "../tests/support/service.rs"]
#[allow(dead_code)]
mod service;

use std::hint::black_box;
use std::time::{Duration, Instant};

use catalogue::{LaunchRequest, ToolRequest};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use service::Studio;
use toolwright::jobs::{JobPollRequest, JobState, PollMode};
use toolwright::port::CallOptions;
use toolwright::{Dispatcher, DispatcherConfig, ResponseEnvelope};

/// Starts `n` jobs, waits for all of them, reads each one's status.
async fn life(dispatcher: &Dispatcher<Studio>, n: usize) {
    let mut ids = Vec::with_capacity(n);
    for _ in 0..n {
        let answer = dispatcher
            .call_with(
                ToolRequest::Launch(LaunchRequest { fail: false }),
                CallOptions::default().wait(Duration::ZERO),
            )
            .await;
        match answer {
            ResponseEnvelope::JobStarted { job_id, .. } => ids.push(job_id),
            other => panic!("expected a job, got {other:?}"),
        }
    }
    let polled = dispatcher
        .jobs()
        .poll(JobPollRequest {
            job_ids: ids.clone(),
            timeout_ms: 60_000,
            mode: PollMode::All,
        })
        .await
        .expect("polls");
    assert_eq!(polled.completed.len(), n);
    for id in &ids {
        let info = dispatcher.jobs().status(id).await.expect("the job is kept");
        assert_eq!(info.state, JobState::Complete);
        black_box(info.result.expect("its result is kept"));
    }
}

/// Makes a dispatcher on one store; called within the runtime.
type Make = Box<dyn Fn() -> Dispatcher<Studio>>;

/// What keeps a store alive: a directory, a Redis server.
type Keep = Vec<Box<dyn std::any::Any>>;

/// Each store, with what keeps it alive.
fn stores() -> (Vec<(&'static str, Make)>, Keep) {
    let config = DispatcherConfig::default().max_finished_jobs(1_000);
    let mut stores: Vec<(&'static str, Make)> = Vec::new();
    // Only the stores behind features keep something alive.
    #[cfg_attr(not(any(feature = "durable", feature = "redis")), allow(unused_mut))]
    let mut keep: Keep = Vec::new();
    stores.push((
        "memory",
        Box::new(move || Dispatcher::with_config(Studio::default(), config)),
    ));
    #[cfg(feature = "durable")]
    {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("jobs.redb");
        keep.push(Box::new(dir));
        stores.push((
            "redb",
            Box::new(move || {
                let _ = std::fs::remove_file(&path);
                let records = toolwright::jobs::RedbJobs::open(&path).expect("opens");
                Dispatcher::with_job_records(
                    Studio::default(),
                    config,
                    std::sync::Arc::new(records),
                )
            }),
        ));
    }
    #[cfg(feature = "redis")]
    {
        let server = redis_server::RedisServer::start();
        let url = server.url();
        keep.push(Box::new(server));
        stores.push((
            "redis",
            Box::new(move || {
                let records = toolwright::jobs::RedisJobs::open(&url).expect("opens");
                Dispatcher::with_job_records(
                    Studio::default(),
                    config,
                    std::sync::Arc::new(records),
                )
            }),
        ));
    }
    (stores, keep)
}

fn jobs(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let mut group = c.benchmark_group("jobs");
    group.measurement_time(Duration::from_secs(5));
    let (stores, _keep) = stores();
    for (name, make) in stores {
        for n in [1usize, 100] {
            let dispatcher = runtime.block_on(async { make() });
            group.throughput(Throughput::Elements(n as u64));
            group.bench_with_input(BenchmarkId::new(name, n), &n, |b, &n| {
                b.iter_custom(|iters| {
                    runtime.block_on(async {
                        let start = Instant::now();
                        for _ in 0..iters {
                            life(&dispatcher, n).await;
                        }
                        start.elapsed()
                    })
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, jobs);
criterion_main!(benches);
