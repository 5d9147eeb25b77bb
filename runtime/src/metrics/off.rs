//! Without the `metrics` feature: the same calls, doing nothing.

use crate::jobs::JobState;

/// Counts nothing.
#[cfg(any(
    feature = "mcp",
    feature = "web",
    all(feature = "client", feature = "hoot")
))]
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Calls;

/// Reads no clock.
#[cfg(any(
    feature = "mcp",
    feature = "web",
    all(feature = "client", feature = "hoot")
))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Clock;

#[cfg(any(
    feature = "mcp",
    feature = "web",
    all(feature = "client", feature = "hoot")
))]
impl Calls {
    pub(crate) fn new(_: &'static [crate::ToolInfo], _: &crate::edge::Schema) -> Self {
        Calls
    }

    #[inline]
    pub(crate) fn start(&self) -> Clock {
        Clock
    }

    #[inline]
    pub(crate) fn record(&self, _: &str, _: super::CallOutcome<'_>, _: Clock) {}
}

#[cfg(any(feature = "mcp", feature = "web"))]
#[inline]
pub(crate) fn auth_failure(_: &'static str) {}

#[inline]
pub(crate) fn job_finished(_: JobState) {}

#[cfg(any(
    feature = "mcp",
    feature = "web",
    all(feature = "client", feature = "hoot")
))]
#[inline]
pub(crate) fn unknown_tool() {}
