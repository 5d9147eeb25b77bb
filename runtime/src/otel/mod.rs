//! One OpenTelemetry trace per call (feature `otel`); used by every door,
//! the HOOT01 server and client, and the dispatcher.
//!
//! Spans are made with [`tracing`] and become OpenTelemetry spans through
//! `tracing-opentelemetry`, so a handler adds its own with the same crate
//! and they nest under its call's. A door starts a call's span, parented on
//! the caller's W3C trace context (an HTTP `traceparent` header, MCP
//! `params._meta`); the span reaches the port in
//! [`CallOptions::span`](crate::port::CallOptions::span); a HOOT01 client
//! sends it on in frame 5, where a worker takes it up as its own span's
//! parent; the dispatcher opens a span around each handler and each job.
//!
//! Nothing here costs anything until a subscriber wants the spans:
//! [`Otlp::install`] sets one up that exports them over OTLP/HTTP. Without
//! it each span is `tracing`'s disabled one (docs/tracing.md).

mod export;
mod install;
mod propagate;
mod spans;

pub use install::{OtelError, Otlp, Telemetry};
// Each door uses what its protocol carries; the dispatcher's spans are
// for every build.
#[cfg(any(feature = "mcp", feature = "web"))]
pub(crate) use propagate::adopt;
pub(crate) use propagate::traceparent_text;
#[cfg(feature = "hoot")]
pub(crate) use propagate::{adopt_remote, traceparent};
#[cfg(any(feature = "mcp", feature = "hoot"))]
pub(crate) use spans::current;
#[cfg(feature = "mcp")]
pub(crate) use spans::record_at_door;
pub(crate) use spans::{handler, handler_span, job, record, record_outcome};
