//! `#[tool]` and `#[tool(name = "...")]`: which methods of a `#[tools]`
//! block are handlers, and of which tool.

use proc_macro2::{Span, TokenStream};
use syn::{Attribute, LitStr, Meta};

use crate::messages;

/// The path segments that spell the attribute: `tool`, `toolwright::tool`.
const TOOL: &str = "tool";
const CRATE: &str = "toolwright";

/// True for `#[tool]`, `#[tool(...)]`, `#[toolwright::tool]` and
/// `#[::toolwright::tool]`.
pub(crate) fn is_tool(attr: &Attribute) -> bool {
    let segments: Vec<_> = attr.path().segments.iter().map(|s| &s.ident).collect();
    match segments[..] {
        [tool] => tool == TOOL && attr.path().leading_colon.is_none(),
        [krate, tool] => krate == CRATE && tool == TOOL,
        _ => false,
    }
}

/// The tool name given with `#[tool(name = "...")]`, if any.
pub(crate) fn name(attr: &Attribute) -> syn::Result<Option<LitStr>> {
    let list = match &attr.meta {
        Meta::Path(_) => return Ok(None),
        Meta::List(list) => list,
        Meta::NameValue(meta) => {
            return Err(syn::Error::new_spanned(meta, messages::TOOL_ARGUMENTS));
        }
    };
    let mut name = None;
    list.parse_nested_meta(|meta| {
        if !meta.path.is_ident("name") {
            return Err(meta.error(messages::TOOL_ARGUMENTS));
        }
        if name.is_some() {
            return Err(meta.error("`name` given twice"));
        }
        name = Some(meta.value()?.parse::<LitStr>()?);
        Ok(())
    })?;
    match name {
        Some(name) => Ok(Some(name)),
        None => Err(syn::Error::new_spanned(list, messages::TOOL_ARGUMENTS)),
    }
}

/// The expansion of a `#[tool]` that ran on its own: inside a `#[tools]`
/// block, `bind!` removes the attribute before it could expand, so reaching
/// here means the block is missing. The item is kept so that nothing else
/// fails because of it.
pub(crate) fn outside_tools(item: TokenStream) -> TokenStream {
    outside_tools_as("tool", item)
}

/// As [`outside_tools`], for the attribute `#[word]`.
pub(crate) fn outside_tools_as(word: &str, item: TokenStream) -> TokenStream {
    let message = messages::TOOL_OUTSIDE_TOOLS.replacen("`#[tool]`", &format!("`#[{word}]`"), 1);
    let mut out = syn::Error::new(Span::call_site(), message).into_compile_error();
    out.extend(item);
    out
}

#[cfg(test)]
mod tests {
    use syn::Attribute;
    use syn::parse_quote;

    use super::{is_tool, name};

    #[test]
    fn recognises_the_spellings() {
        let yes: [Attribute; 4] = [
            parse_quote!(#[tool]),
            parse_quote!(#[tool(name = "add")]),
            parse_quote!(#[toolwright::tool]),
            parse_quote!(#[::toolwright::tool]),
        ];
        let no: [Attribute; 4] = [
            parse_quote!(#[tools]),
            parse_quote!(#[other::tool]),
            parse_quote!(#[::tool]),
            parse_quote!(#[doc = "tool"]),
        ];
        assert!(yes.iter().all(is_tool));
        assert!(!no.iter().any(is_tool));
    }

    #[test]
    fn reads_the_name() {
        let plain: Attribute = parse_quote!(#[tool]);
        let named: Attribute = parse_quote!(#[tool(name = "add")]);
        assert!(name(&plain).unwrap().is_none());
        assert_eq!(
            name(&named).unwrap().map(|n| n.value()).as_deref(),
            Some("add")
        );
    }

    #[test]
    fn rejects_other_arguments() {
        let expected = "expected `#[tool]` or `#[tool(name = \"tool_name\")]`";
        let cases: [Attribute; 4] = [
            parse_quote!(#[tool = "add"]),
            parse_quote!(#[tool(rename = "add")]),
            parse_quote!(#[tool()]),
            parse_quote!(#[tool(name)]),
        ];
        for attr in &cases[..3] {
            let error = name(attr).err().map(|e| e.to_string());
            assert_eq!(error.as_deref(), Some(expected));
        }
        assert!(name(&cases[3]).is_err());
    }
}
