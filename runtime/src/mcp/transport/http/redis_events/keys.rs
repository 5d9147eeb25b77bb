//! Where the events are in Redis, and for how long.

use std::time::Duration;

/// How long a session nobody uses is kept, and the events of its streams
/// with it: refreshed by each write.
pub(in crate::mcp) const IDLE: Duration = Duration::from_secs(24 * 60 * 60);

/// The events kept per stream: older ones are trimmed (`MAXLEN ~`, so a
/// few more may stay).
pub(super) const KEPT: usize = 1000;

/// The counter stream numbers are drawn from.
pub(super) const NUMBERS: &str = "toolwright:mcp-event-streams";

/// The prefix of a stream's key; its number follows.
const PREFIX: &str = "toolwright:mcp-events:";

/// The key of stream `number`.
pub(super) fn key(number: u64) -> String {
    format!("{PREFIX}{number}")
}

/// [`IDLE`] in milliseconds.
pub(super) fn idle_ms() -> u64 {
    u64::try_from(IDLE.as_millis()).unwrap_or(u64::MAX)
}

/// A Redis stream entry's id for the event at `place` (ids start above
/// `0-0`).
pub(super) fn entry(place: u64) -> String {
    format!("0-{}", place.saturating_add(1))
}
