//! Stopping jobs: `JobStore::cancel` for one, `JobStore::shutdown` for all.

use serde::Serialize;

use super::local::Latch;
use super::{JobStore, STOP_MARGIN};
use crate::ToolError;
use crate::jobs::records::Ending;
use crate::jobs::{JobCancelResponse, JobError, Owner, tools};
use crate::time::now_ms;

impl<R: Serialize + Send + 'static> JobStore<R> {
    /// Cancels a job: it is recorded as cancelled, its handler's
    /// [`Context`](crate::Context) sees the cancellation at once, and this
    /// returns once the handler has stopped, which is at most the
    /// dispatcher's `cancel_grace` (a handler still running then is dropped
    /// at its next `.await`). A job another process runs (with a store they
    /// share) is recorded as cancelled here and stopped by that process.
    /// Cancelling a finished job changes nothing and answers
    /// `cancelled: false` with its state.
    ///
    /// # Errors
    /// [`JobError::InvalidJobId`] for a malformed id, [`JobError::NotFound`]
    /// for one that is unknown or expired, [`JobError::Unavailable`] when
    /// the store cannot be reached (nothing is cancelled then).
    pub async fn cancel(&self, job_id: &str) -> Result<JobCancelResponse, JobError> {
        self.cancel_for(job_id, None).await
    }

    /// [`cancel`](Self::cancel) as `caller` may: another owner's job is not
    /// found, and left running.
    ///
    /// # Errors
    /// As [`cancel`](Self::cancel).
    pub async fn cancel_for(
        &self,
        job_id: &str,
        caller: Option<&Owner>,
    ) -> Result<JobCancelResponse, JobError> {
        self.shared.background.reap_once(self).await;
        let records = self.shared.records.as_ref();
        let cancelled = tools::cancel(records, job_id, caller, self.shared.keep).await?;
        // Whoever settled it, the handler here (if it runs here) stops.
        let job = self.local().remove(job_id);
        match (&cancelled, job) {
            (tools::Cancelled::Now(ending), Some(job)) => {
                self.finished_event(job_id, job.tool, ending);
                let why = ending.error.clone();
                let stopped = job.stop(why.unwrap_or_else(|| ToolError::cancelled("cancelled")));
                // The end is recorded; what is left is to see the handler
                // gone.
                let _ = tokio::time::timeout(self.shared.grace + STOP_MARGIN, stopped.wait()).await;
            }
            (tools::Cancelled::Already(_), Some(job)) => {
                job.stop(ToolError::cancelled("the job ended elsewhere"));
            }
            (_, None) => {}
        }
        Ok(cancelled.response(job_id))
    }

    /// Cancels every job running here (recorded as cancelled, "shut down"),
    /// refuses new ones, and waits for the handlers to stop, at most the
    /// grace period. A job whose end the store cannot take now is left to
    /// be reaped as `INTERRUPTED` once this worker's lease lapses.
    pub async fn shutdown(&self) {
        let running = {
            let mut local = self.local();
            local.closed = true;
            let ids: Vec<_> = local.running.keys().cloned().collect();
            ids.into_iter()
                .filter_map(|id| local.remove(&id).map(|job| (id, job)))
                .collect::<Vec<_>>()
        };
        let why = ToolError::cancelled("the server shut down");
        // Every handler is told at once; the records follow.
        let mut stopped: Vec<Latch> = Vec::with_capacity(running.len());
        let mut tools = Vec::with_capacity(running.len());
        for (id, job) in running {
            tools.push((id, job.tool));
            stopped.push(job.stop(why.clone()));
        }
        for (id, tool) in tools {
            let ending = Ending::failed(why.clone(), now_ms());
            if let Ok(true) = self
                .shared
                .records
                .settle(&id, ending.clone(), self.shared.keep)
                .await
            {
                self.finished_event(&id, tool, &ending);
            }
        }
        let all = async {
            for latch in &stopped {
                latch.wait().await;
            }
        };
        let _ = tokio::time::timeout(self.shared.grace + STOP_MARGIN, all).await;
    }
}
