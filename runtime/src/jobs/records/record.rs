//! One job's record, as every store keeps it, and how a job ends.

use serde::{Deserialize, Serialize};

use crate::jobs::{JobInfo, JobState};
use crate::{Json, ToolError};

/// Everything `job_status`, `job_list` and `job_poll` answer about one job,
/// who it belongs to and which worker runs it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JobRecord {
    /// Its id (`job_…`).
    pub job_id: String,
    /// The tool it runs.
    pub tool: String,
    /// Who started it (see [`Owner`](crate::jobs::Owner)); only they, and
    /// callers without an owner, see it.
    pub owner: Option<String>,
    /// Its state.
    pub state: JobState,
    /// The handler's last progress report, between 0 and 1.
    pub progress: Option<f32>,
    /// When it was accepted, in Unix milliseconds.
    pub created_at: u64,
    /// When its handler started.
    pub started_at: Option<u64>,
    /// When it finished.
    pub completed_at: Option<u64>,
    /// Its response as JSON, without the `tool` tag, when it completed and
    /// no caller took the response inline.
    pub result: Option<Json>,
    /// The error it failed with, or why it was cancelled.
    pub error: Option<ToolError>,
    /// The worker that runs it, whose lease keeps it from being reaped.
    pub worker: Option<String>,
}

impl JobRecord {
    /// A job accepted now, pending.
    pub fn pending(
        job_id: &str,
        tool: &str,
        owner: Option<&str>,
        worker: Option<&str>,
        at: u64,
    ) -> Self {
        JobRecord {
            job_id: job_id.to_owned(),
            tool: tool.to_owned(),
            owner: owner.map(str::to_owned),
            state: JobState::Pending,
            progress: None,
            created_at: at,
            started_at: None,
            completed_at: None,
            result: None,
            error: None,
            worker: worker.map(str::to_owned),
        }
    }

    /// Whether it is in a state it never leaves.
    pub fn is_finished(&self) -> bool {
        is_finished(self.state)
    }

    /// Writes `ending` into the record.
    pub fn settle(&mut self, ending: Ending) {
        self.state = ending.state;
        self.completed_at = Some(ending.at);
        self.result = ending.result;
        self.error = ending.error;
    }

    /// Sets `state` to running, if it was pending.
    pub fn start(&mut self, at: u64) {
        if self.state == JobState::Pending {
            self.state = JobState::Running;
            self.started_at = Some(at);
        }
    }

    /// The public view, as the job tools answer it.
    pub fn info(&self) -> JobInfo {
        JobInfo {
            job_id: self.job_id.clone(),
            tool_name: self.tool.clone(),
            state: self.state,
            progress: self.progress,
            created_at: self.created_at,
            started_at: self.started_at,
            completed_at: self.completed_at,
            result: self.result.clone(),
            error_code: self.error.as_ref().map(|e| e.code.to_string()),
            error: self.error.as_ref().map(|e| e.message.clone()),
        }
    }
}

/// How a job ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// `Complete`, `Failed` or `Cancelled`.
    pub state: JobState,
    /// When, in Unix milliseconds.
    pub at: u64,
    /// The response as JSON without its `tool` tag, unless a caller took it.
    pub result: Option<Json>,
    /// The error, for a job that did not complete.
    pub error: Option<ToolError>,
}

impl Ending {
    /// A job that failed with `error` (cancelled, when its code is
    /// `CANCELLED`).
    pub fn failed(error: ToolError, at: u64) -> Self {
        let state = if error.code == crate::codes::CANCELLED {
            JobState::Cancelled
        } else {
            JobState::Failed
        };
        Ending {
            state,
            at,
            result: None,
            error: Some(error),
        }
    }

    /// A job that completed, with its result unless a caller took it.
    pub fn complete(result: Option<Json>, at: u64) -> Self {
        Ending {
            state: JobState::Complete,
            at,
            result,
            error: None,
        }
    }
}

/// True for the states a job never leaves.
pub(crate) fn is_finished(state: JobState) -> bool {
    matches!(
        state,
        JobState::Complete | JobState::Failed | JobState::Cancelled
    )
}
