//! The span of a `tools/call` at the MCP door (feature `otel`), named and
//! attributed as OpenTelemetry's MCP semantic conventions say: parented
//! on the caller's trace context in `params._meta` (else the HTTP
//! request's `traceparent` header).

use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, CallToolResponse};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use tracing::Span;
use tracing::field::Empty;

use crate::Principal;

/// The server span of the call `request`, made by the client of `context`.
pub(super) fn span(request: &CallToolRequestParams, context: &RequestContext<RoleServer>) -> Span {
    // Every value is given as the span is made (an absent one is `None`):
    // a field recorded later is one more trip through the subscriber.
    // Nothing is looked up for a span nobody records.
    if !tracing::span_enabled!(tracing::Level::INFO) {
        return Span::none();
    }
    let tool = request.name.as_ref();
    let http = context.extensions.get::<axum::http::request::Parts>();
    let header = |name: &str| {
        http.and_then(|parts| parts.headers.get(name))
            .and_then(|value| value.to_str().ok())
    };
    let principal = http.and_then(|parts| parts.extensions.get::<Arc<Principal>>());
    let span = tracing::info_span!(
        parent: None,
        "tools/call",
        otel.name = %format_args!("tools/call {tool}"),
        otel.kind = "server",
        mcp.method.name = "tools/call",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        jsonrpc.request.id = %context.id,
        mcp.session.id = header("mcp-session-id"),
        mcp.protocol.version = header("mcp-protocol-version"),
        network.transport = if http.is_some() { "tcp" } else { "pipe" },
        user.id = principal.map(|p| p.subject()),
        toolwright.outcome = Empty,
        toolwright.error.code = Empty,
        toolwright.job.id = Empty,
        error.type = Empty,
        rpc.response.status_code = Empty,
        otel.status_code = Empty,
        otel.status_description = Empty,
    );
    let (traceparent, tracestate) = match context.meta.get_traceparent() {
        Some(traceparent) => (Some(traceparent), context.meta.get_tracestate()),
        None => (header("traceparent"), header("tracestate")),
    };
    crate::otel::adopt(&span, traceparent, tracestate);
    span
}

/// Records on `span` what the convention asks of a call's end beyond its
/// outcome (which the port's answer recorded): `error.type` is
/// `tool_error` for a result with `isError`, and the JSON-RPC error code
/// for a protocol error.
pub(super) fn record(span: &Span, answered: &Result<CallToolResponse, ErrorData>) {
    match answered {
        Ok(CallToolResponse::Complete(result)) if result.is_error == Some(true) => {
            span.record("error.type", "tool_error");
            span.record("otel.status_code", "error");
        }
        Ok(_) => {}
        Err(e) => {
            let code = e.code.0.to_string();
            span.record("toolwright.outcome", "error");
            span.record("error.type", code.as_str());
            span.record("rpc.response.status_code", code.as_str());
            span.record("otel.status_code", "error");
            span.record("otel.status_description", e.message.as_ref());
        }
    }
}
