//! The job tools (`job_status`, `job_list`, `job_poll`, `job_cancel`),
//! answered from the dispatcher's job store rather than by a handler.

use super::{Dispatcher, ResponseOf};
use crate::jobs::{JobCall, JobReply};
use crate::{Catalogue, IntoToolError, ResponseEnvelope, Service};

impl<S: Service> Dispatcher<S> {
    pub(super) async fn answer_job_call(&self, call: JobCall) -> ResponseEnvelope<ResponseOf<S>> {
        let jobs = self.jobs();
        let reply = match call {
            JobCall::Status(r) => jobs.status(&r.job_id).map(JobReply::Status),
            JobCall::List(r) => Ok(JobReply::List(jobs.list(r))),
            JobCall::Poll(r) => jobs.poll(r).await.map(JobReply::Poll),
            JobCall::Cancel(r) => jobs.cancel(&r.job_id).await.map(JobReply::Cancel),
        };
        match reply {
            Ok(reply) => ResponseEnvelope::Success(S::Catalogue::from_job_reply(reply)),
            Err(e) => ResponseEnvelope::Error(e.into_tool_error()),
        }
    }
}
