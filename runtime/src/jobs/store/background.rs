//! This process as a worker of its job store: the lease that keeps its
//! unfinished jobs its own, and, with a store other processes share, the
//! tasks that renew the lease, reap the jobs of workers whose lease lapsed,
//! and stop a job here that was settled elsewhere (cancelled through
//! another gateway).

use std::future::Future;
use std::sync::{Arc, Weak};
use std::task::{Context, Waker};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::OnceCell;
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

use super::{JobStore, Shared};
use crate::ToolError;
use crate::jobs::records::{Change, StoreError};

/// A lease that never lapses while the process lives, for the stores only
/// this process uses: the next process to open the store reaps its jobs.
const FOREVER: Duration = Duration::from_secs(100 * 365 * 24 * 60 * 60);

/// The worker's lease and background tasks.
pub(super) struct Background {
    shared: bool,
    lease: Duration,
    worker: Arc<str>,
    /// Set once the lease is held (and, when shared, the tasks started).
    held: OnceCell<()>,
    /// Set once the jobs of lapsed workers have been reaped (for stores
    /// only this process uses, where only a past run's can have lapsed).
    reaped: OnceCell<()>,
    /// Cancelled when the store goes: the tasks end.
    stop: CancellationToken,
}

impl Drop for Background {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

impl Background {
    pub(super) fn new(shared: bool, lease: Duration) -> Self {
        Background {
            shared,
            lease: lease.max(Duration::from_millis(30)),
            worker: worker_id().into(),
            held: OnceCell::new(),
            reaped: OnceCell::new(),
            stop: CancellationToken::new(),
        }
    }

    /// This process's name as a worker.
    pub(super) fn worker(&self) -> &str {
        &self.worker
    }

    /// Holds the lease (the first time: renewing it, and starting the
    /// tasks of a shared store) and names the worker.
    pub(super) async fn hold<R>(&self, store: &JobStore<R>) -> Result<&str, StoreError>
    where
        R: Serialize + Send + 'static,
    {
        self.held
            .get_or_try_init(|| async {
                let records = &store.shared.records;
                if self.shared {
                    records.renew(&self.worker, self.lease).await?;
                    start(store);
                } else {
                    self.reap_once(store).await;
                    records.renew(&self.worker, FOREVER).await?;
                }
                Ok::<(), StoreError>(())
            })
            .await?;
        Ok(&self.worker)
    }

    /// Reaps the jobs of lapsed workers, the first time it is called (and
    /// again after a failure); a shared store is reaped by its task.
    pub(super) async fn reap_once<R: Send + 'static>(&self, store: &JobStore<R>) {
        if self.shared {
            return;
        }
        let _ = self
            .reaped
            .get_or_try_init(|| async {
                store.shared.records.reap(store.shared.keep).await.map(drop)
            })
            .await;
    }
}

/// A name no other process is given: `w-PID-RANDOM`.
fn worker_id() -> String {
    let mut bytes = [0u8; 8];
    // Without randomness the process id alone still tells this process
    // from the others on its machine.
    let _ = getrandom::fill(&mut bytes);
    format!(
        "w-{}-{:016x}",
        std::process::id(),
        u64::from_le_bytes(bytes)
    )
}

/// Starts the tasks of a shared store: renew, reap, follow.
fn start<R: Serialize + Send + 'static>(store: &JobStore<R>) {
    let weak = Arc::downgrade(&store.shared);
    let stop = store.shared.background.stop.clone();
    let lease = store.shared.background.lease;
    tokio::spawn(every(
        weak.clone(),
        stop.clone(),
        lease / 3,
        |shared| async move {
            let background = &shared.background;
            let _ = shared
                .records
                .renew(&background.worker, background.lease)
                .await;
        },
    ));
    tokio::spawn(every(
        weak.clone(),
        stop.clone(),
        lease / 2,
        |shared| async move {
            let _ = shared.records.reap(shared.keep).await;
        },
    ));
    tokio::spawn(follow(weak, stop));
}

/// Runs `tick` every `interval` while the store lives.
async fn every<R, F, Fut>(
    weak: Weak<Shared<R>>,
    stop: CancellationToken,
    interval: Duration,
    tick: F,
) where
    F: Fn(Arc<Shared<R>>) -> Fut,
    Fut: Future<Output = ()>,
{
    periodically(stop, interval, || {
        let shared = weak.upgrade();
        let ticked = shared.map(&tick);
        async move {
            match ticked {
                Some(ticked) => {
                    ticked.await;
                    true
                }
                None => false,
            }
        }
    })
    .await;
}

/// Runs `tick` every `interval` (a late tick delays the next rather than
/// bunching them) until `stop` is cancelled or `tick` answers `false`.
pub(crate) async fn periodically<F, Fut>(stop: CancellationToken, interval: Duration, mut tick: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let mut timer = tokio::time::interval(interval);
    timer.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = timer.tick() => {}
        }
        if !tick().await {
            return;
        }
    }
}

/// Stops the jobs running here that were settled elsewhere.
async fn follow<R: Serialize + Send + 'static>(weak: Weak<Shared<R>>, stop: CancellationToken) {
    let mut changes = match weak.upgrade() {
        Some(shared) => shared.records.follow(),
        None => return,
    };
    loop {
        let change = tokio::select! {
            () = stop.cancelled() => return,
            change = changes.recv() => change,
        };
        let Some(shared) = weak.upgrade() else {
            return;
        };
        let store = JobStore { shared };
        match change {
            Ok(Change::Settled { job_id, .. }) => store.ended_here_if_settled(&job_id).await,
            Ok(Change::Missed) | Err(RecvError::Lagged(_)) => {
                let running: Vec<Arc<str>> = store.local().running.keys().cloned().collect();
                for job_id in running {
                    store.ended_here_if_settled(&job_id).await;
                }
            }
            Err(RecvError::Closed) => return,
        }
    }
}

impl<R: Serialize + Send + 'static> JobStore<R> {
    /// Stops the handler of `job_id`, if it runs here and its record says
    /// it has settled.
    async fn ended_here_if_settled(&self, job_id: &str) {
        if !self.local().running.contains_key(job_id) {
            return;
        }
        let Ok(Some(record)) = self.shared.records.get(job_id).await else {
            return;
        };
        if !record.is_finished() {
            return;
        }
        let Some(job) = self.local().remove(job_id) else {
            return;
        };
        let why = record
            .error
            .clone()
            .unwrap_or_else(|| ToolError::cancelled("the job was settled by another server"));
        let tool = job.tool;
        job.stop(why.clone());
        let ending = crate::jobs::records::Ending::failed(why, record.completed_at.unwrap_or(0));
        self.finished_event(job_id, tool, &ending);
    }
}

/// Runs a store write that nobody waits for: at once when the store
/// answers in place, else on the runtime (dropped when there is none).
pub(super) fn write(future: impl Future<Output = ()> + Send + 'static) {
    let mut future = Box::pin(future);
    if future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
        .is_ready()
    {
        return;
    }
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(future);
    }
}

/// Waits between tries of a write the store refused: 50 ms, doubling up
/// to 2 s.
pub(super) struct Backoff(Duration);

impl Backoff {
    pub(super) fn new() -> Self {
        Backoff(Duration::from_millis(50))
    }

    pub(super) async fn wait(&mut self) {
        tokio::time::sleep(self.0).await;
        self.0 = (self.0 * 2).min(Duration::from_secs(2));
    }
}
