//! The times a task shows, in both revisions: its timestamps (ISO 8601,
//! UTC) and the poll interval its timing class suggests.

use crate::ToolTiming;

/// How often to poll a task of this timing class, in milliseconds.
pub(in crate::mcp) fn poll_interval(timing: ToolTiming) -> u64 {
    match timing {
        ToolTiming::Sync | ToolTiming::AsyncShort => 250,
        ToolTiming::AsyncMedium | ToolTiming::FireAndForget => 1000,
        ToolTiming::AsyncLong => 2000,
    }
}

/// Milliseconds since the Unix epoch as an ISO 8601 UTC timestamp,
/// `2026-11-22T06:01:00.000Z`.
pub(in crate::mcp) fn iso8601(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(i64::try_from(days).unwrap_or(i64::MAX));
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms % 1000
    )
}

/// The civil date of a day count since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
pub(in crate::mcp) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_iso_8601_utc() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(951_782_400_123), "2000-02-29T00:00:00.123Z");
        assert_eq!(iso8601(1_795_328_460_000), "2026-11-22T06:21:00.000Z");
    }
}
