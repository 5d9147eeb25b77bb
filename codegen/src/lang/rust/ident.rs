//! Rust keywords and the identifiers that escape them. A leaf, like
//! prost-build's `ident.rs`: [`crate::options`] checks a runtime path
//! against it without importing the backend, and `names` builds every
//! generated identifier with it.

use proc_macro2::{Ident, Span};

/// Every keyword of Rust 2024, strict and reserved. Weak keywords (`union`,
/// `macro_rules`, `raw`, `safe`) are ordinary identifiers where fields live.
pub(crate) const KEYWORDS: &[&str] = &[
    // Strict.
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", // Reserved for future use.
    "abstract", "become", "box", "do", "final", "gen", "macro", "override", "priv", "try",
    "typeof", "unsized", "virtual", "yield",
];

/// Keywords that cannot be raw identifiers: they get a trailing underscore,
/// which no IDL name has.
pub(crate) const NOT_RAW: &[&str] = &["self", "Self", "super", "crate"];

/// True for a Rust keyword (strict or reserved, 2024 edition).
pub(crate) fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// An identifier for `name`: raw when it is a keyword that can be raw. The
/// checker admits only ASCII letters, digits and single underscores, so
/// anything else means the model was not built by the checker; it is
/// replaced rather than allowed to panic inside `proc_macro2`.
pub(crate) fn ident(name: &str) -> Ident {
    let valid = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_";
    if !valid {
        let mut fixed: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        if !fixed.starts_with(|c: char| c.is_ascii_alphabetic()) {
            fixed.insert(0, 'x');
        }
        return ident(&fixed);
    }
    if NOT_RAW.contains(&name) {
        // Only reachable for a model not built by the checker.
        return Ident::new(&format!("{name}_"), Span::call_site());
    }
    if is_keyword(name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_and_reserved_words_are_keywords_weak_ones_are_not() {
        for kw in ["type", "gen", "async", "self", "Self", "crate", "yield"] {
            assert!(is_keyword(kw), "{kw}");
        }
        for word in ["union", "macro_rules", "raw", "safe", "from", "toolwright"] {
            assert!(!is_keyword(word), "{word}");
        }
    }

    #[test]
    fn every_not_raw_word_is_a_keyword() {
        for kw in NOT_RAW {
            assert!(is_keyword(kw), "{kw}");
        }
    }

    #[test]
    fn keywords_become_raw_identifiers() {
        assert_eq!(ident("type").to_string(), "r#type");
        assert_eq!(ident("gen").to_string(), "r#gen");
        assert_eq!(ident("self").to_string(), "self_");
        assert_eq!(ident("union").to_string(), "union");
    }

    #[test]
    fn every_keyword_makes_a_valid_identifier() {
        for kw in KEYWORDS {
            let ident = ident(kw).to_string();
            assert!(syn::parse_str::<syn::Ident>(&ident).is_ok(), "{ident}");
        }
    }

    #[test]
    fn names_outside_the_idl_grammar_do_not_panic() {
        for odd in ["", "_", "9lives", "a-b", "ça", "self"] {
            let ident = ident(odd).to_string();
            assert!(
                syn::parse_str::<syn::Ident>(&ident).is_ok(),
                "{odd} → {ident}"
            );
        }
    }
}
