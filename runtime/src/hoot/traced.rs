//! HOOT01's part of a call's trace (feature `otel`): frame 5 of a Request
//! carries the calling span's context to the worker, whose span for the
//! call is that context's child.

use tracing::Span;
use tracing::field::Empty;

use super::frame::{Message, Traceparent};
use crate::port::CallOptions;

/// `message` with the context of the call's span (or the current span) in
/// frame 5; unchanged when no span is recorded.
pub(crate) fn stamp(message: Message, options: &CallOptions) -> Message {
    let span = options.span.clone().unwrap_or_else(Span::current);
    match crate::otel::traceparent(&span).and_then(|t| Traceparent::parse(t.as_bytes())) {
        Some(traceparent) => message.with_traceparent(traceparent),
        None => message,
    }
}

/// The worker's span for the call `message` carries with `request` (its
/// MsgPack request), the child of frame 5's context when it has one.
pub(crate) fn worker(message: &Message, request: &[u8]) -> Span {
    let span = tracing::info_span!(
        parent: None,
        "worker",
        otel.name = Empty,
        otel.kind = "server",
        gen_ai.tool.name = Empty,
        toolwright.hoot.request_id = Empty,
        toolwright.hoot.service = message.service.as_str(),
    );
    if span.is_disabled() {
        return span;
    }
    let tool = crate::hoot::body::tool_of(request);
    span.record("otel.name", format!("worker {tool}"));
    span.record("gen_ai.tool.name", tool.as_str());
    span.record("toolwright.hoot.request_id", message.request_id.to_string());
    let traceparent = message.traceparent.as_ref().map(Traceparent::as_str);
    crate::otel::adopt(&span, traceparent, None);
    span
}

/// The current span's context, for an IOPub event of the call it serves.
pub(crate) fn current_traceparent() -> Option<String> {
    crate::otel::traceparent(&Span::current())
}
