//! The rmcp `ServerHandler`: `initialize`, `tools/list` and `tools/call`,
//! and the resource, prompt and completion methods (`entries.rs`).

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::SubscriptionFilter;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CancelTaskParams,
    CompleteRequestParams, CompleteResult, CustomRequest, CustomResult, GetPromptRequestParams,
    GetPromptResponse, GetTaskParams, GetTaskResult, Implementation, ListPromptsResult,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig, SubscribeRequestParams, Tool, UnsubscribeRequestParams, UpdateTaskParams,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::json;

use super::McpServer;
use super::entries::EntryList;
use crate::caller::LogLevel;
use crate::edge::Prepared;
use crate::mcp::talk_back::seal;
use crate::mcp::tasks::v2026_07_28::questions::InTask;
use crate::mcp::tasks::v2026_07_28::{self as task_extension, StartedJob};
use crate::mcp::tools::result;
use crate::port::CallPort;

/// What `initialize` tells the client about calling the tools.
const INSTRUCTIONS: &str = "Tools answer as their timing class says. A call that runs on as a \
job answers with {job_id, tool, expected_timing}: wait for its result with job_poll, check it \
with job_status, stop it with job_cancel. Action tools take an `action` argument; \
action `help` describes them and action `schema` gives each action's schemas. On MCP \
2025-11-25, tools whose execution.taskSupport is optional may also be called as tasks.";

/// What a progressive server's `initialize` adds: how to find the tools
/// its list does not show yet.
const PROGRESSIVE: &str = " Only a few tools are listed at first: find the others with search_tools, read their schemas with describe_tools (which also lists them), or list whole toolsets with select_toolsets. Any tool can be called by name once you know its schema.";

impl<P: CallPort> ServerHandler for McpServer<P> {
    fn get_info(&self) -> ServerConfig {
        self.shared.info.get_or_init(|| self.info()).clone()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28))
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        let page = self.tools_page(cursor, &context)?;
        Ok(ListToolsResult::with_all_items(page.tools)
            .with_ttl_ms(page.ttl_ms)
            .with_cache_scope(page.scope))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.entry_list(EntryList::Resources, request, &context)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.entry_list(EntryList::Templates, request, &context)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        Box::pin(self.read(request, context)).await.map(Into::into)
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        self.entry_list(EntryList::Prompts, request, &context)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        Box::pin(self.prompt(request, context))
            .await
            .map(Into::into)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        Box::pin(self.complete_argument(request, context)).await
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        let tool = self.definition(name).cloned();
        #[cfg(feature = "mount")]
        let tool = tool.or_else(|| self.mounted_tool(name));
        tool
    }

    #[cfg(feature = "mount")]
    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        self.follow_mounts(&context);
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // rmcp spawns each request as one future as large as the largest
        // of this trait's methods, and tokio copies a task's future whole
        // on spawn and again when it ends. Inline, a call (talk-back, the
        // task machinery, the port's own future) made every request's
        // task kilobytes large; each method that awaits the port or a
        // task store is boxed, so the task holds a pointer (BENCHMARKS.md).
        #[cfg(feature = "otel")]
        let span = super::traced::span(&request, &context);
        let answer = Box::pin(self.answer_call(request, context));
        #[cfg(feature = "otel")]
        let answer = tracing::Instrument::instrument(answer, span.clone());
        let answered = answer.await;
        #[cfg(feature = "otel")]
        super::traced::record(&span, &answered);
        answered
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        Box::pin(self.extension_task_get(request, &context)).await
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Box::pin(self.extension_task_update(request, &context)).await
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Box::pin(self.extension_task_cancel(request, &context)).await
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        // What a 2026-07-28 client may listen for: the list changes of a
        // progressive session or of mounted servers' coming and going, and
        // the updates of subscribable resources.
        if self.shared.discovery.is_some() {
            self.listeners().accepted();
        }
        let lists_change = self.shared.discovery.is_some() || self.has_mounts();
        let mut accepted = if lists_change {
            SubscriptionFilter::builder().tools_list_changed().build()
        } else {
            SubscriptionFilter::new()
        };
        let uris = self.followable(requested.resource_subscriptions.as_ref());
        if !uris.is_empty() {
            accepted.resource_subscriptions = Some(uris);
        }
        // A server with something to listen for accepts every listen
        // stream, with what of the request it can honour (maybe nothing);
        // one without answers `-32601`.
        let listenable = lists_change || self.offers_subscriptions();
        listenable.then_some(accepted)
    }

    async fn listen(&self, subscription: SubscriptionContext) -> Result<(), ErrorData> {
        use tokio::sync::broadcast::error::RecvError;
        let sink = subscription.sink().clone();
        let lists = subscription.accepted().tools_list_changed == Some(true);
        if lists && self.listeners().open(sink.clone()) {
            let _ = sink.notify_tool_list_changed().await;
        }
        // Resources the caller lacks the scopes of are not followed.
        let context = subscription.request_context();
        let uris: Vec<String> = subscription
            .accepted()
            .resource_subscriptions
            .iter()
            .flatten()
            .filter(|uri| self.may_follow(uri, context).is_ok())
            .cloned()
            .collect();
        // `followable` accepted no URI when the port hears no update.
        let mut updates = (!uris.is_empty())
            .then(|| self.port().resource_updates())
            .flatten();
        let accepted = subscription.accepted().resource_subscriptions.as_deref();
        let mut mounted =
            Box::pin(self.follow_mounted(accepted.unwrap_or_default(), context)).await;
        let mut mounts = self.mount_changes(lists);
        loop {
            tokio::select! {
                () = subscription.cancelled() => break,
                update = next_update(&mut updates) => match update {
                    Ok(uri) if uris.iter().any(|u| **u == *uri) => {
                        if sink.notify_resource_updated(uri.to_string()).await.is_err() {
                            break;
                        }
                    }
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => updates = None,
                },
                update = next_update(&mut mounted.updates) => match update {
                    Ok(uri) if mounted.uris.iter().any(|u| **u == *uri) => {
                        if sink.notify_resource_updated(uri.to_string()).await.is_err() {
                            break;
                        }
                    }
                    Ok(_) | Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => mounted.updates = None,
                },
                changed = next_change(&mut mounts) => {
                    if !changed {
                        mounts = None;
                    } else if sink.notify_tool_list_changed().await.is_err() {
                        break;
                    }
                }
            }
        }
        if lists {
            self.listeners().close(&sink);
        }
        Ok(())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Box::pin(self.subscribe_to(request, &context)).await
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.unsubscribe_from(&request)
    }

    #[allow(deprecated)] // see talk_back/told.rs
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let level = serde_json::to_value(request.level)
            .and_then(serde_json::from_value::<LogLevel>)
            .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
        #[cfg(feature = "redis")]
        self.keep_level(&context, level).await?;
        #[cfg(not(feature = "redis"))]
        let _ = context;
        *self
            .session
            .log_level
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(level);
        Ok(())
    }

    #[cfg(feature = "redis")]
    async fn initialize(
        &self,
        request: rmcp::model::InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        self.restore_session(&context).await;
        self.negotiate_initialize(&request)
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Box::pin(self.intercepted(request, context)).await
    }
}

/// The next resource update, or never when nothing is followed.
async fn next_update(
    updates: &mut Option<tokio::sync::broadcast::Receiver<Arc<str>>>,
) -> Result<Arc<str>, tokio::sync::broadcast::error::RecvError> {
    match updates {
        Some(updates) => updates.recv().await,
        None => std::future::pending().await,
    }
}

/// Whether the mounts changed (`false` once they are gone), or never when
/// their changes are not followed.
async fn next_change(mounts: &mut Option<tokio::sync::watch::Receiver<u64>>) -> bool {
    match mounts {
        Some(mounts) => mounts.changed().await.is_ok(),
        None => std::future::pending().await,
    }
}

impl<P: CallPort> McpServer<P> {
    /// The mounts' changes, for a listen stream that follows list changes
    /// (`follow`) on a server with mounts.
    fn mount_changes(&self, follow: bool) -> Option<tokio::sync::watch::Receiver<u64>> {
        #[cfg(feature = "mount")]
        if follow && let Some(mounts) = self.mounts() {
            let mut changes = mounts.changes();
            changes.mark_unchanged();
            return Some(changes);
        }
        let _ = follow;
        None
    }

    /// True when other MCP servers are mounted beside the catalogue.
    pub(super) fn has_mounts(&self) -> bool {
        #[cfg(feature = "mount")]
        return self.mounts().is_some();
        #[cfg(not(feature = "mount"))]
        false
    }

    /// What `get_info` answers: the capabilities this server's catalogue
    /// and options give it, its instructions and its name.
    #[allow(deprecated)] // `logging`: see talk_back/told.rs
    fn info(&self) -> ServerConfig {
        // Handlers may log through their context (`notifications/message`);
        // 2026-07-28 calls that run on as jobs may be tasks (SEP-2663).
        let capabilities = if self.shared.discovery.is_some() {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_logging()
                .enable_tasks()
                .build()
        } else {
            ServerCapabilities::builder()
                .enable_tools()
                .enable_logging()
                .enable_tasks()
                .build()
        };
        let mut capabilities = capabilities;
        // Each kind only when the catalogue has some: rmcp answers the
        // methods of the others `-32601` itself. Mounted servers' lists
        // change as they come and go, and may hold any kind.
        let entries = self.entries();
        let mounts = self.has_mounts();
        if mounts && let Some(tools) = capabilities.tools.as_mut() {
            tools.list_changed = Some(true);
        }
        if entries.has_resources() || mounts {
            let mut resources = rmcp::model::ResourcesCapability::default();
            // A mounted server's resources may be subscribed to whenever
            // there are mounts: whether one can is its server's to say.
            resources.subscribe = (self.offers_subscriptions() || mounts).then_some(true);
            resources.list_changed = mounts.then_some(true);
            capabilities.resources = Some(resources);
        }
        if entries.has_prompts() || mounts {
            let mut prompts = rmcp::model::PromptsCapability::default();
            prompts.list_changed = mounts.then_some(true);
            capabilities.prompts = Some(prompts);
        }
        if entries.completes() || mounts {
            capabilities.completions = Some(rmcp::model::JsonObject::new());
        }
        if entries.has_apps() {
            let (id, settings) = crate::mcp::entries::apps::extension();
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(id.to_owned(), settings);
        }
        let instructions = if self.shared.discovery.is_some() {
            format!("{INSTRUCTIONS}{PROGRESSIVE}")
        } else {
            INSTRUCTIONS.to_owned()
        };
        let mut info = ServerConfig::new(capabilities).with_instructions(instructions);
        info.server_info =
            Implementation::new(self.shared.name.as_ref(), self.shared.version.as_ref());
        // The newest revision `initialize` can negotiate; a 2026-07-28
        // client names its revision on each request instead.
        info.protocol_version = ProtocolVersion::V_2025_11_25;
        info
    }

    /// A `tools/call` of any revision, answered in the envelope when the
    /// server answers in it.
    async fn answer_call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // Only the envelope reads the call's name and arguments once it
        // is answered: a server without it copies neither.
        let enveloped = self
            .shared
            .envelope
            .is_some()
            .then(|| (request.name.clone(), request.arguments.clone()));
        let answered = if context.meta.protocol_version().is_none() {
            // A session on a revision with tasks calls a tool that requires
            // one as a task, which is rerouted before it gets here.
            let revision = context.protocol_version().map(|v| v.to_string());
            if revision
                .as_deref()
                .is_some_and(crate::mcp::tasks::v2025_11_25::intercept::has_tasks)
                && self
                    .served_tool(&request.name)
                    .is_some_and(|t| t.task_required)
            {
                let name = &request.name;
                return Err(ErrorData::new(
                    rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                    format!(
                        "`{name}` must be called as a task (its execution.taskSupport is \
                         required): call it with `task`"
                    ),
                    None,
                ));
            }
            CallToolResponse::Complete(self.call_tool_params(request, context).await?)
        } else {
            self.call_in_rounds(request, context).await?
        };
        Ok(match (answered, enveloped) {
            (CallToolResponse::Complete(result), Some((name, args))) => {
                self.enveloped(&name, args.as_ref(), result).into()
            }
            (answered, _) => answered,
        })
    }

    /// Answers a `tools/call`.
    pub(in crate::mcp) async fn call_tool_params(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        if self.discovers(&request.name) {
            return Ok(self
                .discover(&request.name, request.arguments, &context)
                .await);
        }
        let Some(tool) = self.served_tool(&request.name) else {
            #[cfg(feature = "mount")]
            let mut request = request;
            #[cfg(feature = "mount")]
            if let Some(answer) = Box::pin(self.call_mounted(&mut request, &context)).await {
                return answer;
            }
            let error = crate::error::unknown_tool_in::<P::Catalogue>(&request.name);
            let principal = self.call_options(&context.extensions).principal;
            self.shared
                .edge
                .refused(&request.name, &error, principal.as_deref());
            return Err(unknown_tool(&request.name));
        };
        let mut args = request.arguments.unwrap_or_default();
        let options = self.call_options(&context.extensions);
        let principal = options.principal.as_deref();
        let request = match self.shared.edge.prepare(tool, &mut args, principal) {
            Prepared::Call(request) => request,
            Prepared::Answered(answer) => return Ok(result::from_answer(answer)),
        };
        Ok(self.call(tool, &args, request, options, context).await)
    }

    /// A 2026-07-28 `tools/call`: run with the answers the client has given
    /// (sealed in its `requestState`, and its `inputResponses`), and
    /// answered with the questions the handler asked that have none, if
    /// it asked any (`talk_back/rounds.rs`).
    async fn call_in_rounds(
        &self,
        mut request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let owner = self.owner_of(&context.extensions);
        let arguments = request.arguments.clone().unwrap_or_default();
        let tool = request.name.clone();
        let binding = seal::Binding {
            owner: owner.as_ref().map_or("", |o| o.as_str()),
            tool: &tool,
            arguments: &arguments,
        };
        let given = self.shared.seal.open(
            &binding,
            request.request_state.take().as_deref(),
            request.input_responses.take(),
        )?;
        let given = std::sync::Arc::new(given);
        context.extensions.insert(given.clone());
        // A request that declares the tasks extension is answered with a
        // task when its call runs on as a job.
        let tasks = context
            .client_capabilities()
            .is_some_and(|c| c.supports_tasks());
        if !tasks && self.served_tool(&tool).is_some_and(|t| t.task_required) {
            return Err(ErrorData::missing_required_client_capability(
                task_extension::required(),
            ));
        }
        let started = StartedJob::default();
        let options = if tasks {
            context.extensions.insert(started.clone());
            // A job that asks waits inside its task (`tasks/v2026_07_28/questions.rs`).
            let in_task = Arc::new(InTask::new(self.shared.task_questions.clone()));
            context.extensions.insert(in_task);
            Some(self.call_options(&context.extensions))
        } else {
            None
        };
        let result = self.call_tool_params(request, context).await?;
        if let Some(questions) = self.shared.seal.questions(&binding, &given) {
            return Ok(questions.into());
        }
        if let (Some(job_id), Some(options)) = (started.get(), options) {
            return Ok(self.created_task(job_id, options).await?.into());
        }
        // A call that failed for want of a capability the request did not
        // declare is that protocol error (SEP-2575), not a tool's failure.
        let code = result
            .structured_content
            .as_ref()
            .and_then(|content| content.get("code"));
        if result.is_error == Some(true)
            && code.is_some_and(|code| code == crate::codes::UNSUPPORTED)
            && let Some(missing) = given.missing()
        {
            return Err(ErrorData::missing_required_client_capability(missing));
        }
        Ok(result.into())
    }
}

/// `-32602` for a tool the catalogue does not have: a call that cannot be
/// routed is a protocol error, not a tool result.
pub(in crate::mcp) fn unknown_tool(name: &str) -> ErrorData {
    crate::metrics::unknown_tool();
    let shown: String = name.chars().take(64).collect();
    ErrorData::invalid_params(
        format!("no tool is named `{shown}`; tools/list gives the tools there are"),
        Some(json!({ "tool": shown })),
    )
}
