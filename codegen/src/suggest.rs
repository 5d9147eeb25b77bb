//! "Did you mean …?" — the closest known name to a misspelt one.

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
    use super::closest;

    #[test]
    fn finds_typos_and_case_slips() {
        let names = ["Region", "GardenStatus", "string", "u32"];
        assert_eq!(closest("Regoin", names), Some("Region"));
        assert_eq!(closest("region", names), Some("Region"));
        assert_eq!(closest("strng", names), Some("string"));
        assert_eq!(closest("Strin", names), Some("string"));
        assert_eq!(closest("GardenStats", names), Some("GardenStatus"));
    }

    #[test]
    fn ignores_distant_names() {
        assert_eq!(closest("Banana", ["Region", "u32"]), None);
        assert_eq!(closest("u3", ["u32"]), Some("u32"));
        assert_eq!(closest("x", ["Region"]), None);
    }
}
