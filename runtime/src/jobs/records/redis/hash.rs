//! A record as a Redis hash: one field per value, numbers in decimal, the
//! result and the error as JSON text.

use super::super::{JobRecord, StoreError};
use crate::jobs::JobState;

/// The hash's fields for `job` as it is accepted: the values a record has
/// before it settles.
pub(super) fn fields(job: &JobRecord) -> Vec<(&'static str, String)> {
    let mut fields = vec![
        ("tool", job.tool.clone()),
        ("state", state_name(job.state).to_owned()),
        ("created_at", job.created_at.to_string()),
    ];
    if let Some(owner) = &job.owner {
        fields.push(("owner", owner.clone()));
    }
    if let Some(worker) = &job.worker {
        fields.push(("worker", worker.clone()));
    }
    if let Some(at) = job.started_at {
        fields.push(("started_at", at.to_string()));
    }
    fields
}

/// The record a hash holds.
///
/// # Errors
/// For a hash this version cannot read (a field of the wrong shape).
pub(super) fn record(job_id: &str, fields: Vec<(String, String)>) -> Result<JobRecord, StoreError> {
    let bad = |field: &str, value: &str| {
        StoreError(format!(
            "the record of {job_id} has a {field} this version cannot read: {value:?}"
        ))
    };
    let mut record = JobRecord::pending(job_id, "", None, None, 0);
    let mut has_state = false;
    for (field, value) in fields {
        let number = || value.parse::<u64>().map_err(|_| bad(&field, &value));
        match field.as_str() {
            "tool" => record.tool.clone_from(&value),
            "owner" => record.owner = Some(value.clone()),
            "worker" => record.worker = Some(value.clone()),
            "state" => {
                record.state = state(&value).ok_or_else(|| bad(&field, &value))?;
                has_state = true;
            }
            "progress" => {
                record.progress = Some(value.parse().map_err(|_| bad(&field, &value))?);
            }
            "created_at" => record.created_at = number()?,
            "started_at" => record.started_at = Some(number()?),
            "completed_at" => record.completed_at = Some(number()?),
            "result" => {
                record.result =
                    Some(serde_json::from_str(&value).map_err(|_| bad(&field, &value))?);
            }
            "error" => {
                record.error = Some(serde_json::from_str(&value).map_err(|_| bad(&field, &value))?);
            }
            // Fields a later version added: this one does without them.
            _ => {}
        }
    }
    if !has_state || record.tool.is_empty() {
        return Err(StoreError(format!("the record of {job_id} is incomplete")));
    }
    Ok(record)
}

/// A state as the hash and the settle channel spell it.
pub(super) fn state_name(state: JobState) -> &'static str {
    match state {
        JobState::Pending => "pending",
        JobState::Running => "running",
        JobState::Complete => "complete",
        JobState::Failed => "failed",
        JobState::Cancelled => "cancelled",
    }
}

/// The state `name` spells.
pub(super) fn state(name: &str) -> Option<JobState> {
    Some(match name {
        "pending" => JobState::Pending,
        "running" => JobState::Running,
        "complete" => JobState::Complete,
        "failed" => JobState::Failed,
        "cancelled" => JobState::Cancelled,
        _ => return None,
    })
}
