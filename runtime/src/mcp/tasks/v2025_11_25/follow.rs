//! Following a task: `tasks/get`, `tasks/result`, `tasks/list` and
//! `tasks/cancel`, each answered from the session's tasks and, for a task
//! that is a job, from the job store.

use rmcp::model::{CallToolResult, ErrorCode};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value, json};

use super::rpc_errors::{internal, task_error};
use super::store::{RELATED_TASK, State, TaskError, View};
use crate::jobs::JobState;
use crate::mcp::server::McpServer;
use crate::mcp::tools::call::cancelled;
use crate::mcp::tools::result;
use crate::port::CallPort;
use crate::{Catalogue, ToolError};

impl<P: CallPort> McpServer<P> {
    pub(super) async fn task_get(&self, task_id: &str) -> Result<Value, ErrorData> {
        let view = self.session.tasks.get(task_id).map_err(task_error)?;
        Ok(view.to_json(self.job_message(&view).await))
    }

    /// How a working job stands, from the job store: queued, or how far.
    pub(super) async fn job_message(&self, view: &View) -> Option<String> {
        if !view.job || !matches!(view.state, State::Working) {
            return None;
        }
        let info = self
            .shared
            .edge
            .port()
            .job_status(&view.task_id, None)
            .await
            .ok()?;
        match (info.state, info.progress) {
            (JobState::Pending, _) => Some(format!("`{}` is queued", view.tool)),
            (_, Some(p)) => Some(format!("`{}` is {:.0}% done", view.tool, p * 100.0)),
            _ => Some(format!("`{}` is running", view.tool)),
        }
    }

    /// `tasks/result`: waits for the task to end, then its call's result.
    pub(super) async fn task_result(
        &self,
        task_id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let mut ended = self.session.tasks.ended(task_id).map_err(task_error)?;
        tokio::select! {
            waited = ended.wait_for(|ended| *ended) => {
                // The sender lives in the task's entry; it is gone only if
                // the entry expired meanwhile.
                waited.map_err(|_| task_error(TaskError::NotFound))?;
            }
            () = context.ct.cancelled() => {
                return Err(ErrorData::new(ErrorCode::INTERNAL_ERROR, "the request was cancelled", None));
            }
        }
        let view = self.session.tasks.get(task_id).map_err(task_error)?;
        let result = match &view.state {
            State::Finished { result, .. } => (**result).clone(),
            State::Cancelled => result::error(&cancelled(view.tool)),
            State::Working => result::error(&ToolError::internal("the task has not ended")),
        };
        let result = self.enveloped(view.tool, None, result);
        let mut value = serde_json::to_value(result).map_err(internal)?;
        if let Some(object) = value.as_object_mut() {
            let meta = object.entry("_meta").or_insert_with(|| json!({}));
            if let Some(meta) = meta.as_object_mut() {
                meta.insert(RELATED_TASK.into(), json!({ "taskId": task_id }));
            }
        }
        Ok(value)
    }

    pub(super) async fn task_list(&self, cursor: Option<&str>) -> Result<Value, ErrorData> {
        let (views, next) = self.session.tasks.list(cursor).map_err(task_error)?;
        let mut tasks = Vec::with_capacity(views.len());
        for view in &views {
            tasks.push(view.to_json(self.job_message(view).await));
        }
        let mut answer = json!({ "tasks": tasks });
        if let Some(next) = next {
            answer["nextCursor"] = Value::String(next);
        }
        Ok(answer)
    }

    /// `tasks/cancel`: the task is cancelled at once and its job stopped.
    /// Its answer is the cancelled task, so no status notification follows.
    pub(super) async fn task_cancel(
        &self,
        task_id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let view = self.session.tasks.cancel(task_id).map_err(task_error)?;
        #[cfg(feature = "redis")]
        self.share_task(context, &view).await;
        #[cfg(not(feature = "redis"))]
        let _ = context;
        if view.job {
            // Returns when the handler has stopped or its grace has run out;
            // a job that ended meanwhile is left as it is.
            let _ = self.shared.edge.port().job_cancel(task_id, None).await;
        }
        Ok(view.to_json(None))
    }

    /// A finished job's answer from the job store. Asked for no owner:
    /// the session's task list is what says the task is this caller's.
    pub(super) async fn stored_result(&self, job_id: &str) -> CallToolResult {
        match self.shared.edge.port().job_status(job_id, None).await {
            Ok(info) => result::from_job(&info, P::Catalogue::CONTENT),
            Err(e) => result::error(&e),
        }
    }
}
