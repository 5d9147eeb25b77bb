//! W3C trace context in and out: a caller's `traceparent` and
//! `tracestate` made a span's remote parent, and a span's own context as
//! the `traceparent` a call sends on.

#[cfg(any(feature = "mcp", feature = "web"))]
use opentelemetry::propagation::{Extractor, TextMapPropagator};
use opentelemetry::trace::{SpanContext, TraceContextExt};
#[cfg(feature = "hoot")]
use opentelemetry::{
    Context,
    trace::{SpanId, TraceFlags, TraceId, TraceState},
};
#[cfg(any(feature = "mcp", feature = "web"))]
use opentelemetry_sdk::propagation::TraceContextPropagator;
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// The two W3C trace-context values a caller sent.
#[cfg(any(feature = "mcp", feature = "web"))]
struct Carrier<'a> {
    traceparent: &'a str,
    tracestate: Option<&'a str>,
}

#[cfg(any(feature = "mcp", feature = "web"))]
impl Extractor for Carrier<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        match key {
            "traceparent" => Some(self.traceparent),
            "tracestate" => self.tracestate,
            _ => None,
        }
    }

    fn keys(&self) -> Vec<&str> {
        vec!["traceparent", "tracestate"]
    }
}

#[cfg(any(feature = "mcp", feature = "web"))]
/// Makes the caller's context `span`'s parent, when the caller sent a
/// `traceparent` that is valid. One that is not is ignored, as W3C trace
/// context has a receiver do: `span` then starts a trace of its own.
pub(crate) fn adopt(span: &Span, traceparent: Option<&str>, tracestate: Option<&str>) {
    let Some(traceparent) = traceparent else {
        return;
    };
    let carrier = Carrier {
        traceparent,
        tracestate,
    };
    let parent = TraceContextPropagator::new().extract(&carrier);
    if parent.span().span_context().is_valid() {
        // Fails only for a span no OpenTelemetry layer records, which has
        // no parent to set.
        let _ = span.set_parent(parent);
    }
}

/// `span`'s ids when it is recorded and they are valid.
fn ids(span: &Span) -> Option<SpanContext> {
    if span.is_disabled() {
        return None;
    }
    let context = span.context();
    let ids = context.span().span_context().clone();
    ids.is_valid().then_some(ids)
}

#[cfg(feature = "hoot")]
/// `span`'s context as HOOT01's frame 5: what a call made while serving
/// it sends on. `None` for a span that is not recorded.
pub(crate) fn traceparent(span: &Span) -> Option<crate::hoot::Traceparent> {
    let ids = ids(span)?;
    crate::hoot::Traceparent::from_ids(
        ids.trace_id().to_bytes(),
        ids.span_id().to_bytes(),
        ids.trace_flags().to_u8(),
    )
}

/// `span`'s context as a version-00 `traceparent` string, for an event
/// about the call it serves. `None` for a span that is not recorded.
pub(crate) fn traceparent_text(span: &Span) -> Option<String> {
    let ids = ids(span)?;
    Some(format!(
        "00-{}-{}-{:02x}",
        ids.trace_id(),
        ids.span_id(),
        ids.trace_flags().to_u8()
    ))
}

#[cfg(feature = "hoot")]
/// Makes the context HOOT01's frame 5 carried `span`'s parent: a
/// traceparent read already, so nothing is parsed again.
pub(crate) fn adopt_remote(span: &Span, traceparent: &crate::hoot::Traceparent) {
    let parent = SpanContext::new(
        TraceId::from_bytes(traceparent.trace_id()),
        SpanId::from_bytes(traceparent.parent_id()),
        TraceFlags::new(traceparent.flags()),
        true,
        TraceState::default(),
    );
    // Fails only for a span no OpenTelemetry layer records.
    let _ = span.set_parent(Context::new().with_remote_span_context(parent));
}
