//! Finds the `#[resource]`, `#[prompt]` and `#[complete(entry.argument)]`
//! methods of the user's block and removes the attributes.

use proc_macro2::{Span, TokenStream};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Attribute, Ident, ImplItem, ItemImpl, LitStr, Meta, Signature, Token};

use super::EntryKind;
use crate::diag::Errors;

/// The attributes, without the crate's path.
const RESOURCE: &str = "resource";
const PROMPT: &str = "prompt";
const COMPLETE: &str = "complete";
const CRATE: &str = "toolwright";

/// What a method is marked as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MarkKind {
    /// `#[resource]` or `#[prompt]`: the entry's handler.
    Entry(EntryKind),
    /// `#[complete(entry.argument)]`: completes that argument.
    Complete { argument: String },
}

/// A marked method.
pub(crate) struct EntryMark {
    pub(crate) kind: MarkKind,
    /// The entry it serves: the method's name, the `name = "…"` given, or
    /// the entry of `#[complete(entry.argument)]`.
    pub(crate) entry: String,
    /// Where that name is written.
    pub(crate) span: Span,
    pub(crate) sig: Signature,
    /// The predicates of its `#[cfg(...)]` attributes.
    pub(crate) cfgs: Vec<TokenStream>,
}

/// True for `#[resource]`, `#[prompt]`, `#[complete(..)]`, with or without
/// `toolwright::` in front.
pub(crate) fn is_entry_attr(attr: &Attribute) -> bool {
    word(attr).is_some()
}

fn word(attr: &Attribute) -> Option<&'static str> {
    let segments: Vec<_> = attr.path().segments.iter().map(|s| &s.ident).collect();
    let last = match segments[..] {
        [one] if attr.path().leading_colon.is_none() => one,
        [krate, one] if krate == CRATE => one,
        _ => return None,
    };
    [RESOURCE, PROMPT, COMPLETE].into_iter().find(|w| last == w)
}

/// Every marked method of `item`, in order; strips the attributes.
pub(crate) fn collect(item: &mut ItemImpl, errors: &mut Errors) -> Vec<EntryMark> {
    let mut marks = Vec::new();
    for impl_item in &mut item.items {
        let (attrs, sig) = match impl_item {
            ImplItem::Fn(f) => (&mut f.attrs, Some(&f.sig)),
            ImplItem::Const(c) => (&mut c.attrs, None),
            ImplItem::Type(t) => (&mut t.attrs, None),
            ImplItem::Macro(m) => (&mut m.attrs, None),
            _ => continue,
        };
        let (marked, other): (Vec<Attribute>, Vec<Attribute>) =
            std::mem::take(attrs).into_iter().partition(is_entry_attr);
        *attrs = other;
        let Some(first) = marked.first() else {
            continue;
        };
        let Some(sig) = sig else {
            errors.at(
                first.span(),
                "`#[resource]`, `#[prompt]` and `#[complete]` mark handler methods; this item is not a method",
            );
            continue;
        };
        for extra in &marked[1..] {
            errors.at(
                extra.span(),
                "a method handles one resource, prompt or completion; this is a second mark",
            );
        }
        let Some((kind, entry, span)) = errors.ok(read(first, sig)) else {
            continue;
        };
        let cfgs = crate::handlers::cfgs(attrs);
        marks.push(EntryMark {
            kind,
            entry,
            span,
            sig: sig.clone(),
            cfgs,
        });
    }
    marks
}

/// What one attribute says: its kind, the entry's name and where it is.
fn read(attr: &Attribute, sig: &Signature) -> syn::Result<(MarkKind, String, Span)> {
    let word = word(attr).unwrap_or(RESOURCE);
    if word == COMPLETE {
        let usage =
            "expected `#[complete(entry.argument)]`: the resource or prompt, and its argument";
        let Meta::List(list) = &attr.meta else {
            return Err(syn::Error::new_spanned(attr, usage));
        };
        let (entry, argument) = list
            .parse_args_with(|input: syn::parse::ParseStream| {
                let entry = Ident::parse_any(input)?;
                input.parse::<Token![.]>()?;
                let argument = Ident::parse_any(input)?;
                Ok((entry, argument))
            })
            .map_err(|_| syn::Error::new_spanned(&list.tokens, usage))?;
        let kind = MarkKind::Complete {
            argument: argument.unraw().to_string(),
        };
        return Ok((kind, entry.unraw().to_string(), entry.span()));
    }
    let kind = if word == PROMPT {
        EntryKind::Prompt
    } else {
        EntryKind::Resource
    };
    let usage = format!("expected `#[{word}]` or `#[{word}(name = \"{word}_name\")]`");
    let name = match &attr.meta {
        Meta::Path(_) => None,
        Meta::List(list) => {
            let mut name = None;
            list.parse_nested_meta(|meta| {
                if !meta.path.is_ident("name") || name.is_some() {
                    return Err(meta.error(&usage));
                }
                name = Some(meta.value()?.parse::<LitStr>()?);
                Ok(())
            })
            .map_err(|_| syn::Error::new_spanned(list, &usage))?;
            Some(name.ok_or_else(|| syn::Error::new_spanned(list, &usage))?)
        }
        Meta::NameValue(meta) => return Err(syn::Error::new_spanned(meta, usage)),
    };
    let (entry, span) = match name {
        Some(name) => (name.value(), name.span()),
        None => (sig.ident.unraw().to_string(), sig.ident.span()),
    };
    Ok((MarkKind::Entry(kind), entry, span))
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;
    use syn::{ItemImpl, parse_quote};

    use super::*;

    #[test]
    fn finds_the_marks_and_strips_them() {
        let mut item: ItemImpl = parse_quote! {
            impl Studio {
                #[resource]
                fn cas_object(&self) {}
                #[toolwright::prompt(name = "compose")]
                fn write(&self) {}
                #[complete(compose.mood)]
                fn moods(&self) {}
                #[tool]
                fn add(&self) {}
            }
        };
        let mut errors = Errors::default();
        let marks = collect(&mut item, &mut errors);
        assert!(errors.messages().is_empty());
        let seen: Vec<_> = marks
            .iter()
            .map(|m| (m.kind.clone(), m.entry.as_str()))
            .collect();
        assert_eq!(
            seen,
            [
                (MarkKind::Entry(EntryKind::Resource), "cas_object"),
                (MarkKind::Entry(EntryKind::Prompt), "compose"),
                (
                    MarkKind::Complete {
                        argument: "mood".into()
                    },
                    "compose"
                ),
            ]
        );
        let text = item.to_token_stream().to_string();
        assert!(
            !text.contains("resource") && !text.contains("complete"),
            "{text}"
        );
        assert!(text.contains("# [tool]"), "{text}");
    }

    #[test]
    fn reports_bad_marks() {
        let mut item: ItemImpl = parse_quote! {
            impl Studio {
                #[resource]
                const X: u8 = 1;
                #[complete(compose)]
                fn a(&self) {}
                #[prompt(title = "x")]
                fn b(&self) {}
                #[resource]
                #[prompt]
                fn c(&self) {}
            }
        };
        let mut errors = Errors::default();
        let marks = collect(&mut item, &mut errors);
        assert_eq!(marks.len(), 1);
        assert_eq!(
            errors.messages(),
            [
                "`#[resource]`, `#[prompt]` and `#[complete]` mark handler methods; this item is not a method",
                "expected `#[complete(entry.argument)]`: the resource or prompt, and its argument",
                "expected `#[prompt]` or `#[prompt(name = \"prompt_name\")]`",
                "a method handles one resource, prompt or completion; this is a second mark",
            ]
        );
    }
}
