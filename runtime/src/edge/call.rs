//! The edge stage: the one path a call with JSON arguments takes to a
//! [`CallPort`], whatever door it came in by (MCP on stdio or HTTP,
//! `POST /api/tools/{name}`, the TOON WebSocket).
//!
//! ```text
//! name, arguments ─▶ tool ─▶ strict-mode nulls dropped ─▶ action routed
//!   (help / schema / status answered here, validated like any action)
//!   ─▶ MsgPack request ─▶ port.call ─▶ a bad argument explained ─▶ answer
//! ```
//!
//! A door adapts its protocol around [`Edge::prepare`] and
//! [`Edge::finish`] (MCP, which talks to its client while the port works)
//! or calls [`Edge::call`] for all of it (the web routes, the HOOT01
//! batch client).

use std::sync::Arc;

use super::{Answer, JsonObject, Route, Schema, Served, explain, route};
use crate::metrics::{CallOutcome, Calls};
use crate::port::{CallOptions, CallPort, PortEnvelope};
use crate::{Principal, ResponseEnvelope, ToolError, ToolInfo};
#[cfg(any(feature = "web", all(feature = "client", feature = "hoot")))]
use crate::Catalogue;

/// The stage for one port: the port, its catalogue's schema (parsed once),
/// what an action tool's `status` says, and the counters of its calls.
/// Cheap to clone.
#[derive(Clone)]
pub(crate) struct Edge<P> {
    port: P,
    schema: Arc<Schema>,
    version: Arc<str>,
    calls: Calls,
    /// The MCP servers mounted beside the catalogue.
    #[cfg(feature = "mount")]
    mounts: crate::mount::Mounts,
}

/// A call made ready for the port, or answered without it.
pub(crate) enum Prepared {
    /// Send this MsgPack request to the port.
    Call(Vec<u8>),
    /// The edge answered it: an action tool's `help`, `schema` or
    /// `status`, or the error for arguments that name no action.
    Answered(Result<Answer, ToolError>),
}

/// A job handle as every JSON door shows it: the fields of the envelope's
/// `job_started`.
#[cfg(any(feature = "mcp", all(feature = "client", feature = "hoot")))]
pub(crate) fn job_handle(job_id: &str, tool: &str, timing: crate::ToolTiming) -> crate::Json {
    serde_json::json!({"job_id": job_id, "tool": tool, "expected_timing": timing})
}

/// How a call through the stage ended.
#[cfg(any(feature = "web", all(feature = "client", feature = "hoot")))]
pub(crate) enum Outcome<R> {
    /// The port's envelope, a bad argument explained.
    Port(ResponseEnvelope<R>),
    /// The edge's own answer (see [`Prepared::Answered`]).
    Edge(Result<Answer, ToolError>),
}

impl<P: CallPort> Edge<P> {
    /// The stage for `port`; `version` is what `status` reports as the
    /// server's.
    pub(crate) fn new(port: P, schema: Arc<Schema>, version: Arc<str>) -> Self {
        let calls = Calls::new(<P::Catalogue as crate::Catalogue>::TOOLS, &schema);
        Edge {
            port,
            schema,
            version,
            calls,
            #[cfg(feature = "mount")]
            mounts: crate::mount::Mounts::default(),
        }
    }

    /// Sets the version `status` reports as the server's.
    #[cfg(feature = "mcp")]
    pub(crate) fn set_version(&mut self, version: Arc<str>) {
        self.version = version;
    }

    /// The MCP servers mounted beside the catalogue.
    #[cfg(feature = "mount")]
    pub(crate) fn mounts(&self) -> &crate::mount::Mounts {
        &self.mounts
    }

    /// Mounts one more MCP server.
    #[cfg(feature = "mount")]
    pub(crate) fn mount(&mut self, mount: crate::mount::Mount) {
        self.mounts.add(mount);
    }

    /// The stage for `port`, reading its catalogue's generated schema;
    /// `status` reports this crate's version as the server's.
    ///
    /// # Errors
    /// The JSON error when the schema text does not parse, which only a
    /// hand-written catalogue's can cause.
    #[cfg(any(feature = "web", all(feature = "client", feature = "hoot")))]
    pub(crate) fn for_port(port: P) -> Result<Self, serde_json::Error> {
        let schema = Schema::parse(<P::Catalogue as Catalogue>::MCP_SCHEMA)?;
        Ok(Edge::new(
            port,
            Arc::new(schema),
            Arc::from(env!("CARGO_PKG_VERSION")),
        ))
    }

    /// The port calls go to.
    pub(crate) fn port(&self) -> &P {
        &self.port
    }

    /// The tool named `name`.
    ///
    /// # Errors
    /// `UNKNOWN_TOOL`, with the closest name when one is close.
    #[cfg(any(feature = "web", all(feature = "client", feature = "hoot")))]
    pub(crate) fn tool(name: &str) -> Result<&'static ToolInfo, ToolError> {
        <P::Catalogue as Catalogue>::tool(name).ok_or_else(|| {
            crate::metrics::unknown_tool();
            crate::error::unknown_tool_in::<P::Catalogue>(name)
        })
    }

    /// Readies a call of `tool` made for `principal`: one whose principal
    /// lacks a scope the tool needs is answered `FORBIDDEN`; each `null`
    /// its schema does not admit is dropped from `args` (what providers'
    /// strict modes send for a property left out), an action tool's
    /// `action` is routed, and the rest becomes the MsgPack request.
    ///
    /// A call the edge answers is counted here; one it readies is counted
    /// when the door sends it with [`call_port`](Self::call_port).
    pub(crate) fn prepare(
        &self,
        tool: &ToolInfo,
        args: &mut JsonObject,
        principal: Option<&Principal>,
    ) -> Prepared {
        let clock = self.calls.start();
        let prepared = self.ready(tool, args, principal);
        if let Prepared::Answered(answer) = &prepared {
            let outcome = match answer {
                Ok(_) => CallOutcome::Ok,
                Err(e) => {
                    self.refused(tool.name, e, principal);
                    CallOutcome::Error(&e.code)
                }
            };
            self.calls.record(tool.name, outcome, clock);
        }
        prepared
    }

    /// Reports a call of `tool` made for `principal` that failed with
    /// `error` before it reached the port: its `error` event.
    pub(crate) fn refused(&self, tool: &str, error: &ToolError, principal: Option<&Principal>) {
        let events = self.port.events();
        if events.is_observed() {
            let owner = principal.map(Principal::owner);
            events.refused_call(tool, error, owner.as_ref());
        }
    }

    /// [`prepare`](Self::prepare) but for the counting.
    fn ready(&self, tool: &ToolInfo, args: &mut JsonObject, principal: Option<&Principal>) -> Prepared {
        // Before anything else: a caller who may not call the tool learns
        // nothing of it beyond that, not even its actions' help.
        if let Some(Err(e)) = principal.map(|p| p.may_call(tool)) {
            return Prepared::Answered(Err(e));
        }
        if let Some(input) = self.schema.input(tool.name) {
            super::drop_absent_nulls(input, args);
        }
        if !tool.actions.is_empty()
            && let Route::Answer(answer) = route(tool, &self.schema, args, self.served())
        {
            return Prepared::Answered(answer);
        }
        match super::request_msgpack(tool.name, args, self.port.limits()) {
            Ok(request) => Prepared::Call(request),
            Err(e) => Prepared::Answered(Err(e)),
        }
    }

    /// Sends a call [`prepare`](Self::prepare) readied to the port, and
    /// counts it by its answer, with the time the port took. A door that
    /// stops waiting (its client went away) drops the call uncounted.
    pub(crate) async fn call_port(
        &self,
        tool: &ToolInfo,
        request: Vec<u8>,
        options: CallOptions,
    ) -> PortEnvelope<P> {
        let clock = self.calls.start();
        let envelope = self.port.call(request, options).await;
        self.calls
            .record(tool.name, CallOutcome::of(&envelope), clock);
        envelope
    }

    /// The port's answer to a call of `tool` with `args`, as a door hands
    /// it on: a request that did not decode gets the type its field
    /// expected, from the tool's input schema.
    pub(crate) fn finish(
        &self,
        tool: &ToolInfo,
        args: &JsonObject,
        envelope: PortEnvelope<P>,
    ) -> PortEnvelope<P> {
        match envelope {
            ResponseEnvelope::Error(e) => {
                ResponseEnvelope::Error(explain(e, &self.schema, tool, args))
            }
            envelope => envelope,
        }
    }

    /// All of the stage for a door that waits for nothing but the answer.
    #[cfg(any(feature = "web", all(feature = "client", feature = "hoot")))]
    pub(crate) async fn call(
        &self,
        tool: &ToolInfo,
        mut args: JsonObject,
        options: CallOptions,
    ) -> Outcome<<P::Catalogue as Catalogue>::Response> {
        match self.prepare(tool, &mut args, options.principal.as_deref()) {
            Prepared::Answered(answer) => Outcome::Edge(answer),
            Prepared::Call(request) => {
                let envelope = self.call_port(tool, request, options).await;
                Outcome::Port(self.finish(tool, &args, envelope))
            }
        }
    }

    /// What `status` says about this server.
    fn served(&self) -> Served<'_> {
        Served {
            version: &self.version,
            backend: self.port.events().source().as_str(),
        }
    }
}
