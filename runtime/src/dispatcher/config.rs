//! `DispatcherConfig`: wait budgets, job retention, cancellation grace and
//! input limits.

use std::time::Duration;

use crate::codec::Limits;
use crate::jobs::StoreConfig;

/// How a [`Dispatcher`](crate::Dispatcher) waits, keeps jobs and bounds
/// input. Start from `DispatcherConfig::default()` and change what you need:
///
/// ```
/// use std::time::Duration;
/// let config = toolwright::DispatcherConfig::default()
///     .short_wait(Duration::from_secs(5))
///     .job_ttl(Duration::from_secs(600));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct DispatcherConfig {
    /// The key `@paged` tools' cursors are signed with. Default: none, for
    /// a random key per process, so that cursors do not outlive it; set
    /// one to share it between servers behind one address or across
    /// restarts.
    pub cursor_key: Option<crate::CursorKey>,
    /// How long an `async_short` call is waited for before the caller gets
    /// `JobStarted` instead of the answer. Default 30 s.
    pub short_wait: Duration,
    /// The same for `async_medium`. Default 120 s.
    pub medium_wait: Duration,
    /// How long a finished job is kept for `job_status` and `job_list`.
    /// Default one hour.
    pub job_ttl: Duration,
    /// Most finished jobs kept; beyond it the oldest finished are dropped
    /// first. Pending and running jobs are never dropped. Default 10,000.
    pub max_finished_jobs: usize,
    /// How long a cancelled handler has to stop by itself before it is
    /// dropped at its next `.await`. `job_cancel` waits at most this long
    /// for the handler to be gone. Default 500 ms.
    pub cancel_grace: Duration,
    /// How many job events a slow [`subscribe`](crate::Dispatcher::subscribe)
    /// receiver may fall behind before it loses the oldest. Default 1,024.
    pub event_capacity: usize,
    /// Bounds on decoded requests in
    /// [`call_msgpack`](crate::Dispatcher::call_msgpack).
    pub limits: Limits,
    /// Most jobs pending or running at once; a call that would start one
    /// more is refused at once with `BUSY`. Default 1,024.
    pub max_jobs: usize,
    /// Most jobs pending or running for one [`Owner`](crate::jobs::Owner)
    /// (an MCP session, say), so that no caller takes every slot. Default
    /// 256.
    pub max_jobs_per_owner: usize,
    /// With a job store other processes share (Redis): how long this
    /// worker's lease on its running jobs lasts unrenewed. It is renewed
    /// every third of it; once it lapses (the process died, or lost the
    /// store), any worker or gateway settles the jobs as `INTERRUPTED`
    /// within half of it more. Default 5 s.
    pub job_lease: Duration,
}

impl Default for DispatcherConfig {
    fn default() -> Self {
        DispatcherConfig {
            cursor_key: None,
            short_wait: Duration::from_secs(30),
            medium_wait: Duration::from_secs(120),
            job_ttl: Duration::from_secs(60 * 60),
            max_finished_jobs: 10_000,
            // The token fires at once, so a handler that watches it sees the
            // cancellation immediately; the grace is for cleaning up (closing
            // a file, telling a worker to stop). Half a second covers an async
            // round trip of cleanup on a loaded machine while keeping
            // `job_cancel`, which waits for the handler to be gone, an
            // interactive call.
            cancel_grace: Duration::from_millis(500),
            event_capacity: 1024,
            limits: Limits::default(),
            max_jobs: 1024,
            max_jobs_per_owner: 256,
            job_lease: Duration::from_secs(5),
        }
    }
}

impl DispatcherConfig {
    /// Sets the `async_short` wait budget.
    #[must_use]
    pub fn short_wait(mut self, wait: Duration) -> Self {
        self.short_wait = wait;
        self
    }

    /// Sets the `async_medium` wait budget.
    #[must_use]
    pub fn medium_wait(mut self, wait: Duration) -> Self {
        self.medium_wait = wait;
        self
    }

    /// Sets how long finished jobs are kept.
    #[must_use]
    pub fn job_ttl(mut self, ttl: Duration) -> Self {
        self.job_ttl = ttl;
        self
    }

    /// Sets how many finished jobs are kept at most.
    #[must_use]
    pub fn max_finished_jobs(mut self, n: usize) -> Self {
        self.max_finished_jobs = n;
        self
    }

    /// Sets how long a cancelled handler has before it is dropped.
    #[must_use]
    pub fn cancel_grace(mut self, grace: Duration) -> Self {
        self.cancel_grace = grace;
        self
    }

    /// Sets the job event channel's capacity (at least 1, at most 65,536).
    #[must_use]
    pub fn event_capacity(mut self, n: usize) -> Self {
        self.event_capacity = n;
        self
    }

    /// Sets how many jobs may be pending or running at once, and how many
    /// of them for one owner.
    #[must_use]
    pub fn max_jobs(mut self, all: usize, per_owner: usize) -> Self {
        self.max_jobs = all;
        self.max_jobs_per_owner = per_owner;
        self
    }

    /// Sets how long a worker's lease on its jobs lasts in a shared store.
    #[must_use]
    pub fn job_lease(mut self, lease: Duration) -> Self {
        self.job_lease = lease;
        self
    }

    /// Sets the key cursors are signed with.
    #[must_use]
    pub fn cursor_key(mut self, key: crate::CursorKey) -> Self {
        self.cursor_key = Some(key);
        self
    }

    /// Sets the request limits.
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    pub(crate) fn store(&self) -> StoreConfig {
        StoreConfig {
            ttl: self.job_ttl,
            max_finished: self.max_finished_jobs,
            grace: self.cancel_grace,
            event_capacity: self.event_capacity,
            max_active: self.max_jobs,
            max_active_per_owner: self.max_jobs_per_owner,
            lease: self.job_lease,
        }
    }
}
