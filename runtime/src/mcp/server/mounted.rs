//! The mounted servers' tools, resources and prompts on MCP: listed after
//! the catalogue's, called, read and completed through [`Mounts`], and a
//! `list_changed` to each session when a mount comes or goes.

use rmcp::model::{
    CallToolRequestParams, CallToolResult, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResult, JsonObject, ReadResourceResult, Reference, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, RoleServer};

use super::McpServer;
use super::entries::EntryList;
use crate::mcp::tools::result;
use crate::mount::{Mounts, Proxied};
use crate::port::CallPort;
use crate::{Catalogue, Json};

/// How often a session's mount follower checks that its session lasts.
const SESSION_CHECK: std::time::Duration = std::time::Duration::from_secs(30);

impl<P: CallPort> McpServer<P> {
    /// The mounted servers, when there are any.
    pub(super) fn mounts(&self) -> Option<&Mounts> {
        let mounts = self.shared.edge.mounts();
        (!mounts.is_empty()).then_some(mounts)
    }

    /// The scopes the mounted tool `name` needs.
    pub(super) fn mounted_scopes(&self, name: &str) -> Vec<&str> {
        self.mounts().map_or_else(Vec::new, |m| {
            m.scopes_of(name).iter().map(String::as_str).collect()
        })
    }

    /// The tools of the mounts that answer, but for one named as a
    /// catalogue's or a discovery tool (which is served instead).
    pub(in crate::mcp) fn mounted_tools(&self) -> Vec<Tool> {
        let Some(mounts) = self.mounts() else {
            return Vec::new();
        };
        let mut tools = mounts.tools();
        tools.retain(|t| self.mounted_name(&t.name));
        tools
    }

    /// True when `name` is free for a mounted tool: no tool of the
    /// catalogue or of discovery has it.
    fn mounted_name(&self, name: &str) -> bool {
        P::Catalogue::tool(name).is_none() && !self.discovers(name)
    }

    /// A mounted tool's `tools/list` entry.
    pub(in crate::mcp) fn mounted_tool(&self, name: &str) -> Option<Tool> {
        self.mounted_tools().into_iter().find(|t| t.name == name)
    }

    /// The mounted entries of one list.
    pub(super) fn mounted_entries(&self, list: EntryList) -> Vec<JsonObject> {
        let Some(mounts) = self.mounts() else {
            return Vec::new();
        };
        let mut items = Vec::new();
        for (_, listing) in mounts.listings() {
            let listed = match list {
                EntryList::Resources => &listing.resources,
                EntryList::Templates => &listing.templates,
                EntryList::Prompts => &listing.prompts,
            };
            items.extend(listed.iter().cloned());
        }
        items
    }

    /// Calls a mounted tool: `None` when no mount serves `name`. Its
    /// result passes through as the mounted server gave it; a JSON-RPC
    /// error is this call's; a mount that is not connected answers the
    /// tool error `UNAVAILABLE`. The call is reported to the events with
    /// `source: "mcp"`.
    pub(super) async fn call_mounted(
        &self,
        request: &mut CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<CallToolResult, ErrorData>> {
        let mounts = self.mounts()?;
        let name = request.name.as_ref();
        if !self.mounted_name(name) || !mounts.routes_tool(name) {
            return None;
        }
        let arguments = request.arguments.take();
        let owner = self.owner_of(&context.extensions);
        let principal = super::owner::principal_of(&context.extensions);
        let events = self.shared.edge.port().events();
        let trace = events.start_mounted(
            name,
            || Json::Object(arguments.clone().unwrap_or_default()),
            owner.as_ref(),
        );
        let called = mounts
            .call_tool(name, arguments, principal.as_deref())
            .await?;
        if let Some(trace) = trace {
            trace.end_mounted(match &called {
                Ok(result) => crate::client::tool_outcome(result.clone()),
                Err(Proxied::Refused(error)) => {
                    Err(Proxied::Refused(error.clone()).into_tool_error())
                }
                Err(Proxied::Unavailable(message)) => {
                    Err(Proxied::Unavailable(message.clone()).into_tool_error())
                }
                Err(Proxied::Failed(error)) => Err(crate::ToolError::new(
                    crate::client::codes::TRANSPORT,
                    error.to_string(),
                )),
                Err(Proxied::Forbidden(error)) => Err(error.clone()),
            });
        }
        Some(match called {
            Ok(result) => Ok(result),
            Err(Proxied::Refused(error)) => Err(error),
            Err(other) => Ok(result::error(&other.into_tool_error())),
        })
    }

    /// Reads a mounted resource: `None` when its URI is no mount's.
    pub(super) async fn read_mounted(
        &self,
        uri: &str,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<ReadResourceResult, ErrorData>> {
        let principal = super::owner::principal_of(&context.extensions);
        let read = self.mounts()?.read(uri, principal.as_deref()).await?;
        Some(read.map_err(|e| proxied_error(e, "uri", uri)))
    }

    /// Gets a mounted prompt: `None` when no mount serves `name`.
    pub(super) async fn prompt_mounted(
        &self,
        request: &mut GetPromptRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<GetPromptResult, ErrorData>> {
        let mounts = self.mounts()?;
        let principal = super::owner::principal_of(&context.extensions);
        let got = mounts
            .prompt(
                &request.name,
                request.arguments.take(),
                principal.as_deref(),
            )
            .await?;
        Some(got.map_err(|e| proxied_error(e, "name", &request.name)))
    }

    /// Completes an argument of a mounted prompt or template: `None` when
    /// the reference is no mount's.
    pub(super) async fn complete_mounted(
        &self,
        request: CompleteRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<CompleteResult, ErrorData>> {
        let shown = match &request.r#ref {
            Reference::Prompt(prompt) => prompt.name.clone(),
            Reference::Resource(template) => template.uri.clone(),
            _ => return None,
        };
        let principal = super::owner::principal_of(&context.extensions);
        let completed = self
            .mounts()?
            .complete(request, principal.as_deref())
            .await?;
        Some(completed.map_err(|e| proxied_error(e, "ref", &shown)))
    }

    /// Tells the session of `context` that the tools (and resources and
    /// prompts) listed changed whenever a mount comes, goes or re-lists,
    /// for as long as the session lasts.
    pub(super) fn follow_mounts(&self, context: &NotificationContext<RoleServer>) {
        let Some(mounts) = self.mounts() else {
            return;
        };
        let mut changes = mounts.changes();
        changes.mark_unchanged();
        let peer = context.peer.clone();
        let has_entries = self.declares_entries();
        tokio::spawn(async move {
            loop {
                // A session that ended while nothing changed is noticed
                // within a check's interval, so its task does not linger.
                tokio::select! {
                    changed = changes.changed() => if changed.is_err() { break },
                    () = tokio::time::sleep(SESSION_CHECK) => {
                        if peer.is_transport_closed() { break }
                        continue;
                    }
                }
                if peer.is_transport_closed() || peer.notify_tool_list_changed().await.is_err() {
                    break;
                }
                if has_entries {
                    let _ = peer.notify_resource_list_changed().await;
                    let _ = peer.notify_prompt_list_changed().await;
                }
            }
        });
    }

    /// True when the server declares resources and prompts (with mounts,
    /// always: what a mount lists is not known until it answers).
    fn declares_entries(&self) -> bool {
        self.mounts().is_some()
    }
}

/// A proxied entry request's error as this request's: the mounted
/// server's JSON-RPC error as it is, anything else as a catalogue entry's
/// error of its code.
pub(super) fn proxied_error(error: Proxied, key: &str, value: &str) -> ErrorData {
    match error {
        Proxied::Refused(error) => error,
        other => crate::mcp::entries::answer::error(other.into_tool_error(), key, value),
    }
}
