//! A resource or prompt as the generated `__toolwright_catalogue!`
//! describes it:
//!
//! ```text
//! resource "cas_object" { arguments CasObjectArguments, contents bytes,
//!     error CasError, scopes ["cas:read"], declared "idl/cas.tool:6:1",
//!     complete "hash", }
//! prompt "compose" { arguments ComposeArguments, declared "…", }
//! ```

use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token, Type, braced, bracketed};

use crate::catalogue::{malformed, set};

/// A resource or a prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EntryKind {
    Resource,
    Prompt,
}

impl EntryKind {
    /// The keyword the description and the attribute use.
    pub(crate) const fn word(self) -> &'static str {
        match self {
            EntryKind::Resource => "resource",
            EntryKind::Prompt => "prompt",
        }
    }
}

/// How a resource's contents are carried.
pub(crate) enum Contents {
    Text,
    Bytes,
    /// A declared type, carried as its JSON text.
    Json(Box<Type>),
}

/// One resource or prompt.
pub(crate) struct EntryDesc {
    pub(crate) kind: EntryKind,
    pub(crate) name: String,
    /// Its arguments' struct; `None` when it takes none.
    pub(crate) arguments: Option<Type>,
    /// A resource's contents; `None` for a prompt.
    pub(crate) contents: Option<Contents>,
    /// Its error type; `None` when it declares none (`ToolError`).
    pub(crate) error: Option<Type>,
    /// The scopes reading or getting it needs.
    pub(crate) scopes: Vec<LitStr>,
    /// Where the IDL declares it.
    pub(crate) declared: String,
    /// The arguments a `#[complete]` handler completes, in order.
    pub(crate) complete: Vec<String>,
}

impl EntryDesc {
    /// Whether a description item starting with `keyword` is an entry's.
    pub(crate) fn starts(keyword: &Ident) -> bool {
        keyword == "resource" || keyword == "prompt"
    }
}

impl Parse for EntryDesc {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let keyword: Ident = input.parse()?;
        let kind = match keyword.to_string().as_str() {
            "resource" => EntryKind::Resource,
            "prompt" => EntryKind::Prompt,
            _ => return Err(malformed(keyword.span(), "expected `resource` or `prompt`")),
        };
        let name: LitStr = input.parse()?;
        let content;
        braced!(content in input);
        let mut entry = EntryDesc {
            kind,
            name: name.value(),
            arguments: None,
            contents: None,
            error: None,
            scopes: Vec::new(),
            declared: String::new(),
            complete: Vec::new(),
        };
        let mut declared = None;
        while !content.is_empty() {
            let key: Ident = content.parse()?;
            let span = key.span();
            let duplicate = || malformed(span, format!("`{key}` given twice"));
            match key.to_string().as_str() {
                "arguments" => set(&mut entry.arguments, content.parse()?).ok_or_else(duplicate)?,
                "error" => set(&mut entry.error, content.parse()?).ok_or_else(duplicate)?,
                "declared" => {
                    set(&mut declared, content.parse::<LitStr>()?).ok_or_else(duplicate)?
                }
                "contents" if kind == EntryKind::Resource => {
                    let how: Ident = content.parse()?;
                    let contents = match how.to_string().as_str() {
                        "text" => Contents::Text,
                        "bytes" => Contents::Bytes,
                        "json" => Contents::Json(Box::new(content.parse()?)),
                        _ => {
                            return Err(malformed(how.span(), format!("unknown contents `{how}`")));
                        }
                    };
                    set(&mut entry.contents, contents).ok_or_else(duplicate)?;
                }
                "scopes" => {
                    let list;
                    bracketed!(list in content);
                    let scopes = list.parse_terminated(<LitStr as Parse>::parse, Token![,])?;
                    entry.scopes.extend(scopes);
                }
                "complete" => entry.complete.push(content.parse::<LitStr>()?.value()),
                _ => return Err(malformed(span, format!("unknown key `{key}`"))),
            }
            if !content.is_empty() {
                content.parse::<Token![,]>()?;
            }
        }
        let missing = |key: &str| {
            let message = format!("{} \"{}\" has no `{key}`", kind.word(), name.value());
            malformed(name.span(), message)
        };
        entry.declared = declared.ok_or_else(|| missing("declared"))?.value();
        if kind == EntryKind::Resource && entry.contents.is_none() {
            return Err(missing("contents"));
        }
        Ok(entry)
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::*;
    use crate::catalogue::Catalogue;

    #[test]
    fn reads_resources_and_prompts_beside_tools() {
        let catalogue: Catalogue = syn::parse2(quote! {
            tool "add" { variant Add, marker AddTool, timing sync, declared "a.tool:1:1", }
            resource "cas_object" {
                arguments CasObjectArguments, contents bytes, error CasError,
                scopes ["cas:read", "cas:list"], declared "cas.tool:6:1", complete "hash",
            }
            resource "listing" { contents json CasListing, declared "cas.tool:9:1", }
            prompt "compose" { arguments ComposeArguments, declared "cas.tool:20:1", }
        })
        .unwrap();
        assert_eq!(catalogue.tools.len(), 1);
        let [object, listing, compose] = &catalogue.entries[..] else {
            panic!("three entries expected");
        };
        assert_eq!(
            (object.kind, object.name.as_str()),
            (EntryKind::Resource, "cas_object")
        );
        assert!(matches!(object.contents, Some(Contents::Bytes)));
        assert_eq!(object.scopes.len(), 2);
        assert_eq!(object.complete, ["hash"]);
        assert!(matches!(listing.contents, Some(Contents::Json(_))));
        assert!(listing.arguments.is_none());
        assert_eq!(compose.kind, EntryKind::Prompt);
        assert_eq!(compose.declared, "cas.tool:20:1");
    }

    #[test]
    fn rejects_what_the_generator_never_writes() {
        let cases = [
            (
                quote! { resource "r" { declared "x" } },
                "resource \"r\" has no `contents`",
            ),
            (
                quote! { prompt "p" { contents text, declared "x" } },
                "unknown key `contents`",
            ),
            (
                quote! { resource "r" { contents html, declared "x" } },
                "unknown contents `html`",
            ),
            (quote! { prompt "p" { } }, "prompt \"p\" has no `declared`"),
        ];
        for (tokens, what) in cases {
            let error = syn::parse2::<Catalogue>(tokens)
                .err()
                .map(|e| e.to_string());
            assert!(
                error.as_deref().is_some_and(|e| e.contains(what)),
                "{error:?}"
            );
        }
    }
}
