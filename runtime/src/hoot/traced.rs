//! HOOT01's part of a call's trace (feature `otel`): frame 5 of a Request
//! carries the calling span's context to the worker, whose span for the
//! call is that context's child.

use tracing::Span;

use super::frame::Message;
use crate::port::CallOptions;

/// `message` with the context of the call's span (or the current span) in
/// frame 5; unchanged when no span is recorded.
pub(crate) fn stamp(message: Message, options: &CallOptions) -> Message {
    let span = options.span.clone().unwrap_or_else(Span::current);
    match crate::otel::traceparent(&span) {
        Some(traceparent) => message.with_traceparent(traceparent),
        None => message,
    }
}

/// The worker's span for the call `message` carries with `request` (its
/// MsgPack request), the child of frame 5's context when it has one.
pub(crate) fn worker(message: &Message, request: &[u8]) -> Span {
    // Each value is given as the span is made: a field recorded later is
    // one more trip through the subscriber. Nothing is decoded for a span
    // nobody records.
    if !tracing::span_enabled!(tracing::Level::INFO) {
        return Span::none();
    }
    let tool = crate::hoot::body::tool_of(request);
    let span = tracing::info_span!(
        parent: None,
        "worker",
        otel.name = %format_args!("worker {tool}"),
        otel.kind = "server",
        gen_ai.tool.name = tool.as_str(),
        toolwright.hoot.request_id = %message.request_id,
        toolwright.hoot.service = message.service.as_str(),
        toolwright.outcome = tracing::field::Empty,
        toolwright.error.code = tracing::field::Empty,
        error.type = tracing::field::Empty,
        otel.status_code = tracing::field::Empty,
        otel.status_description = tracing::field::Empty,
    );
    if let Some(traceparent) = &message.traceparent {
        crate::otel::adopt_remote(&span, traceparent);
    }
    span
}

/// The current span's context, for an IOPub event of the call it serves.
pub(crate) fn current_traceparent() -> Option<String> {
    crate::otel::traceparent_text(&Span::current())
}
