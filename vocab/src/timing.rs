//! Timing classes: how long a tool may take, and so how the dispatcher
//! answers a call (`timing async_short` in the IDL).

/// How long a tool may take, and so how the dispatcher answers a call.
///
/// The IDL and wire spelling is snake_case (`"async_short"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
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

    /// Every class's spelling, in the order of [`ToolTiming::ALL`].
    pub const NAMES: &'static [&'static str] = &[
        ToolTiming::Sync.as_str(),
        ToolTiming::AsyncShort.as_str(),
        ToolTiming::AsyncMedium.as_str(),
        ToolTiming::AsyncLong.as_str(),
        ToolTiming::FireAndForget.as_str(),
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

    /// The class spelled `name`, or `None` for anything else.
    pub fn from_name(name: &str) -> Option<ToolTiming> {
        Self::ALL.into_iter().find(|t| t.as_str() == name)
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

#[cfg(test)]
mod tests {
    use super::ToolTiming;

    #[test]
    fn names_round_trip_in_order() {
        assert_eq!(ToolTiming::NAMES.len(), ToolTiming::ALL.len());
        for (timing, name) in ToolTiming::ALL.into_iter().zip(ToolTiming::NAMES) {
            assert_eq!(timing.as_str(), *name);
            assert_eq!(ToolTiming::from_name(name), Some(timing));
            assert_eq!(timing.to_string(), *name);
        }
        assert_eq!(ToolTiming::from_name("async"), None);
        assert_eq!(ToolTiming::from_name("Sync"), None);
    }

    #[test]
    fn only_sync_answers_without_a_job() {
        let jobs: Vec<bool> = ToolTiming::ALL.map(ToolTiming::is_job).to_vec();
        assert_eq!(jobs, [false, true, true, true, true]);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_spells_each_class_as_the_idl_does() {
        for timing in ToolTiming::ALL {
            let json = serde_json::to_value(timing).unwrap();
            assert_eq!(json, serde_json::Value::from(timing.as_str()));
            assert_eq!(serde_json::from_value::<ToolTiming>(json).unwrap(), timing);
        }
    }
}
