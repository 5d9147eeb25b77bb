//! W3C trace context in and out: a caller's `traceparent` and
//! `tracestate` made a span's remote parent, and a span's own context as
//! the `traceparent` a call sends on.

#![cfg_attr(
    not(any(feature = "mcp", feature = "web", feature = "hoot")),
    expect(dead_code, reason = "only the doors take a caller's context")
)]

use opentelemetry::propagation::{Extractor, TextMapPropagator};
use opentelemetry::trace::TraceContextExt;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt;

/// The two W3C trace-context values a caller sent.
struct Carrier<'a> {
    traceparent: &'a str,
    tracestate: Option<&'a str>,
}

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

#[cfg(feature = "hoot")]
/// `span`'s context as a version-00 `traceparent`: what a call made while
/// serving it sends on. `None` for a span that is not recorded.
pub(crate) fn traceparent(span: &Span) -> Option<String> {
    if span.is_disabled() {
        return None;
    }
    let context = span.context();
    let span = context.span();
    let ids = span.span_context();
    ids.is_valid().then(|| {
        format!(
            "00-{}-{}-{:02x}",
            ids.trace_id(),
            ids.span_id(),
            ids.trace_flags().to_u8()
        )
    })
}
