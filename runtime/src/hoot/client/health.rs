//! What a gateway tells an orchestrator: ready while a backend is in
//! rotation (and its shared job store, when it has one, answers), and how
//! many backends are live and calls in flight.

use super::Client;
use crate::port::{Gauges, READINESS_TIMEOUT, Readiness};

impl<C> Client<C> {
    /// Ready when at least one backend is in rotation and the shared job
    /// store, if the client has one, answers within
    /// [`READINESS_TIMEOUT`].
    pub(super) async fn readiness_now(&self) -> Readiness {
        if self.backends_alive() == 0 {
            let service = &self.inner.config.service;
            let whose = if service.is_empty() {
                String::new()
            } else {
                format!(" of service `{service}`")
            };
            let endpoints: Vec<String> = self.backends().into_iter().map(|b| b.endpoint).collect();
            return Readiness::NotReady(format!(
                "no backend{whose} is in rotation ({})",
                endpoints.join(", ")
            ));
        }
        let Some(jobs) = &self.inner.config.jobs else {
            return Readiness::Ready;
        };
        match tokio::time::timeout(READINESS_TIMEOUT, jobs.records.ping()).await {
            Ok(Ok(())) => Readiness::Ready,
            Ok(Err(e)) => Readiness::NotReady(format!("the job store does not answer: {e}")),
            Err(_) => Readiness::NotReady(format!(
                "the job store does not answer within {} ms",
                READINESS_TIMEOUT.as_millis()
            )),
        }
    }

    /// Its backends, live and all, and its calls awaiting a final Reply.
    pub(super) fn gauges_now(&self) -> Gauges {
        let state = self.inner.lock();
        let live = state.backends.iter().filter(|b| b.alive).count();
        Gauges {
            workers_live: Some(live as u64),
            workers: Some(state.backends.len() as u64),
            hoot_in_flight: Some(state.pending.len() as u64),
            ..Gauges::default()
        }
    }
}
