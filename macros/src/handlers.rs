//! Finds the `#[tool]` methods of the user's impl block and removes the
//! attributes, which mean nothing to rustc once `bind!` has read them.

use proc_macro2::{Span, TokenStream};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{Attribute, ImplItem, ItemImpl, Meta, Signature};

use crate::diag::Errors;
use crate::messages;
use crate::tool_attr;

/// A method marked `#[tool]`.
pub(crate) struct Marked {
    /// The tool it binds: `#[tool(name = "...")]`, else the method's name.
    pub(crate) tool: String,
    /// Where that name is written, for errors about it.
    pub(crate) span: Span,
    pub(crate) sig: Signature,
    /// The predicates of its `#[cfg(...)]` attributes. rustc evaluates them
    /// only after `#[tools]` has run, so the arm calling the method must
    /// carry them too.
    pub(crate) cfgs: Vec<TokenStream>,
}

/// Every `#[tool]` method of `item`, in order; strips the attributes.
pub(crate) fn collect(item: &mut ItemImpl, errors: &mut Errors) -> Vec<Marked> {
    let mut marked = Vec::new();
    for impl_item in &mut item.items {
        let (attrs, sig) = match impl_item {
            ImplItem::Fn(f) => (&mut f.attrs, Some(&f.sig)),
            ImplItem::Const(c) => (&mut c.attrs, None),
            ImplItem::Type(t) => (&mut t.attrs, None),
            ImplItem::Macro(m) => (&mut m.attrs, None),
            _ => continue,
        };
        let tool_attrs = take_tool_attrs(attrs);
        let Some(first) = tool_attrs.first() else {
            continue;
        };
        let Some(sig) = sig else {
            errors.at(first.span(), messages::TOOL_NOT_ON_METHOD);
            continue;
        };
        for extra in &tool_attrs[1..] {
            errors.at(extra.span(), messages::TOOL_TWICE);
        }
        let Some(name) = errors.ok(tool_attr::name(first)) else {
            continue;
        };
        let (tool, span) = match name {
            Some(name) => (name.value(), name.span()),
            None => (sig.ident.unraw().to_string(), sig.ident.span()),
        };
        let cfgs = cfgs(attrs);
        marked.push(Marked {
            tool,
            span,
            sig: sig.clone(),
            cfgs,
        });
    }
    marked
}

/// The predicates of a method's `#[cfg(...)]` attributes: rustc evaluates
/// them only after `#[tools]` has run, so the arm calling the method must
/// carry them too.
pub(crate) fn cfgs(attrs: &[Attribute]) -> Vec<TokenStream> {
    attrs
        .iter()
        .filter(|attr| attr.path().is_ident("cfg"))
        .filter_map(|attr| match &attr.meta {
            Meta::List(list) => Some(list.tokens.clone()),
            _ => None,
        })
        .collect()
}

fn take_tool_attrs(attrs: &mut Vec<Attribute>) -> Vec<Attribute> {
    let (tool, other) = std::mem::take(attrs)
        .into_iter()
        .partition(tool_attr::is_tool);
    *attrs = other;
    tool
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;
    use syn::{ItemImpl, parse_quote};

    use super::collect;
    use crate::diag::Errors;

    #[test]
    fn finds_handlers_and_strips_their_attributes() {
        let mut item: ItemImpl = parse_quote! {
            impl Studio {
                #[tool]
                async fn add(&self) {}
                #[toolwright::tool(name = "type")]
                fn kind(&self) {}
                #[tool]
                fn r#move(&self) {}
                #[inline]
                fn helper(&self) {}
            }
        };
        let mut errors = Errors::default();
        let marked = collect(&mut item, &mut errors);
        let tools: Vec<_> = marked.iter().map(|m| m.tool.as_str()).collect();
        assert_eq!(tools, ["add", "type", "move"]);
        assert!(errors.messages().is_empty());
        let stripped: ItemImpl = parse_quote! {
            impl Studio {
                async fn add(&self) {}
                fn kind(&self) {}
                fn r#move(&self) {}
                #[inline]
                fn helper(&self) {}
            }
        };
        assert_eq!(
            item.to_token_stream().to_string(),
            stripped.to_token_stream().to_string()
        );
    }

    #[test]
    fn reports_misplaced_and_repeated_attributes() {
        let mut item: ItemImpl = parse_quote! {
            impl Studio {
                #[tool]
                const LIMIT: u8 = 1;
                #[tool]
                #[tool]
                fn add(&self) {}
                #[tool(label = "x")]
                fn multiply(&self) {}
            }
        };
        let mut errors = Errors::default();
        let marked = collect(&mut item, &mut errors);
        assert_eq!(marked.len(), 1);
        assert_eq!(
            errors.messages(),
            [
                "`#[tool]` marks a handler method; this item is not a method",
                "`#[tool]` given twice on one method",
                "expected `#[tool]` or `#[tool(name = \"tool_name\")]`",
            ]
        );
    }
}
