//! `JobStore::poll`: wait until some or all of a set of jobs finish, or a
//! timeout passes.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::record::is_finished;
use super::{JobStore, id, not_found};
use crate::jobs::{JobError, JobPollRequest, JobPollResponse, JobState, Owner, PollMode};

/// Longest wait one poll accepts (the IDL's bound on `timeout_ms`); longer
/// requests wait this long.
const MAX_TIMEOUT_MS: u64 = 300_000;

impl<R: Send + 'static> JobStore<R> {
    /// Waits until any (or, with [`PollMode::All`], every) one of
    /// `job_ids` has finished, or `timeout_ms` has passed (at most five
    /// minutes; 0 checks once). With no ids, it waits on every job pending
    /// or running when the call starts.
    ///
    /// The answer sorts the jobs by state: `completed`, `failed` (which
    /// includes cancelled) and `pending` (pending or running). A job that
    /// finished and expired during the wait is in none of them.
    ///
    /// # Errors
    /// [`JobError::InvalidJobId`] for a malformed id, [`JobError::NotFound`]
    /// for one that is unknown or expired when the call starts.
    pub async fn poll(&self, request: JobPollRequest) -> Result<JobPollResponse, JobError> {
        self.poll_for(request, None).await
    }

    /// [`poll`](Self::poll) as `caller` sees it: with no ids it waits on
    /// the caller's own jobs, and another owner's job is not found.
    ///
    /// # Errors
    /// As [`poll`](Self::poll).
    pub async fn poll_for(
        &self,
        request: JobPollRequest,
        caller: Option<&Owner>,
    ) -> Result<JobPollResponse, JobError> {
        let start = Instant::now();
        let timeout = Duration::from_millis(request.timeout_ms.min(MAX_TIMEOUT_MS));
        // Subscribe before the first look, so a job that finishes between
        // the look and the wait still wakes us.
        let mut settled = self.shared.settled.subscribe();
        let mut watched = self.watched(&request.job_ids, caller)?;
        let mut timed_out = false;
        loop {
            self.refresh(&mut watched);
            if done(&watched, request.mode) {
                break;
            }
            let remaining = timeout.saturating_sub(start.elapsed());
            if remaining.is_zero()
                || tokio::time::timeout(remaining, settled.changed())
                    .await
                    .is_err()
            {
                self.refresh(&mut watched);
                timed_out = !done(&watched, request.mode);
                break;
            }
        }
        Ok(answer(
            watched,
            timed_out,
            u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
        ))
    }

    /// The jobs to watch, in the order asked (duplicates dropped), each with
    /// its current state.
    fn watched(
        &self,
        job_ids: &[String],
        caller: Option<&Owner>,
    ) -> Result<Vec<(Arc<str>, Watch)>, JobError> {
        for job_id in job_ids {
            id::check(job_id)?;
        }
        let table = self.lock();
        if job_ids.is_empty() {
            return Ok(table
                .newest_first()
                .filter(|r| !r.is_finished() && r.seen_by(caller))
                .map(|r| (r.id.clone(), Watch::Known(r.state)))
                .collect());
        }
        let mut seen = HashMap::with_capacity(job_ids.len());
        let mut watched = Vec::with_capacity(job_ids.len());
        for job_id in job_ids {
            let record = table
                .get(job_id)
                .filter(|r| r.seen_by(caller))
                .ok_or_else(|| not_found(job_id))?;
            if seen.insert(record.id.clone(), ()).is_none() {
                watched.push((record.id.clone(), Watch::Known(record.state)));
            }
        }
        Ok(watched)
    }

    /// Updates each watched job's state; one no longer in the store was
    /// finished (only finished jobs expire) and is marked `Gone`.
    fn refresh(&self, watched: &mut [(Arc<str>, Watch)]) {
        let table = self.lock();
        for (job_id, watch) in watched.iter_mut() {
            *watch = match table.get(job_id) {
                Some(record) => Watch::Known(record.state),
                None => Watch::Gone,
            };
        }
    }
}

/// What a poll knows about one job.
#[derive(Clone, Copy, Debug)]
enum Watch {
    Known(JobState),
    /// Finished and expired while we waited: its outcome is unknown.
    Gone,
}

impl Watch {
    fn finished(self) -> bool {
        match self {
            Watch::Known(state) => is_finished(state),
            Watch::Gone => true,
        }
    }
}

fn done(watched: &[(Arc<str>, Watch)], mode: PollMode) -> bool {
    if watched.is_empty() {
        return true;
    }
    match mode {
        PollMode::Any => watched.iter().any(|(_, w)| w.finished()),
        PollMode::All => watched.iter().all(|(_, w)| w.finished()),
    }
}

fn answer(watched: Vec<(Arc<str>, Watch)>, timed_out: bool, elapsed_ms: u64) -> JobPollResponse {
    let mut response = JobPollResponse {
        completed: Vec::new(),
        failed: Vec::new(),
        pending: Vec::new(),
        timed_out,
        elapsed_ms,
    };
    for (job_id, watch) in watched {
        let list = match watch {
            Watch::Known(JobState::Complete) => &mut response.completed,
            Watch::Known(JobState::Failed | JobState::Cancelled) => &mut response.failed,
            Watch::Known(JobState::Pending | JobState::Running) => &mut response.pending,
            Watch::Gone => continue,
        };
        list.push(job_id.to_string());
    }
    response
}
