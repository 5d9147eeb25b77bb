//! "Did you mean …?" for a `#[tool]` whose name no tool has.
//!
//! The same rule as the IDL checker's (`toolwright-codegen`'s `suggest.rs`),
//! restated here so that the proc-macro does not depend on the whole
//! frontend for twenty lines.

/// The candidate closest to `word`, if one is close enough to be a plausible
/// typo: equal ignoring case, or within an edit distance of about a third of
/// the word's length (at least 1, at most 3).
pub(crate) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    let budget = (word.chars().count() / 3).clamp(1, 3);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        // Case slips are the commonest typo: compare without case, so only
        // real misspellings count against the budget.
        let distance = strsim::damerau_levenshtein(&lower, &candidate.to_ascii_lowercase());
        if distance <= budget && best.is_none_or(|(d, c)| (distance, candidate) < (d, c)) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn finds_typos() {
        let names = ["add", "multiply", "garden_status", "garden_play"];
        assert_eq!(closest("multiplyy", names), Some("multiply"));
        assert_eq!(closest("garden_stauts", names), Some("garden_status"));
        assert_eq!(closest("Add", names), Some("add"));
        assert_eq!(closest("ad", names), Some("add"));
    }

    #[test]
    fn ignores_distant_names() {
        assert_eq!(closest("subtract", ["add", "multiply"]), None);
        assert_eq!(closest("x", ["add"]), None);
    }
}
