//! Tool events: a `tool_start` and a `tool_complete` for every call a
//! [`CallPort`](crate::port::CallPort) answers, whichever transport made
//! it, and an `error` for one that failed before it started, for
//! frontends that show executions live (docs/web.md § Tool events).
//!
//! Each port owns a [`ToolEvents`] hub and reports through it from its
//! `call`, so no transport has to remember to. A hub nobody follows costs
//! a call one uncontended lock; with subscribers, a call records names,
//! bytes and times, and the JSON is built when an event is first read. A
//! windowed follower (the web feed) has the hub trace only the calls it
//! will show, and count the rest (`window.rs`).

mod follow;
mod published;
mod trace;
mod window;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use crate::ToolError;
use crate::jobs::Owner;

pub use published::Published;
pub use trace::{CallTrace, MAX_EVENT_TEXT};
pub use window::{Taken, Windowed};

/// How many events a subscriber may fall behind before it loses the oldest.
pub const EVENT_BUFFER: usize = 1024;

/// Where a tool runs, as frontends show it (seed 004's `source`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolSource {
    /// In this process: a [`Dispatcher`](crate::Dispatcher) runs it.
    Local,
    /// In another server this one forwards to: HOOT01 workers behind a
    /// gateway, or a proxied MCP server.
    Mcp,
}

impl ToolSource {
    /// The name on the wire: `local` or `mcp`.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolSource::Local => "local",
            ToolSource::Mcp => "mcp",
        }
    }
}

/// One tool event, as JSON: `{"type": "tool_start", …}`,
/// `{"type": "tool_complete", …}` or `{"type": "error", …}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToolEvent {
    /// A call has started.
    ToolStart(ToolStart),
    /// A call has ended: answered, failed, or its job finished.
    ToolComplete(ToolComplete),
    /// A call failed before it started: no `tool_start` or
    /// `tool_complete` is sent for it.
    Error(CallError),
}

impl ToolEvent {
    /// The call the event is about.
    pub fn call_id(&self) -> &str {
        match self {
            ToolEvent::ToolStart(e) => &e.call_id,
            ToolEvent::ToolComplete(e) => &e.call_id,
            ToolEvent::Error(e) => &e.call_id,
        }
    }

    /// The tool called; `""` for a call whose request named none that
    /// could be read.
    pub fn tool_name(&self) -> &str {
        match self {
            ToolEvent::ToolStart(e) => &e.tool_name,
            ToolEvent::ToolComplete(e) => &e.tool_name,
            ToolEvent::Error(e) => e.tool_name.as_deref().unwrap_or_default(),
        }
    }

    /// `tool_start`, `tool_complete` or `error`.
    pub fn kind(&self) -> &'static str {
        match self {
            ToolEvent::ToolStart(_) => "tool_start",
            ToolEvent::ToolComplete(_) => "tool_complete",
            ToolEvent::Error(_) => "error",
        }
    }
}

/// `tool_start`: a call has started.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolStart {
    /// The call; its `tool_complete` carries the same id.
    pub call_id: String,
    /// The tool.
    pub tool_name: String,
    /// The action, for an action tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The arguments as JSON text: the request without `tool` and
    /// `action`.
    pub tool_input: String,
    /// Where the tool runs.
    pub source: ToolSource,
    /// When the call started: ISO 8601, UTC, milliseconds.
    pub timestamp: String,
}

/// `tool_complete`: a call has ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ToolComplete {
    /// The call.
    pub call_id: String,
    /// The job the call ran as, when it ran as one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_id: Option<String>,
    /// The tool.
    pub tool_name: String,
    /// The action, for an action tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The response's fields as JSON text, or the error
    /// (`{"code", "message", "details"?}`) as JSON text.
    pub tool_result: String,
    /// True when the tool answered a response.
    pub success: bool,
    /// The error's code, when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_code: Option<String>,
    /// From start to end, in milliseconds.
    pub duration_ms: f64,
    /// Where the tool runs.
    pub source: ToolSource,
    /// When the call ended: ISO 8601, UTC, milliseconds.
    pub timestamp: String,
}

/// `error`: a call that failed before it started (seed 004's `error`
/// message): its request could not be read, named no tool or action of
/// the catalogue, or was refused at the door (a missing scope).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct CallError {
    /// The call; no other event carries it.
    pub call_id: String,
    /// The tool the request named, when it could be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// What is wrong, for a person.
    pub message: String,
    /// The error's code: `INVALID_REQUEST`, `UNKNOWN_TOOL`,
    /// `UNKNOWN_ACTION`, `FORBIDDEN`, …
    pub code: String,
    /// Where the call was to run.
    pub source: ToolSource,
    /// When the call was refused: ISO 8601, UTC, milliseconds.
    pub timestamp: String,
}

/// The hub a call port reports its calls to; frontends
/// [`subscribe`](ToolEvents::subscribe). Cheap to clone; clones share
/// subscribers.
#[derive(Clone, Debug)]
pub struct ToolEvents {
    inner: Arc<Hub>,
}

#[derive(Debug)]
struct Hub {
    sender: broadcast::Sender<Arc<Published>>,
    /// The calls traced for a windowed follower.
    window: Arc<window::Window>,
    source: ToolSource,
    next_call: AtomicU64,
}

impl ToolEvents {
    /// A hub for the tools of one source.
    pub fn new(source: ToolSource) -> Self {
        let (sender, _) = broadcast::channel(EVENT_BUFFER);
        ToolEvents {
            inner: Arc::new(Hub {
                sender,
                window: Arc::default(),
                source,
                next_call: AtomicU64::new(1),
            }),
        }
    }

    /// Where the hub's tools run.
    pub fn source(&self) -> ToolSource {
        self.inner.source
    }

    /// Receives every event from now on. A receiver more than
    /// [`EVENT_BUFFER`] events behind loses the oldest (its next `recv`
    /// says how many); it never slows a call.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Published>> {
        self.inner.sender.subscribe()
    }

    /// Has the hub trace calls for a windowed follower, which takes what
    /// was traced with [`Windowed::take`]: at most `per_take` events
    /// between two takes (a call that starts holds room for its
    /// `tool_complete`); calls beyond that are counted, not traced, unless
    /// a [`subscribe`](ToolEvents::subscribe)r takes every event. A hub has
    /// one windowed follower: this one replaces any before it.
    pub fn windowed(&self, per_take: u32) -> Windowed {
        Windowed::open(self.inner.window.clone(), per_take)
    }

    /// True when someone listens: a subscriber, or a windowed follower.
    pub fn is_observed(&self) -> bool {
        self.inner.window.is_followed() || self.inner.sender.receiver_count() > 0
    }

    /// Who is told of a call that makes `events` events: `None` when
    /// nobody is, or `Some(true)` when the windowed follower is (with
    /// the subscribers, if any).
    fn audience(&self, events: u32) -> Option<bool> {
        let in_window = self.inner.window.admits(events);
        (in_window || self.inner.sender.receiver_count() > 0).then_some(in_window)
    }

    /// Starts tracing a call given as MsgPack request bytes, made for
    /// `owner`: sends its `tool_start`, and returns the trace that sends
    /// its `tool_complete`. `None`, at the cost of one uncontended lock,
    /// when nobody listens.
    pub fn start(&self, request: &[u8], owner: Option<&Owner>) -> Option<CallTrace> {
        let in_window = self.audience(2)?;
        Some(CallTrace::start(self.clone(), in_window, request, owner))
    }

    /// Reports a call given as MsgPack request bytes, made for `owner`,
    /// that failed with `error` before it started: its `error` event.
    /// Costs one atomic load when nobody listens.
    pub fn refused(&self, request: &[u8], error: &ToolError, owner: Option<&Owner>) {
        if self.is_observed() {
            let tool = crate::codec::peek_call(request).map_or("", |peek| peek.tool);
            self.refused_call(tool, error, owner);
        }
    }

    /// Reports a call of the tool named `tool` (`""` for none), made for
    /// `owner`, that a door refused with `error` before it started.
    pub(crate) fn refused_call(&self, tool: &str, error: &ToolError, owner: Option<&Owner>) {
        let Some(in_window) = self.audience(1) else {
            return;
        };
        let raw = published::Raw {
            kind: published::Kind::Refused(error.clone()),
            call_id: self.next_call(),
            tool: tool.to_owned(),
            action: None,
            source: self.source(),
            at: crate::time::now_ms(),
            owner: owner.cloned(),
        };
        self.send(raw, in_window);
    }

    /// Starts tracing a call of a mounted MCP server's tool, made for
    /// `owner` with JSON `arguments`: its events say `source: "mcp"`.
    /// `None` when nobody listens.
    #[cfg(feature = "mount")]
    pub(crate) fn start_mounted(
        &self,
        tool: &str,
        arguments: impl FnOnce() -> crate::Json,
        owner: Option<&Owner>,
    ) -> Option<CallTrace> {
        let in_window = self.audience(2)?;
        Some(CallTrace::start_mounted(
            self.clone(),
            in_window,
            tool,
            arguments(),
            owner,
        ))
    }

    fn next_call(&self) -> u64 {
        self.inner.next_call.fetch_add(1, Ordering::Relaxed)
    }

    /// Sends an event to the subscribers, and keeps it for the sampling
    /// follower when its call was `in_window`.
    fn send(&self, raw: published::Raw, in_window: bool) {
        let event = Arc::new(Published::new(raw));
        if in_window {
            self.inner.window.keep(event.clone());
        }
        // No receiver left is not an error: the event has no audience.
        let _ = self.inner.sender.send(event);
    }
}
