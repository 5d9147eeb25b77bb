//! Progressive discovery ([`McpServer::progressive`]): a session's
//! `tools/list` starts from three tools that find the others —
//! `search_tools`, `describe_tools` and `select_toolsets`; describing a
//! tool or enabling its toolset adds it to that session's list, with
//! `notifications/tools/list_changed`, and the job tools join the list
//! with the first tool listed that may answer with a job. Mounted
//! servers' tools are always listed; `search_tools` finds them too and
//! `describe_tools` describes them. Every served
//! tool can be called whether it is listed or not, so a client that keeps
//! no session (2026-07-28 over HTTP) calls what `describe_tools` showed it.
//!
//! [`McpServer::progressive`]: super::McpServer::progressive

mod search;
pub(super) mod view;

use rmcp::RoleServer;
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::edge::JsonObject;
use crate::mcp::server::McpServer;
use crate::mcp::tools::{result, toolsets};
use crate::port::CallPort;
use crate::{Catalogue, ToolError};
use view::{Discovery, ListenerSet, View};

/// `search_tools`' arguments.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Search {
    query: String,
    toolset: Option<String>,
    limit: Option<u64>,
}

/// `describe_tools`' arguments.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Describe {
    names: Vec<String>,
}

/// `select_toolsets`' arguments.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Select {
    #[serde(default)]
    enable: Vec<String>,
    #[serde(default)]
    disable: Vec<String>,
}

/// `describe_tools` takes at most this many names, and `search_tools`
/// gives at most this many matches.
const MAX_NAMES: usize = 20;
const MAX_LIMIT: u64 = 50;
const DEFAULT_LIMIT: u64 = 10;

impl<P: CallPort> McpServer<P> {
    /// Answers a call of a discovery tool (see [`McpServer::discovers`]).
    pub(in crate::mcp) async fn discover(
        &self,
        name: &str,
        args: Option<JsonObject>,
        context: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let args = Value::Object(args.unwrap_or_default());
        let (answer, changed) = match (name, self.shared.discovery.as_deref()) {
            ("search_tools", Some(discovery)) => (self.search(discovery, args), false),
            ("describe_tools", _) => self.describe(args),
            ("select_toolsets", _) => self.select(args),
            _ => {
                let e = ToolError::internal(format!("`{name}` is not a discovery tool"));
                return result::error(&e);
            }
        };
        if changed {
            self.tools_changed(context).await;
        }
        match answer {
            Ok(value) => result::structured(value),
            Err(e) => result::error(&e),
        }
    }

    /// Tells the client its tool list changed: `notifications/tools/
    /// list_changed` on the session up to 2025-11-25, and on each
    /// `subscriptions/listen` stream that asked for it from 2026-07-28. A
    /// client that cannot be told (it keeps no session) still calls what
    /// `describe_tools` gave it, so a failed send is not an error.
    async fn tools_changed(&self, context: &RequestContext<RoleServer>) {
        let revision = context.protocol_version().map(|v| v.to_string());
        if revision.is_none_or(|r| !crate::mcp::revision::Revision::TASKS.is_before(&r)) {
            let _ = context.peer.notify_tool_list_changed().await;
        }
        let sinks = self.listeners().changed();
        for sink in sinks {
            let _ = sink.notify_tool_list_changed().await;
        }
    }

    /// The `subscriptions/listen` streams of this session.
    pub(in crate::mcp) fn listeners(&self) -> std::sync::MutexGuard<'_, ListenerSet> {
        self.session
            .listeners
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn search(&self, discovery: &Discovery, args: Value) -> Result<Value, ToolError> {
        let Search {
            query,
            toolset,
            limit,
        } = parse(args)?;
        let limit = limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ToolError::invalid_request(format!(
                "field `limit`: {limit} is outside 1 to {MAX_LIMIT}"
            )));
        }
        if let Some(toolset) = &toolset {
            let known = toolsets::all::<P::Catalogue>(&self.shared.served);
            named(&known, std::slice::from_ref(toolset))?;
        }
        let mut hits: Vec<(u32, Value)> = discovery
            .index
            .search(&query, |tool| {
                self.shared.served.serves(tool)
                    && toolset.as_deref().is_none_or(|t| tool.in_toolset(t))
            })
            .into_iter()
            .map(|(score, tool)| {
                (
                    score,
                    hit(tool.name, tool.title, tool.description, tool.toolsets),
                )
            })
            .collect();
        // A mounted tool is in no toolset: a search within one leaves
        // them out. The sort is stable, so a tie keeps the catalogue's
        // tools first.
        if toolset.is_none() {
            hits.extend(self.mounted_hits(&query));
            hits.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
        }
        let shown = usize::try_from(limit).unwrap_or(usize::MAX).min(hits.len());
        let more = hits.len() - shown;
        let tools: Vec<Value> = hits.into_iter().take(shown).map(|(_, hit)| hit).collect();
        Ok(json!({ "tools": tools, "more": more }))
    }

    /// The mounted tools that match `query`, each with its score.
    fn mounted_hits(&self, query: &str) -> Vec<(u32, Value)> {
        #[cfg(feature = "mount")]
        return self
            .mounted_tools()
            .iter()
            .filter_map(|tool| {
                let description = tool.description.as_deref().unwrap_or_default();
                let title = tool.title.as_deref();
                let score = search::score_plain(query, &tool.name, title, description);
                (score > 0).then(|| (score, hit(&tool.name, title, description, &[])))
            })
            .collect();
        #[cfg(not(feature = "mount"))]
        {
            let _ = query;
            Vec::new()
        }
    }

    fn describe(&self, args: Value) -> (Result<Value, ToolError>, bool) {
        let names = match parse::<Describe>(args) {
            Ok(Describe { names }) => names,
            Err(e) => return (Err(e), false),
        };
        if names.is_empty() || names.len() > MAX_NAMES {
            let e = ToolError::invalid_request(format!(
                "field `names`: give 1 to {MAX_NAMES} tool names, not {}",
                names.len()
            ));
            return (Err(e), false);
        }
        let definitions: Vec<Option<Value>> = names.iter().map(|n| self.described(n)).collect();
        let unknown: Vec<&str> = names
            .iter()
            .zip(&definitions)
            .filter(|(_, definition)| definition.is_none())
            .map(|(name, _)| name.as_str())
            .collect();
        if !unknown.is_empty() {
            let e = ToolError::new(
                "UNKNOWN_TOOL",
                format!(
                    "no tool is named {}; search_tools finds tools by what they do",
                    quoted(&unknown)
                ),
            )
            .with_details(json!({ "unknown": unknown }));
            return (Err(e), false);
        }
        let mut view = self
            .session
            .view
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut changed = false;
        let mut tools = Vec::with_capacity(names.len());
        for (name, definition) in names.iter().zip(definitions) {
            if let Some(tool) = self.served_tool(name)
                && !tool.builtin
                && !view.shows(tool)
            {
                view.described.insert(tool.name);
                changed = true;
            }
            tools.extend(definition);
        }
        (Ok(json!({ "tools": tools })), changed)
    }

    fn select(&self, args: Value) -> (Result<Value, ToolError>, bool) {
        let Select { enable, disable } = match parse(args) {
            Ok(select) => select,
            Err(e) => return (Err(e), false),
        };
        let known = toolsets::all::<P::Catalogue>(&self.shared.served);
        let (enable, disable) = match (named(&known, &enable), named(&known, &disable)) {
            (Ok(enable), Ok(disable)) => (enable, disable),
            (Err(e), _) | (_, Err(e)) => return (Err(e), false),
        };
        let mut view = self
            .session
            .view
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let before: Vec<bool> = self.listed_flags(&view);
        for name in disable {
            view.enabled.remove(name);
        }
        view.enabled.extend(enable);
        let changed = before != self.listed_flags(&view);
        let toolsets: Vec<Value> = known
            .iter()
            .map(|t| json!({ "name": t.name, "tools": t.tools, "enabled": view.enabled.contains(t.name) }))
            .collect();
        (Ok(json!({ "toolsets": toolsets })), changed)
    }

    /// Which of the catalogue's tools `view` lists, to tell whether a
    /// selection changed the list.
    fn listed_flags(&self, view: &View) -> Vec<bool> {
        <P::Catalogue as Catalogue>::TOOLS
            .iter()
            .map(|t| !t.builtin && self.shared.served.serves(t) && view.shows(t))
            .collect()
    }
}

/// The names in `names`, each as one of the `known` toolsets, or an
/// `UNKNOWN_TOOLSET` error naming those it lacks and the toolsets there are.
fn named(known: &[toolsets::Toolset], names: &[String]) -> Result<Vec<&'static str>, ToolError> {
    let mut found = Vec::with_capacity(names.len());
    let mut unknown = Vec::new();
    for name in names {
        match known.iter().find(|t| t.name == name) {
            Some(t) => found.push(t.name),
            None => unknown.push(name.as_str()),
        }
    }
    if unknown.is_empty() {
        return Ok(found);
    }
    let names: Vec<&str> = known.iter().map(|t| t.name).collect();
    Err(ToolError::new(
        "UNKNOWN_TOOLSET",
        format!(
            "no toolset is named {}; the toolsets are {}",
            quoted(&unknown),
            names.join(", ")
        ),
    )
    .with_details(json!({ "unknown": unknown, "toolsets": names })))
}

/// Reads a discovery tool's arguments; a wrong one is `INVALID_REQUEST`.
fn parse<T: for<'de> Deserialize<'de>>(args: Value) -> Result<T, ToolError> {
    serde_json::from_value(args).map_err(|e| ToolError::invalid_request(e.to_string()))
}

/// One tool as `search_tools` gives it.
fn hit(name: &str, title: Option<&str>, description: &str, toolsets: &[&str]) -> Value {
    let mut hit = json!({
        "name": name,
        "summary": search::summary(description),
        "toolsets": toolsets,
    });
    if let Some(title) = title {
        hit["title"] = json!(title);
    }
    hit
}

/// "`a`", "`a`, `b`".
fn quoted(names: &[&str]) -> String {
    let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    names.join(", ")
}
