//! What only the process running a job can hold: the handler's cancellation
//! token, the caller waiting for it inline, the latch that opens when its
//! task ends.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use crate::jobs::Owner;
use crate::{Json, ToolError};

/// What a job ends with: the handler's response or the error it failed with.
pub(crate) type Outcome<R> = Result<R, ToolError>;

/// A job running in this process.
pub(super) struct Running<R> {
    pub(super) tool: &'static str,
    pub(super) owner: Option<Owner>,
    /// A caller waiting for the outcome within its budget, or a stream.
    pub(super) waiter: Option<oneshot::Sender<Outcome<R>>>,
    /// Cancelled by `job_cancel` and shutdown; the handler's `Context` sees it.
    pub(super) token: CancellationToken,
    /// Opened when the job's task has ended.
    pub(super) stopped: Latch,
    /// Its handler has started: it is running, no longer pending.
    pub(super) started: bool,
}

impl<R> Running<R> {
    /// Stops the handler and tells its waiter, if any, why.
    pub(super) fn stop(mut self, why: ToolError) -> Latch {
        self.token.cancel();
        if let Some(waiter) = self.waiter.take() {
            let _ = waiter.send(Err(why));
        }
        self.stopped
    }
}

/// The jobs running in this process, for admission and for reaching their
/// handlers.
pub(super) struct Local<R> {
    pub(super) running: HashMap<Arc<str>, Running<R>>,
    /// Set by shutdown: no new jobs.
    pub(super) closed: bool,
    by_owner: HashMap<Owner, usize>,
}

impl<R> Local<R> {
    pub(super) fn new() -> Self {
        Local {
            running: HashMap::new(),
            closed: false,
            by_owner: HashMap::new(),
        }
    }

    /// Jobs running here: all of them, and those of `owner`.
    pub(super) fn active(&self, owner: Option<&Owner>) -> (usize, usize) {
        let own = owner.map_or(0, |o| self.by_owner.get(o).copied().unwrap_or(0));
        (self.running.len(), own)
    }

    pub(super) fn insert(&mut self, id: Arc<str>, job: Running<R>) {
        if let Some(owner) = &job.owner {
            *self.by_owner.entry(owner.clone()).or_default() += 1;
        }
        self.running.insert(id, job);
    }

    /// Forgets a job: it has ended, or its end is recorded.
    pub(super) fn remove(&mut self, id: &str) -> Option<Running<R>> {
        let job = self.running.remove(id)?;
        if let Some(owner) = &job.owner
            && let Some(n) = self.by_owner.get_mut(owner)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.by_owner.remove(owner);
            }
        }
        Some(job)
    }
}

/// A catalogue response as JSON, without the `tool` tag when it names `tool`.
/// `None` when it has no JSON form (a map with non-string keys).
pub(super) fn response_json<R: Serialize>(response: &R, tool: &str) -> Option<Json> {
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
