//! Rust spellings of IDL names: field and variant identifiers and the
//! serde renames that keep the wire names. Keywords and their escapes are
//! in `ident`.

use heck::ToUpperCamelCase;
use proc_macro2::Ident;

use super::ident::{NOT_RAW, ident};

/// A Rust identifier for an IDL name, and the wire name serde must be told
/// when the identifier does not spell it.
pub(crate) struct Name {
    pub(crate) ident: Ident,
    /// `Some("self")` for `self_`; `None` when serde's own spelling is right.
    pub(crate) rename: Option<String>,
}

/// The identifier of a field: `type` → `r#type` (serde strips the `r#`),
/// `self` → `self_` renamed back to `"self"`.
pub(crate) fn field(name: &str) -> Name {
    if NOT_RAW.contains(&name) {
        return Name {
            ident: ident(&format!("{name}_")),
            rename: Some(name.to_owned()),
        };
    }
    Name {
        ident: ident(name),
        rename: None,
    }
}

/// The variant of an enum, union, error, `ToolRequest` or action enum:
/// PascalCase of the snake_case IDL name (`not_found` → `NotFound`), and
/// the rename serde needs when its `rename_all = "snake_case"` would not
/// give the IDL name back (`timeout_2` → `Timeout2` → `"timeout2"`).
pub(crate) fn variant(name: &str) -> Name {
    let pascal = pascal(name);
    let rename = (serde_snake(&pascal) != name).then(|| name.to_owned());
    if NOT_RAW.contains(&pascal.as_str()) {
        // `self` → `Self_`, renamed back.
        return Name {
            ident: ident(&format!("{pascal}_")),
            rename: Some(name.to_owned()),
        };
    }
    Name {
        ident: ident(&pascal),
        rename,
    }
}

/// `abc_parse` → `AbcParse`: the checker builds generated type names the
/// same way.
pub(crate) fn pascal(name: &str) -> String {
    name.to_upper_camel_case()
}

/// What serde's `rename_all = "snake_case"` makes of a variant name: an
/// underscore before every uppercase letter but the first, then lowercase.
/// (heck differs on runs of capitals, so it cannot stand in for serde.)
pub(crate) fn serde_snake(pascal: &str) -> String {
    let mut out = String::with_capacity(pascal.len() + 4);
    for (i, c) in pascal.char_indices() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The identifier of a type the model names (`Region`, `FsReadRequest`).
pub(crate) fn type_ident(name: &str) -> Ident {
    ident(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::rust::ident::KEYWORDS;

    #[test]
    fn keywords_become_raw_identifiers() {
        for kw in [
            "type", "gen", "async", "await", "dyn", "try", "fn", "match", "yield",
        ] {
            let name = field(kw);
            assert_eq!(name.ident.to_string(), format!("r#{kw}"));
            assert_eq!(name.rename, None, "serde strips `r#` itself");
        }
        assert_eq!(field("union").ident.to_string(), "union", "weak keyword");
        assert_eq!(field("from").ident.to_string(), "from");
    }

    #[test]
    fn keywords_that_cannot_be_raw_get_an_underscore_and_a_rename() {
        for kw in ["self", "super", "crate"] {
            let name = field(kw);
            assert_eq!(name.ident.to_string(), format!("{kw}_"));
            assert_eq!(name.rename.as_deref(), Some(kw));
        }
        let v = variant("self");
        assert_eq!(v.ident.to_string(), "Self_");
        assert_eq!(v.rename.as_deref(), Some("self"));
    }

    #[test]
    fn every_keyword_makes_a_valid_identifier() {
        for kw in KEYWORDS {
            let ident = field(kw).ident.to_string();
            assert!(syn::parse_str::<syn::Ident>(&ident).is_ok(), "{ident}");
            let ident = variant(kw).ident.to_string();
            assert!(syn::parse_str::<syn::Ident>(&ident).is_ok(), "{ident}");
        }
    }

    #[test]
    fn variants_are_renamed_only_when_serde_would_misspell_them() {
        let cases = [
            ("not_found", "NotFound", None),
            ("timeout_2", "Timeout2", Some("timeout_2")),
            ("x86_64", "X8664", Some("x86_64")),
            ("v2_beta", "V2Beta", None),
            ("a", "A", None),
            ("abc_v2", "AbcV2", None),
        ];
        for (idl, rust, rename) in cases {
            let v = variant(idl);
            assert_eq!(v.ident.to_string(), rust, "{idl}");
            assert_eq!(v.rename.as_deref(), rename, "{idl}");
        }
    }

    #[test]
    fn serde_snake_matches_serde() {
        assert_eq!(serde_snake("AbcToMidi"), "abc_to_midi");
        assert_eq!(serde_snake("AB"), "a_b");
        assert_eq!(serde_snake("Timeout2"), "timeout2");
    }
}
