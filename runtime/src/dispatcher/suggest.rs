//! "Did you mean …?" for a misspelt tool or action name.

/// Names longer than this are not compared: no tool is named like that, and
/// edit distance costs the product of the lengths.
const MAX_COMPARED: usize = 128;

/// The candidate closest to `word`, if one is close enough to be a plausible
/// typo: equal ignoring case, or within an edit distance of about a third of
/// the word's length (at least 1, at most 3). The same rule as the IDL
/// checker's, so the runtime and the compiler suggest alike.
pub(super) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if word.len() > MAX_COMPARED {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    let budget = (word.chars().count() / 3).clamp(1, 3);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        let distance = strsim::damerau_levenshtein(&lower, &candidate.to_ascii_lowercase());
        if distance <= budget && best.is_none_or(|(d, c)| (distance, candidate) < (d, c)) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// `name` cut to a length fit for an error message, on a char boundary.
pub(super) fn shown(name: &str) -> String {
    const SHOWN: usize = 64;
    if name.len() <= SHOWN {
        return name.to_owned();
    }
    let mut end = SHOWN;
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &name[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let names = ["job_status", "job_list", "add"];
        assert_eq!(closest("job_stauts", names), Some("job_status"));
        assert_eq!(closest("JOB_LIST", names), Some("job_list"));
        assert_eq!(closest("ad", names), Some("add"));
        assert_eq!(closest("banana", names), None);
        assert_eq!(closest(&"x".repeat(10_000), names), None);
    }

    #[test]
    fn long_names_are_cut_for_messages() {
        assert_eq!(shown("add"), "add");
        let long = "é".repeat(100);
        let cut = shown(&long);
        assert!(cut.len() <= 64 + '…'.len_utf8());
        assert!(cut.ends_with('…'));
    }
}
