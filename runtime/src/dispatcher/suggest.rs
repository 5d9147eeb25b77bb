//! "Did you mean …?" for a misspelt tool or action name: the rule the
//! checker and the macros share, from `toolwright-suggest`.

pub(super) use toolwright_suggest::closest;

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
    fn long_names_are_cut_for_messages() {
        assert_eq!(shown("add"), "add");
        let long = "é".repeat(100);
        let cut = shown(&long);
        assert!(cut.len() <= 64 + '…'.len_utf8());
        assert!(cut.ends_with('…'));
    }
}
