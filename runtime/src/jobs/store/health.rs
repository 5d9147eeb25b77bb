//! What a readiness probe and a metrics scrape ask of a job store: whether
//! its records answer, and how many of its jobs wait or run here.

use std::time::Duration;

use super::JobStore;

impl<R> JobStore<R> {
    /// Whether the records answer within `within`; why not when they do
    /// not.
    pub(crate) async fn ping(&self, within: Duration) -> Result<(), String> {
        match tokio::time::timeout(within, self.shared.records.ping()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(format!("the job store does not answer: {e}")),
            Err(_) => Err(format!(
                "the job store does not answer within {} ms",
                within.as_millis()
            )),
        }
    }

    /// The jobs of this process, pending and running: what it holds in
    /// memory, at most the dispatcher's `max_jobs`, never the records.
    pub(crate) fn active(&self) -> (u64, u64) {
        let local = self
            .shared
            .local
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let running = local.running.values().filter(|job| job.started).count();
        let pending = local.running.len() - running;
        (pending as u64, running as u64)
    }
}
