//! `JobStore::poll`: wait until some or all of a set of jobs finish, or a
//! timeout passes, woken by the store's own changes.

use std::collections::HashSet;
use std::time::Duration;

use serde::Serialize;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

use super::JobStore;
use crate::jobs::records::{Change, JobQuery, JobRecords, is_finished};
use crate::jobs::tools::{not_found, owns, unavailable};
use crate::jobs::{JobError, JobPollRequest, JobPollResponse, JobState, Owner, PollMode};

/// Longest wait one poll accepts (the IDL's bound on `timeout_ms`); longer
/// requests wait this long.
const MAX_TIMEOUT_MS: u64 = 300_000;

/// Most jobs one poll without ids watches: the newest unfinished ones.
const MAX_WATCHED: usize = 1000;

impl<R: Serialize + Send + 'static> JobStore<R> {
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
    /// for one that is unknown or expired when the call starts,
    /// [`JobError::Unavailable`] when the store cannot be reached.
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
        self.shared.background.reap_once(self).await;
        poll(self.shared.records.as_ref(), request, caller).await
    }
}

/// [`JobStore::poll_for`] on any store: also how a gateway polls the
/// records every worker writes.
pub(crate) async fn poll(
    records: &dyn JobRecords,
    request: JobPollRequest,
    caller: Option<&Owner>,
) -> Result<JobPollResponse, JobError> {
    for job_id in &request.job_ids {
        super::check_id(job_id)?;
    }
    let start = Instant::now();
    let timeout = Duration::from_millis(request.timeout_ms.min(MAX_TIMEOUT_MS));
    // Follow before the first look, so a job that finishes between the
    // look and the wait still wakes us.
    let mut changes = records.follow();
    let mut watched = watched(records, &request.job_ids, caller).await?;
    let mut timed_out = false;
    loop {
        if done(&watched, request.mode) {
            break;
        }
        let remaining = timeout.saturating_sub(start.elapsed());
        if remaining.is_zero() {
            timed_out = true;
            break;
        }
        let changed = match tokio::time::timeout(remaining, changes.recv()).await {
            Err(_) => {
                timed_out = !done(&watched, request.mode);
                break;
            }
            Ok(Ok(Change::Settled { job_id, .. })) => {
                if !watched.iter().any(|(id, _)| *id == job_id) {
                    continue;
                }
                Some(job_id)
            }
            Ok(Ok(Change::Missed) | Err(RecvError::Lagged(_))) => None,
            Ok(Err(RecvError::Closed)) => {
                timed_out = true;
                break;
            }
        };
        refresh(records, &mut watched, changed.as_deref()).await?;
    }
    Ok(answer(
        watched,
        timed_out,
        u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX),
    ))
}

/// The jobs to watch, in the order asked (duplicates dropped), each with
/// its current state.
async fn watched(
    records: &dyn JobRecords,
    job_ids: &[String],
    caller: Option<&Owner>,
) -> Result<Vec<(String, Watch)>, JobError> {
    if job_ids.is_empty() {
        let query = JobQuery {
            owner: caller.map(|o| o.as_str().to_owned()),
            unfinished: true,
            limit: MAX_WATCHED,
            ..JobQuery::default()
        };
        let page = records.list(query).await.map_err(unavailable)?;
        return Ok(page
            .jobs
            .into_iter()
            .map(|r| (r.job_id, Watch::Known(r.state)))
            .collect());
    }
    let mut seen = HashSet::with_capacity(job_ids.len());
    let mut watched = Vec::with_capacity(job_ids.len());
    for job_id in job_ids {
        if !seen.insert(job_id.as_str()) {
            continue;
        }
        let head = records
            .head(job_id)
            .await
            .map_err(unavailable)?
            .filter(|h| owns(h.owner.as_deref(), caller))
            .ok_or_else(|| not_found(job_id))?;
        watched.push((job_id.clone(), Watch::Known(head.state)));
    }
    Ok(watched)
}

/// Reads again the state of `only` (or, when `None`, of every watched job
/// not known to have finished); one no longer in the store was finished
/// (only finished jobs expire) and is marked `Gone`.
async fn refresh(
    records: &dyn JobRecords,
    watched: &mut [(String, Watch)],
    only: Option<&str>,
) -> Result<(), JobError> {
    for (job_id, watch) in watched.iter_mut() {
        let stale = match only {
            Some(only) => job_id == only,
            None => !watch.finished(),
        };
        if stale {
            *watch = match records.head(job_id).await.map_err(unavailable)? {
                Some(head) => Watch::Known(head.state),
                None => Watch::Gone,
            };
        }
    }
    Ok(())
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

fn done(watched: &[(String, Watch)], mode: PollMode) -> bool {
    if watched.is_empty() {
        return true;
    }
    match mode {
        PollMode::Any => watched.iter().any(|(_, w)| w.finished()),
        PollMode::All => watched.iter().all(|(_, w)| w.finished()),
    }
}

fn answer(watched: Vec<(String, Watch)>, timed_out: bool, elapsed_ms: u64) -> JobPollResponse {
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
        list.push(job_id);
    }
    response
}
