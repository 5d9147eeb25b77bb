//! What discovery keeps: the discovery tools' definitions and search index
//! (one per server), and what each session has found and enabled.

use std::collections::BTreeSet;
use std::sync::Mutex;

use rmcp::model::Tool;
use rmcp::service::SubscriptionSink;

use super::search;
use crate::Catalogue;

/// The definitions of the three discovery tools.
const TOOLS: &str = include_str!("tools.json");

/// The names of the discovery tools, which a progressive server's
/// catalogue cannot also use.
pub(crate) const NAMES: [&str; 3] = ["search_tools", "describe_tools", "select_toolsets"];

/// What a progressive server keeps for every session: the discovery
/// tools' definitions and the search index.
#[derive(Debug)]
pub(crate) struct Discovery {
    pub(crate) tools: Vec<Tool>,
    pub(super) index: search::Index,
}

impl Discovery {
    /// The discovery tools for catalogue `C`; the name of a tool of `C`
    /// that is also a discovery tool's when there is one.
    pub(crate) fn new<C: Catalogue>() -> Result<Discovery, &'static str> {
        if let Some(clash) = NAMES.into_iter().find(|n| C::tool(n).is_some()) {
            return Err(clash);
        }
        let tools = serde_json::from_str(TOOLS).expect("the discovery tools' definitions parse");
        Ok(Discovery {
            tools,
            index: search::Index::new(C::TOOLS),
        })
    }
}

/// What one session lists besides the discovery and job tools.
#[derive(Debug, Default)]
pub(crate) struct View {
    /// The toolsets it enabled.
    pub(super) enabled: BTreeSet<&'static str>,
    /// The tools it had described.
    pub(super) described: BTreeSet<&'static str>,
}

impl View {
    /// True when the session lists `tool`, a tool of the catalogue's own
    /// (the job tools are listed with the first tool that may answer with
    /// a job: see `McpServer::listed`).
    pub(crate) fn shows(&self, tool: &crate::ToolInfo) -> bool {
        self.described.contains(tool.name) || tool.toolsets.iter().any(|t| self.enabled.contains(t))
    }
}

/// A session's view, shared by the clones that serve it.
pub(crate) type SharedView = std::sync::Arc<Mutex<View>>;

/// A session's `subscriptions/listen` streams.
pub(crate) type Listeners = std::sync::Arc<Mutex<ListenerSet>>;

/// The `subscriptions/listen` streams of a session, and the changes to its
/// list, counted so that a stream that opens while one is made still
/// hears of it.
///
/// rmcp acknowledges a stream before the server sees it, so a client that
/// changes its list as soon as its stream is acknowledged may do so before
/// the stream is in `sinks`. The count when the filter was accepted
/// (`pending`) tells `open` whether a change fell in that gap, and the new
/// stream is told of it then: a `list_changed` more than needed is
/// harmless, one fewer is a client that never refetches.
#[derive(Debug, Default)]
pub(crate) struct ListenerSet {
    sinks: Vec<SubscriptionSink>,
    changes: u64,
    /// The change count when the oldest stream not yet open was accepted.
    pending: Option<u64>,
}

impl ListenerSet {
    /// A stream has been accepted and is about to be acknowledged.
    pub(crate) fn accepted(&mut self) {
        self.pending = Some(self.pending.map_or(self.changes, |p| p.min(self.changes)));
    }

    /// Adds an acknowledged stream; true when the list changed since it
    /// was accepted, which it must then be told.
    pub(crate) fn open(&mut self, sink: SubscriptionSink) -> bool {
        self.sinks.push(sink);
        self.pending.take().is_some_and(|p| p != self.changes)
    }

    /// Removes a stream that ended.
    pub(crate) fn close(&mut self, sink: &SubscriptionSink) {
        self.sinks.retain(|s| s.id() != sink.id());
    }

    /// Counts a change; the streams to tell of it.
    pub(super) fn changed(&mut self) -> Vec<SubscriptionSink> {
        self.changes += 1;
        self.sinks.clone()
    }
}
