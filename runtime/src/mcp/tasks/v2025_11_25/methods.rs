//! Answers to the methods the transports reroute (see `intercept`):
//! `tools/list` with each tool's `execution`, task-augmented `tools/call`,
//! and `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`.

use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, CustomNotification, CustomRequest, CustomResult,
    ErrorCode, JsonObject, ServerNotification,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData, RoleServer};
use serde::Deserialize;
use serde_json::{Value, json};

use tokio::task::JoinHandle;

use super::intercept::{self, PREFIX};
use super::rpc_errors::{internal, invalid_params, method_not_found, parse, task_error};
use super::store::NewTask;
use crate::edge::{self, Prepared};
use crate::mcp::server::McpServer;
use crate::mcp::talk_back::progress::Progress;
use crate::mcp::tools::result;
use crate::mcp::transport::jsonrpc;
use crate::port::{
    CallOptions, CallPort, PortEnvelope, StreamEvent, StreamReceiver, stream_channel,
};
use crate::{Catalogue, Json, ResponseEnvelope, ToolError, ToolInfo, ToolTiming};

/// What a task's session is told when the task ends (2025-11-25).
const STATUS_NOTIFICATION: &str = "notifications/tasks/status";

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

impl<P: CallPort> McpServer<P> {
    /// Answers a custom request: a rerouted method, or `-32601`.
    pub(in crate::mcp) async fn intercepted(
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
        let tasks = intercept::has_tasks(&revision);
        let params = request.params.unwrap_or_else(|| json!({}));
        let answer = match method {
            "tools/list" => self.tools_list(&params, tasks, &context),
            "tools/call" if tasks => self.call_as_task(params, context).await,
            // A peer without tasks gets a plain call: the spec says to
            // ignore a `task` it did not negotiate.
            "tools/call" => self.call_plainly(params, context).await,
            _ if !tasks => Err(method_not_found(method)),
            "tasks/get" => self.task_get(&parse::<TaskRef>(params)?.task_id).await,
            "tasks/result" => {
                self.task_result(&parse::<TaskRef>(params)?.task_id, &context)
                    .await
            }
            "tasks/list" => {
                self.task_list(parse::<ListParams>(params)?.cursor.as_deref())
                    .await
            }
            "tasks/cancel" => {
                self.task_cancel(&parse::<TaskRef>(params)?.task_id, &context)
                    .await
            }
            _ => Err(method_not_found(method)),
        };
        answer.map(CustomResult)
    }

    /// `tools/list`; from 2025-11-25, job-capable tools say they may be
    /// called as tasks, and `@task_required` ones that they must be.
    fn tools_list(
        &self,
        params: &Value,
        tasks: bool,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let cursor = match params.get("cursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(cursor)) => Some(cursor.as_str()),
            Some(_) => return Err(invalid_params("`cursor` must be a string")),
        };
        let page = self.tools_page(cursor, context)?;
        let mut tools = serde_json::to_value(page.tools).unwrap_or_else(|_| json!([]));
        if tasks && let Some(tools) = tools.as_array_mut() {
            for tool in tools.iter_mut() {
                let info = tool
                    .get("name")
                    .and_then(Value::as_str)
                    .and_then(P::Catalogue::tool)
                    .filter(|info| takes_tasks(info));
                if let (Some(info), Some(tool)) = (info, tool.as_object_mut()) {
                    let support = if info.task_required {
                        "required"
                    } else {
                        "optional"
                    };
                    tool.insert("execution".into(), json!({ "taskSupport": support }));
                }
            }
        }
        Ok(json!({ "tools": tools, "ttlMs": page.ttl_ms, "cacheScope": page.scope }))
    }

    /// A `tools/call` whose `task` is not negotiated: answered as any call.
    async fn call_plainly(
        &self,
        params: Value,
        context: RequestContext<RoleServer>,
    ) -> Result<Value, ErrorData> {
        let request = parse::<CallToolRequestParams>(params)?;
        let (name, args) = (request.name.clone(), request.arguments.clone());
        let result = self.call_tool_params(request, context).await?;
        let result = self.enveloped(&name, args.as_ref(), result);
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
        let tool = self.served_tool(&request.name);
        if tool.is_none() && !self.discovers(&request.name) {
            return Err(crate::mcp::server::handler::unknown_tool(&request.name));
        }
        let Some(tool) = tool.filter(|t| takes_tasks(t)) else {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "`{}` is not called as a task (its execution.taskSupport is forbidden); \
                     call it without `task`",
                    request.name
                ),
                None,
            ));
        };
        let ttl = self.task_ttl(task.ttl);
        let progress = request
            .meta
            .as_ref()
            .and_then(|m| m.get_progress_token())
            .map(|token| Progress::new(token, context.peer.clone()));
        let mut args = request.arguments.unwrap_or_default();
        let options = self.call_options(&context.extensions);
        let new = self.start(tool, &mut args, options, ttl, progress).await;
        let view = self.session.tasks.create(new.task).map_err(task_error)?;
        #[cfg(feature = "redis")]
        self.share_task(&context, &view).await;
        if let Some(followed) = new.followed {
            self.follow_task(view.task_id.to_string(), followed, context.peer.clone());
        }
        Ok(json!({ "task": view.to_json(None) }))
    }

    /// Starts a call as a task: a job followed in the background, or an
    /// answer that is already there.
    async fn start(
        &self,
        tool: &'static ToolInfo,
        args: &mut JsonObject,
        options: CallOptions,
        ttl: Duration,
        progress: Option<Progress>,
    ) -> Started<P> {
        let over = |result: CallToolResult, timing| Started {
            task: NewTask {
                job_id: None,
                tool: tool.name,
                timing,
                ttl,
                finished: Some(result),
            },
            followed: None,
        };
        let request = match self
            .shared
            .edge
            .prepare(tool, args, options.principal.as_deref())
        {
            Prepared::Call(request) => request,
            Prepared::Answered(answer) => return over(result::from_answer(answer), tool.timing),
        };
        let timing = call_timing(tool, args);
        // The call runs to its end in the background; the task is its job,
        // made when the job starts.
        let (tx, mut stream) = stream_channel();
        let edge = self.shared.edge.clone();
        let options = options.wait_until_done().stream_to(tx);
        let mut call = tokio::spawn(async move { edge.call_port(tool, request, options).await });
        loop {
            match stream.recv().await {
                Some(StreamEvent::Start { job_id, .. }) => {
                    return Started {
                        task: NewTask {
                            job_id: Some(job_id),
                            tool: tool.name,
                            timing,
                            ttl,
                            finished: None,
                        },
                        followed: Some(Followed {
                            call,
                            stream,
                            progress,
                        }),
                    };
                }
                Some(_) => {}
                // The stream closed without a job: the call is over (a
                // `sync` action, a refusal) and this is its answer.
                None => {
                    let result = match (&mut call).await {
                        Ok(envelope) => self.answer(tool, args, envelope),
                        Err(e) => result::error(&ToolError::internal(format!(
                            "the call of `{}` failed: {e}",
                            tool.name
                        ))),
                    };
                    return over(result, timing);
                }
            }
        }
    }

    /// Follows a task's job to its end in the background: chunks go to the
    /// caller's progress token, the answer to the task, and its new status
    /// to the session as `notifications/tasks/status`.
    fn follow_task(&self, task_id: String, followed: Followed<P>, peer: Peer<RoleServer>) {
        let server = self.clone();
        let Followed {
            mut call,
            mut stream,
            mut progress,
        } = followed;
        tokio::spawn(async move {
            let ended = loop {
                tokio::select! {
                    ended = &mut call => break ended,
                    event = stream.recv(), if !stream.is_closed() || !stream.is_empty() => {
                        if let (Some(StreamEvent::Chunk { chunk, .. }), Some(progress)) = (event, &mut progress) {
                            progress.send(edge::chunk_text(&chunk)).await;
                        }
                    }
                }
            };
            while let Ok(event) = stream.try_recv() {
                if let (StreamEvent::Chunk { chunk, .. }, Some(progress)) = (event, &mut progress) {
                    progress.send(edge::chunk_text(&chunk)).await;
                }
            }
            let result = match ended {
                // No longer waited on (the port is shutting down): the job
                // store has the answer.
                Ok(ResponseEnvelope::JobStarted { .. }) => server.stored_result(&task_id).await,
                Ok(envelope) => result::from_envelope(envelope, P::Catalogue::CONTENT),
                Err(e) => result::error(&ToolError::internal(format!("the task failed: {e}"))),
            };
            server.session.tasks.finish(&task_id, result);
            server.tell_status(&task_id, &peer).await;
        });
    }

    /// Sends a task's status to its session (`notifications/tasks/status`,
    /// the task as `tasks/get` gives it), so a client need not poll. A
    /// client that went away, or a task already evicted, is not told.
    pub(super) async fn tell_status(&self, task_id: &str, peer: &Peer<RoleServer>) {
        let Ok(view) = self.session.tasks.get(task_id) else {
            return;
        };
        let status = view.to_json(None);
        let notification = CustomNotification::new(STATUS_NOTIFICATION, Some(status));
        let _ = peer
            .send_notification(ServerNotification::CustomNotification(notification))
            .await;
    }

    /// The time-to-live granted for a requested one: at most the job
    /// store's, which keeps the job as long.
    fn task_ttl(&self, requested: Option<u64>) -> Duration {
        let most = self.shared.edge.port().job_ttl();
        requested.map_or(most, |ms| Duration::from_millis(ms).min(most))
    }
}

/// A call started as a task.
struct Started<P: CallPort> {
    task: NewTask,
    followed: Option<Followed<P>>,
}

/// A started job's call, its stream, and where its chunks go.
struct Followed<P: CallPort> {
    call: JoinHandle<PortEnvelope<P>>,
    stream: StreamReceiver,
    progress: Option<Progress>,
}

/// The timing class a call of `tool` with `args` runs as: its action's, for
/// an action tool.
fn call_timing(tool: &ToolInfo, args: &JsonObject) -> ToolTiming {
    args.get("action")
        .and_then(Json::as_str)
        .and_then(|action| tool.action(action))
        .map_or(tool.timing, |action| action.timing)
}

/// Whether a tool may be called as a task: a tool of the catalogue (not a
/// job tool) that runs, or has an action that runs, as a job.
pub(in crate::mcp) fn takes_tasks(tool: &ToolInfo) -> bool {
    !tool.builtin && (tool.timing.is_job() || tool.actions.iter().any(|a| a.timing.is_job()))
}
