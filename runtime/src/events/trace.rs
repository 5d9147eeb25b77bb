//! `CallTrace`: one call between its `tool_start` and its `tool_complete`.

use std::time::Instant;

use serde::Serialize;

use super::published::{Kind, Payload, Raw};
use super::{ToolEvents, follow};
use crate::jobs::Owner;
use crate::port::CallPort;
use crate::time;
use crate::{Json, ResponseEnvelope, ToolError, codec};

/// Largest request or response an event carries, in bytes (MsgPack as
/// received, or its JSON text). A larger one is replaced by
/// `{"truncated_bytes": N}`, so a subscriber's buffer holds at most this
/// much per event however large the calls are.
pub const MAX_EVENT_TEXT: usize = 64 * 1024;

/// A call whose `tool_start` has been sent; [`end`](CallTrace::end) sends
/// its `tool_complete`.
#[derive(Debug)]
pub struct CallTrace {
    hub: ToolEvents,
    call_id: u64,
    tool: String,
    action: Option<String>,
    started: Instant,
    owner: Option<Owner>,
    source: super::ToolSource,
    /// True when the hub's windowed follower takes this call's events.
    in_window: bool,
}

impl CallTrace {
    pub(super) fn start(
        hub: ToolEvents,
        in_window: bool,
        request: &[u8],
        owner: Option<&Owner>,
    ) -> Self {
        // Bytes that do not decode still make an event: the tool is `""`,
        // and the call's answer says what is wrong.
        let (tool, action) = match codec::peek_call(request) {
            Ok(peek) => (peek.tool.to_owned(), peek.action.map(str::to_owned)),
            Err(_) => (String::new(), None),
        };
        let trace = CallTrace {
            call_id: hub.next_call(),
            tool,
            action,
            started: Instant::now(),
            owner: owner.cloned(),
            source: hub.source(),
            in_window,
            hub,
        };
        trace.send(Kind::Start(Payload::msgpack(request)));
        trace
    }

    /// Starts a call of a mounted server's tool: its arguments are JSON
    /// (it has no IDL) and its source is `mcp`.
    #[cfg(feature = "mount")]
    pub(super) fn start_mounted(
        hub: ToolEvents,
        in_window: bool,
        tool: &str,
        arguments: Json,
        owner: Option<&Owner>,
    ) -> Self {
        let trace = CallTrace {
            call_id: hub.next_call(),
            tool: tool.to_owned(),
            action: None,
            started: Instant::now(),
            owner: owner.cloned(),
            source: super::ToolSource::Mcp,
            in_window,
            hub,
        };
        trace.send(Kind::Start(Payload::Plain(arguments)));
        trace
    }

    /// Sends `tool_complete` for a mounted tool's call: its result as
    /// the mounted server gave it, or the error.
    #[cfg(feature = "mount")]
    pub(crate) fn end_mounted(self, outcome: Result<Json, ToolError>) {
        self.complete(None, outcome.map(Payload::Plain));
    }

    /// The call's id, as its events carry it.
    pub fn call_id(&self) -> String {
        format!("c{}", self.call_id)
    }

    /// Sends `tool_complete` for a call answered with `envelope`. A call
    /// that runs on as a job completes when the job ends: `port` is asked
    /// for it in the background.
    pub fn end<P: CallPort, R: Serialize>(self, port: &P, envelope: &ResponseEnvelope<R>) {
        match envelope {
            ResponseEnvelope::Success(response) => match codec::to_msgpack(response) {
                Ok(bytes) => self.complete(None, Ok(Payload::msgpack(&bytes))),
                Err(e) => self.complete(None, Err(e)),
            },
            ResponseEnvelope::Error(e) => self.complete(None, Err(e.clone())),
            ResponseEnvelope::JobStarted { job_id, .. } => {
                follow::job(port.clone(), self, job_id.clone());
            }
            _ => self.complete(
                None,
                Err(ToolError::internal("the call ended without an answer")),
            ),
        }
    }

    /// Sends `tool_complete` for a job that ended with `result` (its
    /// response as JSON) or an error.
    pub(super) fn job_ended(self, job_id: String, result: Result<Json, ToolError>) {
        self.complete(Some(job_id), result.map(Payload::Json));
    }

    fn complete(self, job_id: Option<String>, outcome: Result<Payload, ToolError>) {
        let duration = self.started.elapsed();
        self.send(Kind::Complete {
            job_id,
            outcome,
            duration,
        });
    }

    fn send(&self, kind: Kind) {
        let raw = Raw {
            kind,
            call_id: self.call_id,
            tool: self.tool.clone(),
            action: self.action.clone(),
            source: self.source,
            at: time::now_ms(),
            owner: self.owner.clone(),
        };
        self.hub.send(raw, self.in_window);
    }
}
