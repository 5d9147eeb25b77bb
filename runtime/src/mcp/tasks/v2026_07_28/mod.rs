//! MCP 2026-07-28's tasks extension (`io.modelcontextprotocol/tasks`,
//! SEP-2663) over the job store: a request that declares the extension
//! and calls a tool that runs on as a job gets the task (`resultType:
//! "task"`) instead of a job handle, and `tasks/get`, `tasks/update` and
//! `tasks/cancel` read and stop the job. The task id is the job id.
//!
//! That revision keeps no sessions, so a task belongs to its caller as its
//! job does: the port's job methods, asked for the requesting caller,
//! answer for it, and another caller's task is not found.

pub(in crate::mcp) mod questions;

use std::sync::{Arc, OnceLock};

use rmcp::RoleServer;
use rmcp::model::{
    CancelTaskParams, CreateTaskResult, DetailedTask, ErrorData, GetTaskParams, GetTaskResult,
    JsonObject, Task, TaskPayload, TaskStatus, UpdateTaskParams,
};
use rmcp::service::RequestContext;
use serde_json::json;

use crate::jobs::{JobInfo, JobState};
use crate::mcp::server::McpServer;
use crate::mcp::tasks::clock;
use crate::mcp::tools::result;
use crate::port::{CallOptions, CallPort};
use crate::{Catalogue, Json, codes};

/// Set by a call that started a job, in a request that may be answered
/// with a task: the job's id.
#[derive(Clone, Debug, Default)]
pub(crate) struct StartedJob(Arc<OnceLock<String>>);

impl StartedJob {
    pub(in crate::mcp) fn set(&self, job_id: &str) {
        let _ = self.0.set(job_id.to_owned());
    }

    pub(in crate::mcp) fn get(&self) -> Option<&str> {
        self.0.get().map(String::as_str)
    }
}

impl<P: CallPort> McpServer<P> {
    /// The task of a call that started `job_id`, as the job stands now
    /// (working, or already ended if it was quick).
    pub(in crate::mcp) async fn created_task(
        &self,
        job_id: &str,
        options: CallOptions,
    ) -> Result<CreateTaskResult, ErrorData> {
        let info = self.job_of(job_id, options).await?;
        let status = status_of(&info, self.shared.task_questions.waits(&info.job_id));
        Ok(CreateTaskResult::new(self.task_of(&info, status)))
    }

    /// `tasks/get`: the task, with its result or error once it has ended.
    pub(in crate::mcp) async fn extension_task_get(
        &self,
        request: GetTaskParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        let options = self.call_options(&context.extensions);
        let info = self.job_of(&request.task_id, options).await?;
        let waiting = self.shared.task_questions.pending(&info.job_id);
        let status = status_of(&info, waiting.is_some());
        let payload = match status {
            TaskStatus::Cancelled => TaskPayload::Cancelled,
            TaskStatus::Failed => TaskPayload::Failed {
                error: internal_error(&info),
            },
            TaskStatus::Completed => TaskPayload::Completed {
                result: self.ended_result(&info),
            },
            _ => match waiting {
                Some(input_requests) => TaskPayload::InputRequired { input_requests },
                None => TaskPayload::Working,
            },
        };
        Ok(GetTaskResult::new(DetailedTask::new(
            self.task_of(&info, status),
            payload,
        )))
    }

    /// `tasks/update`: the answers to the questions a task of the
    /// caller's waits on (`questions.rs`), each under its key; a key no
    /// question waits under is ignored.
    pub(in crate::mcp) async fn extension_task_update(
        &self,
        request: UpdateTaskParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let options = self.call_options(&context.extensions);
        let info = self.job_of(&request.task_id, options).await?;
        self.shared
            .task_questions
            .answer(&info.job_id, request.input_responses);
        Ok(())
    }

    /// `tasks/cancel`: the job is cancelled; a task that has ended is left
    /// as it is, and acknowledged all the same.
    pub(in crate::mcp) async fn extension_task_cancel(
        &self,
        request: CancelTaskParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let options = self.call_options(&context.extensions);
        let info = self.job_of(&request.task_id, options.clone()).await?;
        if matches!(info.state, JobState::Pending | JobState::Running) {
            // Returns once the handler has stopped (or its grace ran out);
            // a job that ended meanwhile is not an error.
            let _ = self
                .shared
                .edge
                .port()
                .job_cancel(&request.task_id, options.owner.as_ref())
                .await;
        }
        Ok(())
    }

    /// The job behind a task, as the job store answers the caller of
    /// `options`: another caller's job is not found.
    async fn job_of(&self, job_id: &str, options: CallOptions) -> Result<JobInfo, ErrorData> {
        self.shared
            .edge
            .port()
            .job_status(job_id, options.owner.as_ref())
            .await
            .map_err(|e| match e.code.as_ref() {
                codes::INVALID_REQUEST | "NOT_FOUND" | "INVALID_JOB_ID" => {
                    ErrorData::invalid_params(
                        format!("no task `{job_id}` of this caller (it may have expired)"),
                        None,
                    )
                }
                _ => ErrorData::internal_error(format!("{}: {}", e.code, e.message), None),
            })
    }

    /// A job as a task in `status`: its id, times, time to live and how
    /// often to poll.
    fn task_of(&self, info: &JobInfo, status: TaskStatus) -> Task {
        let updated = info
            .completed_at
            .or(info.started_at)
            .unwrap_or(info.created_at);
        let timing =
            P::Catalogue::tool(&info.tool_name).map_or(crate::ToolTiming::AsyncLong, |t| t.timing);
        let mut task = Task::new(
            info.job_id.clone(),
            status,
            crate::time::iso(info.created_at),
            crate::time::iso(updated),
        )
        .with_ttl_ms(
            u64::try_from(self.shared.edge.port().job_ttl().as_millis()).unwrap_or(u64::MAX),
        )
        .with_poll_interval_ms(clock::poll_interval(timing));
        if let (JobState::Running, Some(progress)) = (info.state, info.progress) {
            task = task.with_status_message(format!("{:.0}% done", progress * 100.0));
        }
        task
    }

    /// The `tools/call` result of a job that ended.
    fn ended_result(&self, info: &JobInfo) -> JsonObject {
        let result = result::from_job(info, P::Catalogue::CONTENT);
        let result = self.enveloped(&info.tool_name, None, result);
        match serde_json::to_value(result) {
            Ok(Json::Object(object)) => object,
            _ => JsonObject::new(),
        }
    }
}

/// The capabilities a call of a `@task_required` tool needs: the tasks
/// extension, as the `requiredCapabilities` of a `-32021` error.
pub(in crate::mcp) fn required() -> rmcp::model::ClientCapabilities {
    serde_json::from_value(json!({ "extensions": { rmcp::model::TASKS_EXTENSION_ID: {} } }))
        .unwrap_or_default()
}

/// The status of a job's task; `waiting` when its handler waits on
/// questions asked inside it.
fn status_of(info: &JobInfo, waiting: bool) -> TaskStatus {
    match info.state {
        JobState::Pending | JobState::Running if waiting => TaskStatus::InputRequired,
        JobState::Pending | JobState::Running => TaskStatus::Working,
        JobState::Cancelled => TaskStatus::Cancelled,
        JobState::Failed if server_failed(info) => TaskStatus::Failed,
        // A tool's error is a completed task whose result says `isError`,
        // as the extension has it: `failed` is for the server's own
        // failures, above.
        JobState::Complete | JobState::Failed => TaskStatus::Completed,
    }
}

/// True when a job failed because the server did (its handler panicked,
/// its answer did not encode, a restart interrupted it): a `failed` task,
/// whose error is JSON-RPC's internal error. Every other failure is the
/// tool's own, which the model may act on, and ends a completed task whose
/// result says `isError`.
fn server_failed(info: &JobInfo) -> bool {
    info.state == JobState::Failed
        && matches!(
            info.error_code.as_deref(),
            Some(codes::INTERNAL | crate::jobs::INTERRUPTED)
        )
}

/// A failed task's error: `-32603` with the job's code and message.
fn internal_error(info: &JobInfo) -> JsonObject {
    let code = info.error_code.as_deref().unwrap_or(codes::INTERNAL);
    let message = info.error.as_deref().unwrap_or("the server failed");
    let error = json!({
        "code": rmcp::model::ErrorCode::INTERNAL_ERROR.0,
        "message": format!("{code}: {message}"),
        "data": {"code": code},
    });
    match error {
        Json::Object(error) => error,
        _ => JsonObject::new(),
    }
}
