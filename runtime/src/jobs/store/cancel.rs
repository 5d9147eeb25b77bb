//! Stopping jobs: `JobStore::cancel` for one, `JobStore::shutdown` for all.

use std::sync::Arc;

use super::record::Latch;
use super::{JobStore, STOP_MARGIN, id, not_found};
use crate::ToolError;
use crate::jobs::{JobCancelResponse, JobError, JobState, Owner};

impl<R: Send + 'static> JobStore<R> {
    /// Cancels a job: its handler's [`Context`](crate::Context) sees the
    /// cancellation at once, the job is recorded as cancelled, and this
    /// returns once the handler has stopped, which is at most the
    /// dispatcher's `cancel_grace` (a handler still running then is dropped
    /// at its next `.await`). Cancelling a finished job changes nothing and
    /// answers `cancelled: false` with its state.
    ///
    /// # Errors
    /// [`JobError::InvalidJobId`] for a malformed id, [`JobError::NotFound`]
    /// for one that is unknown or expired.
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
        id::check(job_id)?;
        let stopped = {
            let mut table = self.lock();
            let record = table
                .get_mut(job_id)
                .filter(|r| r.seen_by(caller))
                .ok_or_else(|| not_found(job_id))?;
            if record.is_finished() {
                return Ok(JobCancelResponse {
                    job_id: job_id.to_owned(),
                    cancelled: false,
                    state: record.state,
                });
            }
            record.token.cancel();
            let stopped = record.stopped.clone();
            self.settle_locked(
                &mut table,
                job_id,
                Err(ToolError::cancelled("cancelled by job_cancel")),
            );
            stopped
        };
        // The outcome is recorded; what is left is to see the handler gone.
        let _ = tokio::time::timeout(self.shared.grace + STOP_MARGIN, stopped.wait()).await;
        Ok(JobCancelResponse {
            job_id: job_id.to_owned(),
            cancelled: true,
            state: JobState::Cancelled,
        })
    }

    /// Cancels every pending and running job (recorded as cancelled, "shut
    /// down"), refuses new ones, and waits for the handlers to stop, at most
    /// the grace period, and for a durable store's writes to finish.
    pub async fn shutdown(&self) {
        let stopped: Vec<Latch> = {
            let mut table = self.lock();
            table.closed = true;
            let ids: Vec<Arc<str>> = table
                .unfinished_mut()
                .map(|r| {
                    r.token.cancel();
                    r.id.clone()
                })
                .collect();
            let mut stopped = Vec::with_capacity(ids.len());
            for id in ids {
                if let Some(r) = table.get(&id) {
                    stopped.push(r.stopped.clone());
                }
                self.settle_locked(
                    &mut table,
                    &id,
                    Err(ToolError::cancelled("the server shut down")),
                );
            }
            stopped
        };
        let all = async {
            for latch in &stopped {
                latch.wait().await;
            }
        };
        let _ = tokio::time::timeout(self.shared.grace + STOP_MARGIN, all).await;
        // Every job's last state is written before the process goes.
        if let Some(persist) = &self.shared.persist {
            persist.flush().await;
        }
    }
}
