//! What `/metrics` reports (docs/operations.md): calls by tool and
//! outcome and their latency, jobs by state, a gateway's live backends
//! and HOOT01 calls in flight, refused credentials by reason.
//!
//! Recording is process-wide, as Prometheus scrapes a process: every door
//! and every port of the process counts into one registry, and the
//! `/metrics` route of any HTTP server in it reports them all.
//!
//! - [`Calls`]: the edge's per-tool counters and latency histograms,
//!   resolved once per tool, so that a call costs a hash lookup, two
//!   atomic increments and the histogram's bucket update.
//! - [`auth_failure`], [`job_finished`], [`unknown_tool`]: counters of
//!   the paths that are not a catalogue tool's call.
//! - `encode` (feature `metrics`): the registry as Prometheus text, with
//!   the ports' [`Gauges`](crate::port::Gauges) read at the scrape.
//!
//! Without the `metrics` feature every recording is a no-op that the
//! compiler removes, and no `/metrics` route is served.

#[cfg(any(
    feature = "mcp",
    feature = "web",
    all(feature = "client", feature = "hoot")
))]
mod outcome;
#[cfg(any(
    feature = "mcp",
    feature = "web",
    all(feature = "client", feature = "hoot")
))]
pub(crate) use outcome::CallOutcome;

#[cfg(feature = "metrics")]
mod registry;
#[cfg(all(feature = "metrics", any(feature = "mcp", feature = "web")))]
pub(crate) use registry::auth_failure;
#[cfg(feature = "metrics")]
pub(crate) use registry::job_finished;
#[cfg(all(
    feature = "metrics",
    any(
        feature = "mcp",
        feature = "web",
        all(feature = "client", feature = "hoot")
    )
))]
pub(crate) use registry::unknown_tool;

#[cfg(all(
    feature = "metrics",
    any(
        feature = "mcp",
        feature = "web",
        all(feature = "client", feature = "hoot")
    )
))]
mod calls;
#[cfg(all(
    feature = "metrics",
    any(
        feature = "mcp",
        feature = "web",
        all(feature = "client", feature = "hoot")
    )
))]
pub(crate) use calls::Calls;

#[cfg(all(feature = "metrics", any(feature = "mcp", feature = "web")))]
mod scrape;
#[cfg(all(feature = "metrics", any(feature = "mcp", feature = "web")))]
pub(crate) use scrape::{CONTENT_TYPE, encode};

#[cfg(not(feature = "metrics"))]
mod off;
#[cfg(all(not(feature = "metrics"), any(feature = "mcp", feature = "web")))]
pub(crate) use off::auth_failure;
#[cfg(not(feature = "metrics"))]
pub(crate) use off::job_finished;
#[cfg(all(
    not(feature = "metrics"),
    any(
        feature = "mcp",
        feature = "web",
        all(feature = "client", feature = "hoot")
    )
))]
pub(crate) use off::{Calls, unknown_tool};
