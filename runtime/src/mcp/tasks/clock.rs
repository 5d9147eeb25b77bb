//! The poll interval a task's timing class suggests, in both revisions
//! (their timestamps are `crate::time::iso`).

use crate::ToolTiming;

/// How often to poll a task of this timing class, in milliseconds.
pub(in crate::mcp) fn poll_interval(timing: ToolTiming) -> u64 {
    match timing {
        ToolTiming::Sync | ToolTiming::AsyncShort => 250,
        ToolTiming::AsyncMedium | ToolTiming::FireAndForget => 1000,
        ToolTiming::AsyncLong => 2000,
    }
}
