//! The job tools (`job_status`, `job_list`, `job_poll`, `job_cancel`),
//! answered from the dispatcher's job store rather than by a handler.

use super::{Dispatcher, ResponseOf};
use crate::jobs::{JobCall, JobReply, Owner};
use crate::{Catalogue, IntoToolError, ResponseEnvelope, Service};

impl<S: Service> Dispatcher<S> {
    /// Answers a job tool as `caller` sees the jobs.
    pub(super) async fn answer_job_call(
        &self,
        call: JobCall,
        caller: Option<&Owner>,
    ) -> ResponseEnvelope<ResponseOf<S>> {
        let jobs = self.jobs();
        let reply = match call {
            JobCall::Status(r) => jobs
                .status_for(&r.job_id, caller)
                .await
                .map(JobReply::Status),
            JobCall::List(r) => jobs.list_for(r, caller).await.map(JobReply::List),
            JobCall::Poll(r) => jobs.poll_for(r, caller).await.map(JobReply::Poll),
            JobCall::Cancel(r) => jobs
                .cancel_for(&r.job_id, caller)
                .await
                .map(JobReply::Cancel),
        };
        match reply {
            Ok(reply) => ResponseEnvelope::Success(S::Catalogue::from_job_reply(reply)),
            Err(e) => ResponseEnvelope::Error(e.into_tool_error()),
        }
    }
}
