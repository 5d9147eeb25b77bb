//! The process's registry: every counter and histogram `/metrics`
//! reports, made once, and the recording of what is not a catalogue
//! tool's call.

use std::borrow::Cow;
use std::sync::LazyLock;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

use crate::jobs::JobState;

/// Every metric's name starts `toolwright_`.
pub(super) const PREFIX: &str = "toolwright";

/// The `tool` label of a call naming no tool of the catalogue: one label
/// for all of them, so that callers cannot grow the label set. A tool of
/// the catalogue named `unknown` is told apart by its outcomes, never
/// `UNKNOWN_TOOL`.
#[cfg(any(
    feature = "mcp",
    feature = "web",
    all(feature = "client", feature = "hoot")
))]
const UNKNOWN_TOOL: &str = "unknown";

/// Upper bounds of the latency buckets, in seconds: from a `sync` call
/// answered in tens of microseconds to a job waited on for minutes.
const BUCKETS: [f64; 17] = [
    0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    10.0, 30.0, 120.0,
];

/// `{tool, outcome}`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(super) struct CallLabels {
    pub(super) tool: &'static str,
    pub(super) outcome: Cow<'static, str>,
}

/// `{tool}`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(super) struct ToolLabel {
    pub(super) tool: &'static str,
}

/// `{reason}`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(super) struct ReasonLabel {
    pub(super) reason: &'static str,
}

/// `{state}`.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub(super) struct StateLabel {
    pub(super) state: &'static str,
}

/// The process's metrics.
// Without a door, nothing reads what only doors record or serve.
#[cfg_attr(not(any(feature = "mcp", feature = "web")), allow(dead_code))]
pub(super) struct Metrics {
    pub(super) registry: Registry,
    pub(super) calls: Family<CallLabels, Counter>,
    pub(super) durations: Family<ToolLabel, Histogram, fn() -> Histogram>,
    auth_failures: Family<ReasonLabel, Counter>,
    jobs_finished: Family<StateLabel, Counter>,
}

/// Made on first use: a process that records nothing pays nothing.
pub(super) static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

impl Metrics {
    fn new() -> Self {
        let calls = Family::default();
        let durations: Family<ToolLabel, Histogram, fn() -> Histogram> =
            Family::new_with_constructor(|| Histogram::new(BUCKETS));
        let auth_failures = Family::default();
        let jobs_finished = Family::default();
        let mut registry = Registry::with_prefix(PREFIX);
        registry.register(
            "calls",
            "Tool calls answered, by tool and outcome: ok, job_started, or the error's code",
            calls.clone(),
        );
        registry.register(
            "call_duration_seconds",
            "Time from a call reaching its port (or the edge, for one the edge answers) to \
             its answer, by tool",
            durations.clone(),
        );
        registry.register(
            "auth_failures",
            "HTTP requests refused before any call, by reason: host, origin, missing, \
             invalid, unavailable",
            auth_failures.clone(),
        );
        registry.register(
            "jobs_finished",
            "Jobs this process settled, by final state",
            jobs_finished.clone(),
        );
        Metrics {
            registry,
            calls,
            durations,
            auth_failures,
            jobs_finished,
        }
    }
}

/// Counts a request refused before any call: `host`, `origin`,
/// `missing`, `invalid` or `unavailable`.
#[cfg(any(feature = "mcp", feature = "web"))]
pub(crate) fn auth_failure(reason: &'static str) {
    METRICS
        .auth_failures
        .get_or_create(&ReasonLabel { reason })
        .inc();
}

/// Counts a job this process settled.
pub(crate) fn job_finished(state: JobState) {
    let state = match state {
        JobState::Pending => "pending",
        JobState::Running => "running",
        JobState::Complete => "complete",
        JobState::Failed => "failed",
        JobState::Cancelled => "cancelled",
    };
    METRICS
        .jobs_finished
        .get_or_create(&StateLabel { state })
        .inc();
}

/// Counts a call naming no tool of the catalogue, under the one `unknown`
/// tool label.
#[cfg(any(
    feature = "mcp",
    feature = "web",
    all(feature = "client", feature = "hoot")
))]
pub(crate) fn unknown_tool() {
    METRICS
        .calls
        .get_or_create(&CallLabels {
            tool: UNKNOWN_TOOL,
            outcome: Cow::Borrowed(crate::codes::UNKNOWN_TOOL),
        })
        .inc();
}
