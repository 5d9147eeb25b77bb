//! The job tools answered from any [`JobRecords`]: by a dispatcher's own
//! store, and by a gateway reading the records every worker writes.

use crate::ToolError;
use crate::jobs::records::{Ending, JobQuery, JobRecord, JobRecords, Retention, StoreError};
use crate::jobs::{
    JobCancelResponse, JobError, JobInfo, JobListRequest, JobListResponse, JobState, Owner,
};
use crate::time::now_ms;

#[cfg(feature = "hoot")]
pub(crate) use super::store::poll::poll;

/// Most jobs one `list` returns, whatever the request's `limit`.
const MAX_LIST: u32 = 1000;

/// The record of a job `caller` may see.
pub(crate) async fn record(
    records: &dyn JobRecords,
    job_id: &str,
    caller: Option<&Owner>,
) -> Result<JobRecord, JobError> {
    super::store::check_id(job_id)?;
    records
        .get(job_id)
        .await
        .map_err(unavailable)?
        .filter(|r| seen_by(r, caller))
        .ok_or_else(|| not_found(job_id))
}

/// `job_status`.
pub(crate) async fn status(
    records: &dyn JobRecords,
    job_id: &str,
    caller: Option<&Owner>,
) -> Result<JobInfo, JobError> {
    Ok(record(records, job_id, caller).await?.info())
}

/// `job_list`: newest first, at most 1,000.
pub(crate) async fn list(
    records: &dyn JobRecords,
    request: JobListRequest,
    caller: Option<&Owner>,
) -> Result<JobListResponse, JobError> {
    let query = JobQuery {
        owner: caller.map(|o| o.as_str().to_owned()),
        state: request.state,
        unfinished: false,
        tool: request.tool_name,
        limit: usize::try_from(request.limit.min(MAX_LIST)).unwrap_or(usize::MAX),
    };
    let page = records.list(query).await.map_err(unavailable)?;
    Ok(JobListResponse {
        jobs: page.jobs.iter().map(JobRecord::info).collect(),
        total: page.total,
        by_state: page.counts,
    })
}

/// What `job_cancel` did to the records.
pub(crate) enum Cancelled {
    /// Recorded cancelled now: its handler is to be stopped.
    Now(Box<Ending>),
    /// It had ended already, in this state.
    Already(JobState),
}

impl Cancelled {
    /// The tool's answer.
    pub(crate) fn response(&self, job_id: &str) -> JobCancelResponse {
        let (cancelled, state) = match self {
            Cancelled::Now(..) => (true, JobState::Cancelled),
            Cancelled::Already(state) => (false, *state),
        };
        JobCancelResponse {
            job_id: job_id.to_owned(),
            cancelled,
            state,
        }
    }
}

/// `job_cancel`'s record: cancelled unless it has ended. Nothing is
/// stopped here; the caller stops the handler (or tells its worker).
pub(crate) async fn cancel(
    records: &dyn JobRecords,
    job_id: &str,
    caller: Option<&Owner>,
    keep: Retention,
) -> Result<Cancelled, JobError> {
    super::store::check_id(job_id)?;
    let found = records
        .head(job_id)
        .await
        .map_err(unavailable)?
        .filter(|h| owns(h.owner.as_deref(), caller))
        .ok_or_else(|| not_found(job_id))?;
    if found.is_finished() {
        return Ok(Cancelled::Already(found.state));
    }
    let why = ToolError::cancelled("cancelled by job_cancel");
    let ending = Ending::failed(why, now_ms());
    if records
        .settle(job_id, ending.clone(), keep)
        .await
        .map_err(unavailable)?
    {
        return Ok(Cancelled::Now(Box::new(ending)));
    }
    // It ended while we looked.
    match records.head(job_id).await.map_err(unavailable)? {
        Some(head) => Ok(Cancelled::Already(head.state)),
        None => Err(not_found(job_id)),
    }
}

/// True when `caller` may see `record`: a caller without an owner sees
/// every job.
pub(crate) fn seen_by(record: &JobRecord, caller: Option<&Owner>) -> bool {
    owns(record.owner.as_deref(), caller)
}

/// True when `caller` may see a job of `owner`.
pub(crate) fn owns(owner: Option<&str>, caller: Option<&Owner>) -> bool {
    caller.is_none_or(|c| owner == Some(c.as_str()))
}

pub(crate) fn not_found(job_id: &str) -> JobError {
    JobError::NotFound {
        job_id: job_id.to_owned(),
    }
}

pub(crate) fn unavailable(e: StoreError) -> JobError {
    JobError::Unavailable {
        reason: e.to_string(),
    }
}
