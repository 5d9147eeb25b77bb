//! The span of a `POST /api/tools/{name}` (feature `otel`): an HTTP server
//! span for a tool call, parented on the request's `traceparent` header.

use std::sync::Arc;

use axum::http::HeaderMap;
use tracing::Span;
use tracing::field::Empty;

use crate::Principal;
use crate::edge::Outcome;

/// The server span of a call of `tool` with `headers`, made for
/// `principal`.
pub(super) fn span(tool: &str, headers: &HeaderMap, principal: Option<&Arc<Principal>>) -> Span {
    let span = tracing::info_span!(
        parent: None,
        "POST /api/tools/{name}",
        otel.kind = "server",
        http.request.method = "POST",
        http.route = "/api/tools/{name}",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        user.id = principal.map(|p| p.subject()),
        toolwright.outcome = Empty,
        toolwright.error.code = Empty,
        toolwright.job.id = Empty,
        error.type = Empty,
        otel.status_code = Empty,
        otel.status_description = Empty,
    );
    if !span.is_disabled() {
        let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
        crate::otel::adopt(&span, header("traceparent"), header("tracestate"));
    }
    span
}

/// Records how the call ended on `span`.
pub(super) fn record<R>(span: &Span, outcome: &Outcome<R>) {
    match outcome {
        Outcome::Port(envelope) => crate::otel::record(span, envelope),
        Outcome::Edge(answer) => crate::otel::record_outcome(span, answer),
    }
}
