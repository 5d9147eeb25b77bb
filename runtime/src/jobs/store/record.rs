//! One job's entry in the store: its state, timestamps, outcome, and the
//! handles that reach its running task.

use std::sync::Arc;

use serde::Serialize;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::jobs::{JobInfo, JobState, Owner};
use crate::{Json, ToolError, codes};

/// What a job ends with: the handler's response or the error it failed with.
pub(crate) type Outcome<R> = Result<R, ToolError>;

/// One job.
pub(super) struct Record<R> {
    pub(super) id: Arc<str>,
    pub(super) tool: &'static str,
    pub(super) state: JobState,
    pub(super) progress: Option<f32>,
    pub(super) created_at: u64,
    pub(super) started_at: Option<u64>,
    pub(super) completed_at: Option<u64>,
    /// The response, until it is handed to a waiting caller (then `None`).
    pub(super) result: Option<R>,
    pub(super) error: Option<ToolError>,
    /// A caller waiting for the outcome within its budget, or a stream.
    pub(super) waiter: Option<oneshot::Sender<Outcome<R>>>,
    /// Cancelled by `job_cancel` and shutdown; the handler's `Context` sees it.
    pub(super) token: CancellationToken,
    /// Opened when the job's task has ended.
    pub(super) stopped: Latch,
    /// Who started it; only they (and callers without an owner) see it.
    pub(super) owner: Option<Owner>,
}

impl<R> Record<R> {
    pub(super) fn new(
        id: Arc<str>,
        tool: &'static str,
        now: u64,
        waiter: Option<oneshot::Sender<Outcome<R>>>,
        owner: Option<Owner>,
    ) -> Self {
        Record {
            id,
            tool,
            state: JobState::Pending,
            progress: None,
            created_at: now,
            started_at: None,
            completed_at: None,
            result: None,
            error: None,
            waiter,
            token: CancellationToken::new(),
            stopped: Latch::new(),
            owner,
        }
    }

    /// True when `caller` may see this job.
    pub(super) fn seen_by(&self, caller: Option<&Owner>) -> bool {
        crate::jobs::sees(caller, self.owner.as_ref())
    }

    pub(super) fn is_finished(&self) -> bool {
        is_finished(self.state)
    }

    /// Moves the job to its final state. The outcome goes to the waiting
    /// caller when there is one still listening, else it is kept here.
    pub(super) fn settle(&mut self, outcome: Outcome<R>, now: u64) {
        self.state = match &outcome {
            Ok(_) => JobState::Complete,
            Err(e) if e.code == codes::CANCELLED => JobState::Cancelled,
            Err(_) => JobState::Failed,
        };
        self.completed_at = Some(now);
        if let Err(e) = &outcome {
            // Kept for `job_status` even when a caller takes the outcome.
            self.error = Some(e.clone());
        }
        let kept = match self.waiter.take() {
            Some(waiter) => waiter.send(outcome).err(),
            None => Some(outcome),
        };
        if let Some(Ok(response)) = kept {
            self.result = Some(response);
        }
    }
}

impl<R: Serialize> Record<R> {
    /// The public view. `result` is the response as JSON without its `tool`
    /// tag: the tool is named beside it.
    pub(super) fn info(&self) -> JobInfo {
        JobInfo {
            job_id: self.id.to_string(),
            tool_name: self.tool.to_owned(),
            state: self.state,
            progress: self.progress,
            created_at: self.created_at,
            started_at: self.started_at,
            completed_at: self.completed_at,
            result: self
                .result
                .as_ref()
                .and_then(|r| response_json(r, self.tool)),
            error_code: self.error.as_ref().map(|e| e.code.to_string()),
            error: self.error.as_ref().map(|e| e.message.clone()),
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

/// A catalogue response as JSON, without the `tool` tag when it names `tool`.
/// `None` when it has no JSON form (a map with non-string keys).
fn response_json<R: Serialize>(response: &R, tool: &str) -> Option<Json> {
    let mut json = serde_json::to_value(response).ok()?;
    if json.get(crate::wire::TOOL_TAG).and_then(Json::as_str) == Some(tool) {
        crate::wire::untag(&mut json);
    }
    Some(json)
}

/// A one-way gate: closed until `open`, then open for good; any number of
/// tasks may wait for it, before or after it opens.
#[derive(Clone, Debug, Default)]
pub(crate) struct Latch(CancellationToken);

impl Latch {
    pub(crate) fn new() -> Self {
        Latch(CancellationToken::new())
    }

    pub(crate) fn open(&self) {
        self.0.cancel();
    }

    pub(crate) async fn wait(&self) {
        self.0.cancelled().await;
    }
}

/// Opens a job's `stopped` latch when dropped: held by the job's task, so
/// the latch opens however the task ends (returns, is aborted, or its
/// runtime shuts down).
#[derive(Debug)]
pub(crate) struct StopGuard(pub(super) Latch);

impl Drop for StopGuard {
    fn drop(&mut self) {
        self.0.open();
    }
}
