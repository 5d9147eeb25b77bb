//! The MCP revisions the server speaks, as one typed value, and what each
//! has that the others do not: the rules that used to be date strings
//! compared where they were needed.

use std::fmt;

/// The protocol revisions the server speaks, oldest first: through
/// `initialize` up to 2025-11-25, and 2026-07-28, whose requests each name
/// their revision.
pub const PROTOCOL_VERSIONS: [&str; 5] = [
    Revision::V2024_11_05.as_str(),
    Revision::V2025_03_26.as_str(),
    Revision::V2025_06_18.as_str(),
    Revision::V2025_11_25.as_str(),
    Revision::V2026_07_28.as_str(),
];

/// An MCP protocol revision, ordered by date.
///
/// A revision the server does not know (a client's newer one, say) is
/// still a date: [`Revision::is_before`] and [`Revision::is_after`] compare
/// its text against a known revision, as revisions compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Revision {
    /// The first dated revision.
    V2024_11_05,
    /// Streamable HTTP; the last with JSON-RPC batches.
    V2025_03_26,
    /// Structured tool output, elicitation; batches removed.
    V2025_06_18,
    /// The tasks utility (`tasks/get`, `tasks/result`, …).
    V2025_11_25,
    /// Requests name their revision in `_meta`; no `initialize`, tasks as
    /// an extension (SEP-2663).
    V2026_07_28,
}

impl Revision {
    /// Every revision the server speaks, oldest first.
    pub const ALL: [Revision; 5] = [
        Revision::V2024_11_05,
        Revision::V2025_03_26,
        Revision::V2025_06_18,
        Revision::V2025_11_25,
        Revision::V2026_07_28,
    ];

    /// The newest revision with JSON-RPC batches.
    pub const LAST_WITH_BATCHES: Revision = Revision::V2025_03_26;

    /// The revision whose tasks utility the server serves (later ones
    /// have tasks as an extension instead).
    pub const TASKS: Revision = Revision::V2025_11_25;

    /// The first revision whose requests name themselves, with no
    /// `initialize` (SEP-2575).
    pub const STATELESS: Revision = Revision::V2026_07_28;

    /// Its date, as the protocol writes it: `"2025-11-25"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Revision::V2024_11_05 => "2024-11-05",
            Revision::V2025_03_26 => "2025-03-26",
            Revision::V2025_06_18 => "2025-06-18",
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
        }
    }

    /// The known revision written `text`.
    pub fn parse(text: &str) -> Option<Revision> {
        Revision::ALL.into_iter().find(|r| r.as_str() == text)
    }

    /// True when the revision written `text`, known or not, is older than
    /// this one. Revisions are dates, so their text compares as they do.
    pub fn is_after(self, text: &str) -> bool {
        text < self.as_str()
    }

    /// True when the revision written `text`, known or not, is newer than
    /// this one.
    pub fn is_before(self, text: &str) -> bool {
        text > self.as_str()
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_order_as_their_dates_and_parse_back() {
        for pair in Revision::ALL.windows(2) {
            assert!(pair[0] < pair[1]);
            assert!(pair[0].as_str() < pair[1].as_str());
        }
        for revision in Revision::ALL {
            assert_eq!(Revision::parse(revision.as_str()), Some(revision));
        }
        assert_eq!(Revision::parse("2025-11-26"), None);
        // `rmcp` knows the same revisions.
        let known =
            rmcp::model::ProtocolVersion::known_up_to(&rmcp::model::ProtocolVersion::LATEST);
        let known: Vec<String> = known.iter().map(ToString::to_string).collect();
        assert_eq!(known, Revision::ALL.map(|r| r.as_str().to_owned()));
    }

    #[test]
    fn unknown_revisions_compare_by_date() {
        assert!(Revision::LAST_WITH_BATCHES.is_before("2027-01-01"));
        assert!(Revision::LAST_WITH_BATCHES.is_before("2025-06-18"));
        assert!(!Revision::LAST_WITH_BATCHES.is_before("2025-03-26"));
        assert!(Revision::TASKS.is_after("2025-06-18"));
        assert!(!Revision::TASKS.is_after("2025-11-25"));
    }
}
