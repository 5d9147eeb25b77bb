//! A gateway's jobs when its workers share a job store (Redis): the job
//! tools are answered from the store, for jobs started on any worker
//! through any gateway, and the gateway reaps the jobs of workers whose
//! lease lapsed, as every worker does.

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::jobs::records::{JobRecords, Retention};

/// The store a [`ClientConfig`](super::ClientConfig) names, and how long
/// workers' leases last.
#[derive(Clone)]
pub(super) struct SharedJobs {
    pub(super) records: Arc<dyn JobRecords>,
    pub(super) lease: Duration,
}

impl std::fmt::Debug for SharedJobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedJobs")
            .field("lease", &self.lease)
            .finish_non_exhaustive()
    }
}

impl SharedJobs {
    /// Reaps lapsed workers' jobs every half lease until `stop`.
    pub(super) fn reap_until(&self, keep: Retention, stop: CancellationToken) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let records = self.records.clone();
        let interval = (self.lease / 2).max(Duration::from_millis(10));
        runtime.spawn(crate::jobs::periodically(stop, interval, move || {
            let records = records.clone();
            async move {
                // A store that is down is reaped once it is back.
                let _ = records.reap(keep).await;
                true
            }
        }));
    }
}
