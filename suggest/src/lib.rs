//! "Did you mean …?": the closest known name to a misspelt one.
//!
//! One rule for every part of Toolwright that names things back to a user —
//! the IDL checker (an unknown type, clause or attribute), the `#[tools]`
//! macro (a handler for no tool) and the runtime (a call to no tool or
//! action) — so the compiler and the server suggest alike.
//!
//! ```
//! use toolwright_suggest::closest;
//!
//! let tools = ["job_status", "job_list", "add"];
//! assert_eq!(closest("job_stauts", tools), Some("job_status"));
//! assert_eq!(closest("JOB_LIST", tools), Some("job_list"));
//! assert_eq!(closest("banana", tools), None);
//! ```

/// Words longer than this are not compared: no name in a catalogue is that
/// long, and edit distance costs the product of the lengths (a runtime
/// caller may send anything).
pub const MAX_COMPARED: usize = 128;

/// The candidate closest to `word`, if one is close enough to be a
/// plausible typo: equal ignoring case, or within an edit distance
/// (Damerau–Levenshtein, ignoring case) of about a third of the word's
/// length (at least 1, at most 3). Ties go to the candidate that sorts
/// first; `word` itself is never suggested.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    closest_within(word, candidates, 3)
}

/// [`closest`], allowing at most `max_edits` edits however long the word:
/// for names made of short parts (`cas:read`, `cas:lead`), where three
/// edits reach names that mean something else.
///
/// ```
/// use toolwright_suggest::closest_within;
///
/// let scopes = ["project:admin", "cas:read"];
/// assert_eq!(closest_within("cas:raed", scopes, 2), Some("cas:read"));
/// assert_eq!(closest_within("project:audit", scopes, 2), None);
/// ```
pub fn closest_within<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    max_edits: usize,
) -> Option<&'a str> {
    if word.len() > MAX_COMPARED {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    let budget = (word.chars().count() / 3).clamp(1, 3).min(max_edits);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == word || candidate.len() > MAX_COMPARED {
            continue;
        }
        // Case slips are the commonest typo (`String`, `Strin`): compare
        // without case, so only real misspellings count against the budget.
        let distance = strsim::damerau_levenshtein(&lower, &candidate.to_ascii_lowercase());
        if distance <= budget && best.is_none_or(|(d, c)| (distance, candidate) < (d, c)) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::{closest, closest_within};

    #[test]
    fn finds_typos_and_case_slips() {
        let names = ["Region", "GardenStatus", "string", "u32"];
        assert_eq!(closest("Regoin", names), Some("Region"));
        assert_eq!(closest("region", names), Some("Region"));
        assert_eq!(closest("strng", names), Some("string"));
        assert_eq!(closest("Strin", names), Some("string"));
        assert_eq!(closest("GardenStats", names), Some("GardenStatus"));
        let tools = ["add", "multiply", "garden_status", "garden_play"];
        assert_eq!(closest("multiplyy", tools), Some("multiply"));
        assert_eq!(closest("garden_stauts", tools), Some("garden_status"));
        assert_eq!(closest("ad", tools), Some("add"));
    }

    #[test]
    fn ignores_distant_and_identical_names() {
        assert_eq!(closest("subtract", ["add", "multiply"]), None);
        assert_eq!(closest("x", ["add"]), None);
        assert_eq!(closest("add", ["add"]), None);
        assert_eq!(closest(&"x".repeat(10_000), ["add"]), None);
    }

    #[test]
    fn the_budget_grows_with_the_word() {
        // 1 edit up to 5 characters, 2 from 6, 3 from 9, never more.
        assert_eq!(closest("abxd", ["abcd"]), Some("abcd"));
        assert_eq!(closest("abxy", ["abcd"]), None);
        assert_eq!(closest("abcxyf", ["abcdef"]), Some("abcdef"));
        assert_eq!(closest("abcdefxyz", ["abcdefghi"]), Some("abcdefghi"));
        assert_eq!(closest("abcdefghijkwxyz", ["abcdefghijklmno"]), None);
    }

    #[test]
    fn a_cap_on_edits_keeps_long_words_apart() {
        assert_eq!(
            closest("project:audit", ["project:admin"]),
            Some("project:admin")
        );
        assert_eq!(closest_within("project:audit", ["project:admin"], 2), None);
        assert_eq!(
            closest_within("project:admn", ["project:admin"], 2),
            Some("project:admin")
        );
        assert_eq!(closest_within("abxd", ["abcd"], 0), None);
    }

    #[test]
    fn ties_go_to_the_first_in_order() {
        assert_eq!(closest("cat", ["cut", "bat"]), Some("bat"));
    }
}
