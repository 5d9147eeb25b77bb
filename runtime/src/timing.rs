//! Timing classes: how long a tool may take, and so how the dispatcher answers.

use serde::{Deserialize, Serialize};

/// How long a tool may take, and so how the dispatcher answers a call.
///
/// The wire spelling is snake_case (`"async_short"`), as in the IDL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolTiming {
    /// Answers inline; the caller waits for the result.
    Sync,
    /// Runs as a job; answered inline if it ends within the short wait
    /// budget (30 s by default), else with `JobStarted`.
    AsyncShort,
    /// Runs as a job; answered inline if it ends within the medium wait
    /// budget (120 s by default), else with `JobStarted`.
    AsyncMedium,
    /// Runs as a job; answered with `JobStarted` at once.
    AsyncLong,
    /// Runs as a job; acknowledged with its job id at once, failures recorded.
    FireAndForget,
}

impl ToolTiming {
    /// Every timing class, shortest first.
    pub const ALL: [ToolTiming; 5] = [
        ToolTiming::Sync,
        ToolTiming::AsyncShort,
        ToolTiming::AsyncMedium,
        ToolTiming::AsyncLong,
        ToolTiming::FireAndForget,
    ];

    /// The IDL and wire spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            ToolTiming::Sync => "sync",
            ToolTiming::AsyncShort => "async_short",
            ToolTiming::AsyncMedium => "async_medium",
            ToolTiming::AsyncLong => "async_long",
            ToolTiming::FireAndForget => "fire_and_forget",
        }
    }

    /// True when a call of this class runs as a job.
    pub const fn is_job(self) -> bool {
        !matches!(self, ToolTiming::Sync)
    }
}

impl std::fmt::Display for ToolTiming {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
