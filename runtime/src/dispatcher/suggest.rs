//! "Did you mean …?" for a misspelt tool or action name: the rule the
//! checker and the macros share, from `toolwright-suggest`.

pub(super) use toolwright_suggest::closest;

pub(super) use crate::error::shown;
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
