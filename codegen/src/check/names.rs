//! Naming rules of the IDL and collision detection after case conversion.
//!
//! IDL names are snake_case (`abc_parse`) or PascalCase (`AbcParsed`). The
//! backends derive their own spellings (`AbcParse` for a Rust variant,
//! `ABC_PARSE` for an error code), so two distinct IDL names that convert to
//! the same spelling are caught here, once, for every target.

use std::collections::HashMap;

use heck::{ToSnakeCase, ToUpperCamelCase};

use crate::diag::{Ctxt, messages};
use crate::source::Span;
use crate::syntax::ast::Ident;

/// `[a-z][a-z0-9]*(_[a-z0-9]+)*`: no leading, trailing or doubled `_`, so a
/// backend can append `_` to escape a keyword without meeting a real name.
pub(crate) fn is_snake(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && name.split('_').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// `[A-Z][A-Za-z0-9]*`.
pub(crate) fn is_pascal(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase()) && chars.all(|c| c.is_ascii_alphanumeric())
}

/// `abc_to_midi` → `AbcToMidi`: the spelling of Rust variants and of the
/// generated `<Tool>Request` / `<Tool>Tool` names.
pub(crate) fn pascal(name: &str) -> String {
    name.to_upper_camel_case()
}

/// `parse_failed` → `PARSE_FAILED`: an error variant's wire code.
pub(crate) fn screaming(name: &str) -> String {
    name.to_ascii_uppercase()
}

pub(crate) fn check_snake(cx: &mut Ctxt, ident: &Ident, what: &str) -> bool {
    if is_snake(&ident.name) {
        return true;
    }
    let fixed = ident.name.to_snake_case();
    cx.push(messages::naming_convention(
        ident.span,
        what,
        &ident.name,
        "snake_case",
        &fixed,
    ));
    false
}

pub(crate) fn check_pascal(cx: &mut Ctxt, ident: &Ident, what: &str) -> bool {
    if is_pascal(&ident.name) {
        return true;
    }
    let fixed = ident.name.to_upper_camel_case();
    cx.push(messages::naming_convention(
        ident.span,
        what,
        &ident.name,
        "PascalCase",
        &fixed,
    ));
    false
}

/// Names already seen in one namespace, exactly and after conversion, each
/// with the kind of thing that holds it (tools, resources and prompts share
/// one namespace).
pub(crate) struct Namespace<'a> {
    what: &'a str,
    exact: HashMap<String, (Span, &'a str)>,
    converted: HashMap<String, (String, Span, &'a str)>,
}

impl<'a> Namespace<'a> {
    /// `what` names the members in messages ("field", "tool", …).
    pub(crate) fn new(what: &'a str) -> Self {
        Namespace {
            what,
            exact: HashMap::new(),
            converted: HashMap::new(),
        }
    }

    /// Names the kind of the members inserted from now on ("resource"),
    /// in a namespace several kinds share.
    pub(crate) fn set_kind(&mut self, what: &'a str) {
        self.what = what;
    }

    /// Records `ident`; reports a duplicate and returns false if the name was
    /// seen before.
    pub(crate) fn insert(&mut self, cx: &mut Ctxt, ident: &Ident) -> bool {
        if let Some(&(first, kind)) = self.exact.get(&ident.name) {
            cx.push(if kind == self.what {
                messages::duplicate(ident.span, self.what, &ident.name, first)
            } else {
                messages::duplicate_across(ident.span, self.what, &ident.name, kind, first)
            });
            return false;
        }
        self.exact
            .insert(ident.name.clone(), (ident.span, self.what));
        true
    }

    /// Checks that `ident` is snake_case, then records it with its PascalCase
    /// spelling (see [`Namespace::insert_converted`]). A badly spelt name is
    /// recorded as written only: it gets one diagnostic, not a second one for
    /// colliding with the spelling it should have had.
    pub(crate) fn insert_snake(
        &mut self,
        cx: &mut Ctxt,
        ident: &Ident,
        what: &str,
        purpose: &str,
    ) -> bool {
        if check_snake(cx, ident, what) {
            self.insert_converted(cx, ident, pascal(&ident.name), purpose)
        } else {
            self.insert(cx, ident)
        }
    }

    /// Records `ident` and its converted spelling; reports a name that is new
    /// but converts like an earlier one. `purpose` says where the converted
    /// spelling is used.
    pub(crate) fn insert_converted(
        &mut self,
        cx: &mut Ctxt,
        ident: &Ident,
        converted: String,
        purpose: &str,
    ) -> bool {
        if !self.insert(cx, ident) {
            return false;
        }
        if let Some((other, other_span, kind)) = self.converted.get(&converted) {
            // "tool `a_2` and `a2`", or "resource `a_2` and tool `a2`".
            let other = if *kind == self.what {
                format!("`{other}`")
            } else {
                format!("{kind} `{other}`")
            };
            cx.push(messages::case_collision(
                ident.span,
                self.what,
                &ident.name,
                &other,
                *other_span,
                &converted,
                purpose,
            ));
            return false;
        }
        self.converted
            .insert(converted, (ident.name.clone(), ident.span, self.what));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_rules() {
        for ok in ["a", "abc_parse", "cas_store2", "v_2", "type"] {
            assert!(is_snake(ok), "{ok}");
        }
        for bad in ["", "Abc", "abc_", "_abc", "a__b", "abcParse", "2a"] {
            assert!(!is_snake(bad), "{bad}");
        }
    }

    #[test]
    fn pascal_case_rules() {
        for ok in ["A", "AbcParsed", "HTTPStatus", "V2"] {
            assert!(is_pascal(ok), "{ok}");
        }
        for bad in ["", "abc", "Abc_Parsed", "_A"] {
            assert!(!is_pascal(bad), "{bad}");
        }
    }

    #[test]
    fn conversions_that_collide() {
        assert_eq!(pascal("cas_store_2"), pascal("cas_store2"));
        assert_eq!(pascal("abc_to_midi"), "AbcToMidi");
        assert_eq!(screaming("parse_failed"), "PARSE_FAILED");
    }
}
