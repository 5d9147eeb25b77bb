//! The spans every port shares: around a handler, around a job from its
//! start to its end, and the outcome of a call recorded on any span that
//! declares the fields.

use std::future::Future;

use tracing::field::Empty;
use tracing::{Instrument, Span};

use crate::{ResponseEnvelope, ToolError};

#[cfg(any(feature = "mcp", feature = "hoot"))]
/// The current span, when a subscriber records it: the span of the call
/// being served, inside a door's or a worker's.
pub(crate) fn current() -> Option<Span> {
    let span = Span::current();
    (!span.is_disabled()).then_some(span)
}

/// The span around one run of `tool`'s handler, a child of `parent` (or of
/// the current span). Spans the handler makes with `tracing` nest under it.
pub(crate) fn handler_span(parent: Option<&Span>, tool: &str) -> Span {
    let parent = parent.cloned().unwrap_or_else(Span::current);
    tracing::info_span!(
        parent: &parent,
        "handler",
        otel.name = %format_args!("handler {tool}"),
        gen_ai.tool.name = tool,
        toolwright.outcome = Empty,
        toolwright.error.code = Empty,
        error.type = Empty,
        otel.status_code = Empty,
        otel.status_description = Empty,
    )
}

/// Runs `handler`, the handler of `tool`, inside its span.
pub(crate) async fn handler<R>(
    parent: Option<Span>,
    tool: &'static str,
    handler: impl Future<Output = Result<R, ToolError>>,
) -> Result<R, ToolError> {
    let span = handler_span(parent.as_ref(), tool);
    let outcome = handler.instrument(span.clone()).await;
    record_outcome(&span, &outcome);
    outcome
}

/// The span of a job of `tool` from its start to its end, a child of
/// `parent` (or of the current span): the job runs inside it, handler and
/// all, however long after its call answered.
pub(crate) fn job(parent: Option<&Span>, tool: &str, job_id: &str) -> Span {
    let parent = parent.cloned().unwrap_or_else(Span::current);
    tracing::info_span!(
        parent: &parent,
        "job",
        otel.name = %format_args!("job {tool}"),
        gen_ai.tool.name = tool,
        toolwright.job.id = job_id,
        toolwright.outcome = Empty,
        toolwright.error.code = Empty,
        error.type = Empty,
        otel.status_code = Empty,
        otel.status_description = Empty,
    )
}

/// Records how a call ended on `span`: `toolwright.outcome` (`success`,
/// `job_started`, `error`), the job's id, and for an error its code as
/// `toolwright.error.code` and `error.type` (unless the span's door gave
/// `error.type` its own value) and an error status.
pub(crate) fn record<R>(span: &Span, envelope: &ResponseEnvelope<R>) {
    record_envelope(span, envelope, true);
}

#[cfg(feature = "mcp")]
/// [`record`] at a door whose convention gives `error.type` a value of its
/// own (MCP's `tool_error`), which the door records.
pub(crate) fn record_at_door<R>(span: &Span, envelope: &ResponseEnvelope<R>) {
    record_envelope(span, envelope, false);
}

fn record_envelope<R>(span: &Span, envelope: &ResponseEnvelope<R>, error_type: bool) {
    match envelope {
        ResponseEnvelope::Success(_) => {
            span.record("toolwright.outcome", "success");
        }
        ResponseEnvelope::JobStarted { job_id, .. } => {
            span.record("toolwright.outcome", "job_started");
            span.record("toolwright.job.id", job_id.as_str());
        }
        ResponseEnvelope::Error(e) => record_error(span, e, error_type),
        // Stream frames are not a call's end.
        _ => {}
    }
}

/// [`record`] for a handler's or a job's outcome.
pub(crate) fn record_outcome<R>(span: &Span, outcome: &Result<R, ToolError>) {
    match outcome {
        Ok(_) => {
            span.record("toolwright.outcome", "success");
        }
        Err(e) => record_error(span, e, true),
    }
}

fn record_error(span: &Span, e: &ToolError, error_type: bool) {
    span.record("toolwright.outcome", "error");
    span.record("toolwright.error.code", e.code.as_ref());
    // Each record of a field adds an attribute: a door that gives
    // `error.type` its own value records it alone.
    if error_type {
        span.record("error.type", e.code.as_ref());
    }
    span.record("otel.status_code", "error");
    span.record("otel.status_description", e.message.as_str());
}
