//! The client as a [`CallPort`]: a call's MsgPack goes to a backend as it
//! is and its answer comes back decoded; the job methods call the job tools
//! of the backend that runs the job, for the caller they are given.

use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::broadcast;

use super::Client;
use crate::codec::{self, Limits};
use crate::entry::EntryAnswer;
use crate::events::ToolEvents;
use crate::jobs::tools;
use crate::jobs::{
    JobCall, JobCancelResponse, JobEvent, JobInfo, JobListRequest, JobListResponse, JobPollRequest,
    JobPollResponse, JobReply, Owner,
};
use crate::port::{CallOptions, CallPort, PortEnvelope};
use crate::{IntoToolError, ResponseEnvelope, ServerCatalogue, ToolError};

/// How long a cancel recorded in the shared store waits for the job's
/// worker to confirm it has stopped the handler.
const CANCEL_REACH: Duration = Duration::from_secs(2);

impl<C> Client<C> {
    /// A request on a backend, its answer decoded as `R`'s envelope; one
    /// that does not decode is `INTERNAL`.
    async fn answered<R: DeserializeOwned>(
        &self,
        request: Vec<u8>,
        options: CallOptions,
    ) -> ResponseEnvelope<R> {
        match self.call_raw(request, options).await {
            Ok(body) => codec::from_msgpack(&body, self.inner.config.limits).unwrap_or_else(|e| {
                ResponseEnvelope::Error(ToolError::internal(format!(
                    "the backend's answer does not decode: {}",
                    e.message
                )))
            }),
            Err(e) => ResponseEnvelope::Error(e),
        }
    }

    /// Calls a job tool for `caller` (the backend checks ownership, as
    /// for any call that names its owner) and decodes its response.
    async fn job_tool<Req: Serialize, Res: DeserializeOwned>(
        &self,
        request: &Req,
        caller: Option<&Owner>,
    ) -> Result<Res, ToolError> {
        let bytes = codec::to_msgpack(request)
            .map_err(|e| ToolError::internal(format!("cannot encode the job request: {e}")))?;
        let mut options = CallOptions::default();
        if let Some(caller) = caller {
            options = options.owned_by(caller.clone());
        }
        let body = self.call_raw(bytes, options).await?;
        match codec::from_msgpack::<ResponseEnvelope<Res>>(&body, self.inner.config.limits)? {
            ResponseEnvelope::Success(response) => Ok(response),
            ResponseEnvelope::Error(e) => Err(e),
            _ => Err(ToolError::internal(
                "a job tool answered with something other than its response",
            )),
        }
    }
}

impl<C> Client<C>
where
    C: ServerCatalogue,
    C::Response: DeserializeOwned,
{
    /// A call on a backend, its answer decoded.
    async fn answer(&self, request: Vec<u8>, options: CallOptions) -> PortEnvelope<Self> {
        self.answered(request, options).await
    }

    /// A job tool's call, answered from the shared store.
    async fn answer_job_tool(&self, request: &[u8], caller: Option<&Owner>) -> PortEnvelope<Self> {
        let request: C::Request = match codec::from_msgpack(request, self.inner.config.limits) {
            Ok(request) => request,
            Err(e) => return ResponseEnvelope::Error(e),
        };
        let Ok(call) = C::into_job_call(request) else {
            return ResponseEnvelope::Error(ToolError::internal(
                "a job tool's request is not the catalogue's job call",
            ));
        };
        let reply = match call {
            JobCall::Status(r) => self
                .job_status(&r.job_id, caller)
                .await
                .map(JobReply::Status),
            JobCall::List(r) => self.job_list(r, caller).await.map(JobReply::List),
            JobCall::Poll(r) => self.job_poll(r, caller).await.map(JobReply::Poll),
            JobCall::Cancel(r) => self
                .job_cancel(&r.job_id, caller)
                .await
                .map(JobReply::Cancel),
        };
        match reply {
            Ok(reply) => ResponseEnvelope::Success(C::from_job_reply(reply)),
            Err(e) => ResponseEnvelope::Error(e),
        }
    }
}

/// Whether a MsgPack request calls one of the job tools.
fn is_job_tool(request: &[u8]) -> bool {
    super::route::tool_name(request)
        .is_some_and(|tool| matches!(tool, "job_status" | "job_list" | "job_poll" | "job_cancel"))
}

/// `{"tool": "job_status", "job_id": …}` and `job_cancel`'s.
#[derive(Serialize)]
struct JobRequest<'a> {
    tool: &'static str,
    job_id: &'a str,
}

/// `{"tool": "job_poll", …}` (or `job_list`): a job tool's request with
/// its tag.
#[derive(Serialize)]
struct Tagged<'a, R> {
    tool: &'static str,
    #[serde(flatten)]
    request: &'a R,
}

impl<C> CallPort for Client<C>
where
    C: ServerCatalogue,
    C::Response: DeserializeOwned,
{
    type Catalogue = C;

    async fn call(&self, request: Vec<u8>, options: CallOptions) -> PortEnvelope<Self> {
        let trace = self
            .inner
            .tool_events
            .start(&request, options.owner.as_ref());
        let shared = self.inner.config.jobs.is_some();
        let answer = if shared && is_job_tool(&request) {
            // The workers' shared store answers: no worker need be there.
            self.answer_job_tool(&request, options.owner.as_ref()).await
        } else {
            self.answer(request, options).await
        };
        if let Some(trace) = trace {
            trace.end(self, &answer);
        }
        answer
    }

    async fn entry(&self, request: Vec<u8>, options: CallOptions) -> ResponseEnvelope<EntryAnswer> {
        // The Request frame of a call carries it unchanged: the backend
        // tells it from a call by its first key.
        self.answered(request, options).await
    }

    async fn job_status(&self, job_id: &str, caller: Option<&Owner>) -> Result<JobInfo, ToolError> {
        if let Some(jobs) = &self.inner.config.jobs {
            return tools::status(jobs.records.as_ref(), job_id, caller)
                .await
                .map_err(IntoToolError::into_tool_error);
        }
        let request = JobRequest {
            tool: "job_status",
            job_id,
        };
        self.job_tool(&request, caller).await
    }

    async fn job_list(
        &self,
        request: JobListRequest,
        caller: Option<&Owner>,
    ) -> Result<JobListResponse, ToolError> {
        if let Some(jobs) = &self.inner.config.jobs {
            return tools::list(jobs.records.as_ref(), request, caller)
                .await
                .map_err(IntoToolError::into_tool_error);
        }
        let request = Tagged {
            tool: "job_list",
            request: &request,
        };
        self.job_tool(&request, caller).await
    }

    async fn job_poll(
        &self,
        request: JobPollRequest,
        caller: Option<&Owner>,
    ) -> Result<JobPollResponse, ToolError> {
        if let Some(jobs) = &self.inner.config.jobs {
            return tools::poll(jobs.records.as_ref(), request, caller)
                .await
                .map_err(IntoToolError::into_tool_error);
        }
        let request = Tagged {
            tool: "job_poll",
            request: &request,
        };
        self.job_tool(&request, caller).await
    }

    async fn job_cancel(
        &self,
        job_id: &str,
        caller: Option<&Owner>,
    ) -> Result<JobCancelResponse, ToolError> {
        let request = JobRequest {
            tool: "job_cancel",
            job_id,
        };
        let Some(jobs) = &self.inner.config.jobs else {
            return self.job_tool(&request, caller).await;
        };
        let records = jobs.records.as_ref();
        let cancelled = tools::cancel(records, job_id, caller, self.inner.config.retention())
            .await
            .map_err(IntoToolError::into_tool_error)?;
        if let tools::Cancelled::Now(_) = cancelled {
            // Recorded. The worker running it stops it when it hears of
            // the settle from the store; told directly too, it stops at
            // once. A worker that is gone has nothing to stop.
            let told = self.job_tool::<_, JobCancelResponse>(&request, caller);
            let _ = tokio::time::timeout(CANCEL_REACH, told).await;
        }
        Ok(cancelled.response(job_id))
    }

    fn subscribe(&self) -> broadcast::Receiver<JobEvent> {
        self.inner.events.subscribe()
    }

    /// The updates the backends publish on their IOPub; `None` without
    /// [`ClientConfig::iopub`](super::ClientConfig::iopub), which follows
    /// none.
    fn resource_updates(&self) -> Option<broadcast::Receiver<std::sync::Arc<str>>> {
        self.inner
            .config
            .follows_iopub()
            .then(|| self.inner.updates.subscribe())
    }

    fn events(&self) -> &ToolEvents {
        &self.inner.tool_events
    }

    fn limits(&self) -> Limits {
        self.inner.config.limits
    }

    fn job_ttl(&self) -> Duration {
        self.inner.job_ttl()
    }

    async fn readiness(&self) -> crate::port::Readiness {
        self.readiness_now().await
    }

    fn gauges(&self) -> crate::port::Gauges {
        self.gauges_now()
    }
}
