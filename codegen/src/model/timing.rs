//! Timing classes: how the dispatcher answers a call.

use serde::Serialize;

/// When and how a tool's result reaches the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// Answered inline.
    Sync,
    /// Inline if done within the short wait budget, else a job.
    AsyncShort,
    /// Inline if done within the medium wait budget, else a job.
    AsyncMedium,
    /// Always a job, answered with its id at once.
    AsyncLong,
    /// Acknowledged with a job id at once; the result is never sent.
    FireAndForget,
}

impl Timing {
    /// Every class, in IDL spelling.
    pub const NAMES: &'static [&'static str] = &[
        "sync",
        "async_short",
        "async_medium",
        "async_long",
        "fire_and_forget",
    ];

    const ALL: [Timing; 5] = [
        Timing::Sync,
        Timing::AsyncShort,
        Timing::AsyncMedium,
        Timing::AsyncLong,
        Timing::FireAndForget,
    ];

    /// The IDL spelling.
    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Parses the IDL spelling.
    pub fn from_name(name: &str) -> Option<Timing> {
        Self::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::Timing;

    #[test]
    fn names_round_trip() {
        for name in Timing::NAMES {
            assert_eq!(Timing::from_name(name).map(Timing::as_str), Some(*name));
        }
        assert_eq!(Timing::from_name("async"), None);
    }
}
