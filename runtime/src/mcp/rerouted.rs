//! Answers to the methods the transports reroute (see `reroute`):
//! `tools/list` with each tool's `execution`, task-augmented `tools/call`,
//! and `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`.

use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, CustomRequest, CustomResult, ErrorCode, JsonObject,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde::Deserialize;
use serde_json::{Value, json};

use super::call::{Envelope, Progress, RequestOf, cancelled};
use super::reroute::{self, PREFIX};
use super::tasks::{NewTask, RELATED_TASK, State, TaskError, View};
use super::{McpServer, actions, chunk, jsonrpc, result};
use crate::jobs::JobState;
use crate::{Catalogue, ResponseEnvelope, Service, ToolError, ToolInfo};

/// `params` of `tasks/get`, `tasks/result` and `tasks/cancel`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TaskRef {
    task_id: String,
}

/// `params` of `tasks/list`.
#[derive(Deserialize, Default)]
struct ListParams {
    cursor: Option<String>,
}

/// The `task` of a task-augmented call.
#[derive(Deserialize, Default)]
struct TaskParams {
    /// Milliseconds to keep the task, asked for.
    ttl: Option<u64>,
}

impl<S: Service> McpServer<S> {
    /// Answers a custom request: a rerouted method, or `-32601`.
    pub(super) async fn rerouted(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let Some(method) = request.method.strip_prefix(PREFIX) else {
            // rmcp reads a standard method whose params do not fit its type
            // as a custom one.
            if jsonrpc::is_standard(&request.method) {
                return Err(invalid_params(&format!(
                    "the params do not fit `{}`",
                    request.method
                )));
            }
            return Err(method_not_found(&request.method));
        };
        let revision = context
            .protocol_version()
            .map(|v| v.to_string())
            .unwrap_or_default();
        let tasks = reroute::has_tasks(&revision);
        let params = request.params.unwrap_or_else(|| json!({}));
        let answer = match method {
            "tools/list" => Ok(self.tools_list(tasks)),
            "tools/call" if tasks => self.call_as_task(params, context).await,
            // A peer without tasks gets a plain call: the spec says to
            // ignore a `task` it did not negotiate.
            "tools/call" => self.call_plainly(params, context).await,
            _ if !tasks => Err(method_not_found(method)),
            "tasks/get" => self.task_get(&parse::<TaskRef>(params)?.task_id),
            "tasks/result" => {
                self.task_result(&parse::<TaskRef>(params)?.task_id, &context)
                    .await
            }
            "tasks/list" => self.task_list(parse::<ListParams>(params)?.cursor.as_deref()),
            "tasks/cancel" => self.task_cancel(&parse::<TaskRef>(params)?.task_id).await,
            _ => Err(method_not_found(method)),
        };
        answer.map(CustomResult)
    }

    /// `tools/list`; from 2025-11-25, job-capable tools say they may be
    /// called as tasks.
    fn tools_list(&self, tasks: bool) -> Value {
        let mut tools = serde_json::to_value(&self.schema.tools).unwrap_or_else(|_| json!([]));
        if tasks && let Some(tools) = tools.as_array_mut() {
            for tool in tools.iter_mut() {
                let supported = tool
                    .get("name")
                    .and_then(Value::as_str)
                    .and_then(S::Catalogue::tool)
                    .is_some_and(takes_tasks);
                if supported && let Some(tool) = tool.as_object_mut() {
                    tool.insert("execution".into(), json!({ "taskSupport": "optional" }));
                }
            }
        }
        json!({ "tools": tools })
    }

    /// A `tools/call` whose `task` is not negotiated: answered as any call.
    async fn call_plainly(
        &self,
        params: Value,
        context: RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let request = parse::<CallToolRequestParams>(params)?;
        let result = self.call_tool_params(request, context).await?;
        serde_json::to_value(result).map_err(internal)
    }

    /// A task-augmented `tools/call`: the task, at once.
    async fn call_as_task(
        &self,
        params: Value,
        context: RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let task: TaskParams = params
            .get("task")
            .map(|t| serde_json::from_value(t.clone()))
            .transpose()
            .map_err(|e| invalid_params(&format!("`task`: {e}")))?
            .unwrap_or_default();
        let request = parse::<CallToolRequestParams>(params)?;
        let Some(tool) = S::Catalogue::tool(&request.name) else {
            return Err(super::handler::unknown_tool(&request.name));
        };
        if !takes_tasks(tool) {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "`{}` is not called as a task (its execution.taskSupport is forbidden); \
                     call it without `task`",
                    tool.name
                ),
                None,
            ));
        }
        let ttl = self.task_ttl(task.ttl);
        let progress = request
            .meta
            .as_ref()
            .and_then(|m| m.get_progress_token())
            .map(|token| Progress::new(token, context.peer.clone()));
        let args = request.arguments.unwrap_or_default();
        let new = self.start(tool, &args, ttl, progress).await;
        let view = self.tasks.create(new.task).map_err(task_error)?;
        if let Some(stream) = new.stream {
            self.follow_task(view.task_id.to_string(), stream);
        }
        Ok(json!({ "task": view.to_json(None) }))
    }

    /// Starts a call as a task: a job followed in the background, or an
    /// answer that is already there.
    async fn start(
        &self,
        tool: &'static ToolInfo,
        args: &JsonObject,
        ttl: Duration,
        progress: Option<Progress>,
    ) -> Started<S> {
        let over = |result: CallToolResult, timing| Started {
            task: NewTask {
                job_id: None,
                tool: tool.name,
                timing,
                ttl,
                finished: Some(result),
            },
            stream: None,
        };
        if !tool.actions.is_empty()
            && let actions::Route::Answer(result) = actions::route(tool, &self.schema, args)
        {
            return over(result, tool.timing);
        }
        let request: RequestOf<S> = match self.decode(tool, args).await {
            Ok(request) => request,
            Err(refused) => return over(refused, tool.timing),
        };
        let info = S::Catalogue::call_info(&request);
        if !info.timing.is_job() {
            // A `sync` action of an action tool: over before the answer.
            let envelope = self.dispatcher.call(request).await;
            return over(result::from_envelope(envelope), info.timing);
        }
        let mut stream = self.dispatcher.call_streaming(request).await;
        match stream.recv().await {
            Some(ResponseEnvelope::StreamStart { job_id, .. }) => Started {
                task: NewTask {
                    job_id: Some(job_id),
                    tool: tool.name,
                    timing: info.timing,
                    ttl,
                    finished: None,
                },
                stream: Some(Followed { stream, progress }),
            },
            // Refused before it started (shutting down): its one answer.
            Some(envelope) => over(result::from_envelope(envelope), info.timing),
            None => over(
                result::error(&ToolError::internal("the job ended without an answer")),
                info.timing,
            ),
        }
    }

    /// Follows a task's job to its end in the background: chunks go to the
    /// caller's progress token, the answer to the task.
    fn follow_task(&self, task_id: String, followed: Followed<S>) {
        let server = self.clone();
        let Followed {
            mut stream,
            mut progress,
        } = followed;
        tokio::spawn(async move {
            let result = loop {
                match stream.recv().await {
                    Some(ResponseEnvelope::StreamChunk { chunk, .. }) => {
                        if let Some(progress) = &mut progress {
                            progress.send(chunk::text(&chunk)).await;
                        }
                    }
                    Some(
                        ResponseEnvelope::StreamStart { .. } | ResponseEnvelope::StreamEnd { .. },
                    ) => {}
                    Some(envelope) => break result::from_envelope(envelope),
                    // The stream closed without an answer: the store has it.
                    None => break server.stored_result(&task_id),
                }
            };
            server.tasks.finish(&task_id, result);
        });
    }

    /// A finished job's answer from the job store.
    fn stored_result(&self, job_id: &str) -> CallToolResult {
        match self.dispatcher.jobs().status(job_id) {
            Ok(info) => match (info.result, info.error_code) {
                (Some(response), _) => result::success(&response),
                (None, Some(code)) => {
                    result::error(&ToolError::new(code, info.error.unwrap_or_default()))
                }
                (None, None) => {
                    result::error(&ToolError::internal("the job ended without an answer"))
                }
            },
            Err(e) => result::error(&ToolError::internal(e.to_string())),
        }
    }

    /// The time-to-live granted for a requested one: at most the job
    /// store's, which keeps the job as long.
    fn task_ttl(&self, requested: Option<u64>) -> Duration {
        let most = self.dispatcher.config().job_ttl;
        requested.map_or(most, |ms| Duration::from_millis(ms).min(most))
    }

    fn task_get(&self, task_id: &str) -> Result<Value, ErrorData> {
        let view = self.tasks.get(task_id).map_err(task_error)?;
        Ok(view.to_json(self.job_message(&view)))
    }

    /// How a working job stands, from the job store: queued, or how far.
    fn job_message(&self, view: &View) -> Option<String> {
        if !view.job || !matches!(view.state, State::Working) {
            return None;
        }
        let info = self.dispatcher.jobs().status(&view.task_id).ok()?;
        match (info.state, info.progress) {
            (JobState::Pending, _) => Some(format!("`{}` is queued", view.tool)),
            (_, Some(p)) => Some(format!("`{}` is {:.0}% done", view.tool, p * 100.0)),
            _ => Some(format!("`{}` is running", view.tool)),
        }
    }

    /// `tasks/result`: waits for the task to end, then its call's result.
    async fn task_result(
        &self,
        task_id: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let mut ended = self.tasks.ended(task_id).map_err(task_error)?;
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
        let view = self.tasks.get(task_id).map_err(task_error)?;
        let result = match &view.state {
            State::Finished { result, .. } => (**result).clone(),
            State::Cancelled => result::error(&cancelled(view.tool)),
            State::Working => result::error(&ToolError::internal("the task has not ended")),
        };
        let mut value = serde_json::to_value(result).map_err(internal)?;
        if let Some(object) = value.as_object_mut() {
            let meta = object.entry("_meta").or_insert_with(|| json!({}));
            if let Some(meta) = meta.as_object_mut() {
                meta.insert(RELATED_TASK.into(), json!({ "taskId": task_id }));
            }
        }
        Ok(value)
    }

    fn task_list(&self, cursor: Option<&str>) -> Result<Value, ErrorData> {
        let (views, next) = self.tasks.list(cursor).map_err(task_error)?;
        let tasks: Vec<Value> = views
            .iter()
            .map(|v| v.to_json(self.job_message(v)))
            .collect();
        let mut answer = json!({ "tasks": tasks });
        if let Some(next) = next {
            answer["nextCursor"] = Value::String(next);
        }
        Ok(answer)
    }

    /// `tasks/cancel`: the task is cancelled at once and its job stopped.
    async fn task_cancel(&self, task_id: &str) -> Result<Value, ErrorData> {
        let view = self.tasks.cancel(task_id).map_err(task_error)?;
        if view.job {
            // Returns when the handler has stopped or its grace has run out;
            // a job that ended meanwhile is left as it is.
            let _ = self.dispatcher.jobs().cancel(task_id).await;
        }
        Ok(view.to_json(None))
    }
}

/// A call started as a task.
struct Started<S: Service> {
    task: NewTask,
    stream: Option<Followed<S>>,
}

/// A started job's stream and where its chunks go.
struct Followed<S: Service> {
    stream: tokio::sync::mpsc::UnboundedReceiver<Envelope<S>>,
    progress: Option<Progress>,
}

/// Whether a tool may be called as a task: a tool of the catalogue (not a
/// job tool) that runs, or has an action that runs, as a job.
pub(super) fn takes_tasks(tool: &ToolInfo) -> bool {
    !tool.builtin && (tool.timing.is_job() || tool.actions.iter().any(|a| a.timing.is_job()))
}

fn parse<T: for<'de> Deserialize<'de>>(params: Value) -> Result<T, ErrorData> {
    serde_json::from_value(params).map_err(|e| invalid_params(&format!("bad params: {e}")))
}

fn invalid_params(message: &str) -> ErrorData {
    ErrorData::invalid_params(message.to_owned(), None)
}

fn internal(e: serde_json::Error) -> ErrorData {
    ErrorData::internal_error(format!("cannot encode the answer: {e}"), None)
}

fn method_not_found(method: &str) -> ErrorData {
    let shown: String = method.chars().take(64).collect();
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!("no method `{shown}` in the negotiated protocol revision"),
        None,
    )
}

fn task_error(e: TaskError) -> ErrorData {
    match e {
        TaskError::NotFound => invalid_params(
            "no task of this session has that id (it may have expired); tasks/list gives them",
        ),
        TaskError::Terminal(status) => invalid_params(&format!(
            "the task is already {status} and cannot be cancelled"
        )),
        TaskError::Full => ErrorData::internal_error(
            "this session has as many working tasks as it may hold; wait for some to end",
            None,
        ),
        TaskError::BadCursor => invalid_params("the cursor is not one tasks/list gave"),
    }
}
