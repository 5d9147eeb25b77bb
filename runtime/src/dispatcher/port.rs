//! The dispatcher as a [`CallPort`]: requests arrive as MsgPack, are
//! decoded once, and are answered as [`Dispatcher::call_with`] answers
//! them (a `sync` call of a plain-`fn` handler without a future).

use std::time::Duration;

use tokio::sync::broadcast;

use super::Dispatcher;
use crate::codec::Limits;
use crate::entry::EntryAnswer;
use crate::events::ToolEvents;
use crate::jobs::{
    JobCancelResponse, JobEvent, JobInfo, JobListRequest, JobListResponse, JobPollRequest,
    JobPollResponse, Owner,
};
use crate::port::{CallOptions, CallPort, Gauges, PortEnvelope, READINESS_TIMEOUT, Readiness};
use crate::{IntoToolError, ResponseEnvelope, Service, ToolError};

impl<S: Service> CallPort for Dispatcher<S> {
    type Catalogue = S::Catalogue;

    const NOT_SERVED: Option<&'static [&'static str]> = Some(S::NOT_SERVED);

    async fn call(&self, request: Vec<u8>, options: CallOptions) -> PortEnvelope<Self> {
        let decoded = match self.decode(&request) {
            Ok(decoded) => decoded,
            Err(e) => {
                // Nothing was started: no tool or arguments to start it with.
                self.events().refused(&request, &e, options.owner.as_ref());
                return ResponseEnvelope::Error(e);
            }
        };
        let trace = self.events().start(&request, options.owner.as_ref());
        let answer = self.call_with(decoded, options).await;
        if let Some(trace) = trace {
            trace.end(self, &answer);
        }
        answer
    }

    async fn entry(&self, request: Vec<u8>, options: CallOptions) -> ResponseEnvelope<EntryAnswer> {
        Dispatcher::entry(self, request, options).await
    }

    async fn job_status(&self, job_id: &str, caller: Option<&Owner>) -> Result<JobInfo, ToolError> {
        self.jobs()
            .status_for(job_id, caller)
            .await
            .map_err(IntoToolError::into_tool_error)
    }

    async fn job_list(
        &self,
        request: JobListRequest,
        caller: Option<&Owner>,
    ) -> Result<JobListResponse, ToolError> {
        self.jobs()
            .list_for(request, caller)
            .await
            .map_err(IntoToolError::into_tool_error)
    }

    async fn job_poll(
        &self,
        request: JobPollRequest,
        caller: Option<&Owner>,
    ) -> Result<JobPollResponse, ToolError> {
        self.jobs()
            .poll_for(request, caller)
            .await
            .map_err(IntoToolError::into_tool_error)
    }

    async fn job_cancel(
        &self,
        job_id: &str,
        caller: Option<&Owner>,
    ) -> Result<JobCancelResponse, ToolError> {
        self.jobs()
            .cancel_for(job_id, caller)
            .await
            .map_err(IntoToolError::into_tool_error)
    }

    fn subscribe(&self) -> broadcast::Receiver<JobEvent> {
        Dispatcher::subscribe(self)
    }

    fn resource_updates(&self) -> Option<broadcast::Receiver<std::sync::Arc<str>>> {
        Dispatcher::resource_updates(self)
    }

    fn events(&self) -> &ToolEvents {
        &self.inner.events
    }

    fn limits(&self) -> Limits {
        self.config().limits
    }

    fn job_ttl(&self) -> Duration {
        self.config().job_ttl
    }

    /// Ready while its job store answers a ping.
    async fn readiness(&self) -> Readiness {
        match self.jobs().ping(READINESS_TIMEOUT).await {
            Ok(()) => Readiness::Ready,
            Err(why) => Readiness::NotReady(why),
        }
    }

    fn gauges(&self) -> Gauges {
        let (pending, running) = self.jobs().active();
        Gauges {
            jobs_pending: Some(pending),
            jobs_running: Some(running),
            ..Gauges::default()
        }
    }
}
