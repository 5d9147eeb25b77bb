//! The options of a `#[tools(...)]` block, as `#[tools]` reads them and
//! passes them to `bind!` (`options (not_implemented)`,
//! `options (not_implemented (garden_play, transfer))`).
//!
//! `#[tools]` only checks their shape: whether the listed names are tools,
//! job tools or bound tools is for `bind!` to say, which knows the
//! catalogue and reports it with every other error of the block.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, Token, parenthesized, token};

use crate::messages;

/// `not_implemented`: tools without a handler answer `NOT_IMPLEMENTED`
/// instead of failing the build; `not_implemented(a, b)`: only those do.
pub(crate) const NOT_IMPLEMENTED: &str = "not_implemented";

/// What a `#[tools]` block opted into.
#[derive(Default)]
pub(crate) struct Options {
    /// `not_implemented`, in either form, with the user's spans.
    pub(crate) not_implemented: Option<NotImplemented>,
}

/// The `not_implemented` option.
pub(crate) enum NotImplemented {
    /// `not_implemented`: every tool without a handler.
    All(Ident),
    /// `not_implemented(a, b)`: the tools named, as written (spans intact,
    /// for errors about each name).
    Listed {
        keyword: Ident,
        paren: token::Paren,
        tools: Punctuated<Ident, Token![,]>,
    },
}

impl Options {
    /// Takes `option` if it is one, with its argument list from `input`
    /// when it has one; `Ok(false)` when it is no option's name.
    pub(crate) fn take(&mut self, option: &Ident, input: ParseStream) -> syn::Result<bool> {
        if option != NOT_IMPLEMENTED {
            return Ok(false);
        }
        if self.not_implemented.is_some() {
            let message = messages::option_twice(NOT_IMPLEMENTED);
            return Err(syn::Error::new(option.span(), message));
        }
        let keyword = option.clone();
        self.not_implemented = Some(if input.peek(token::Paren) {
            let (paren, tools) = tool_list(input)?;
            NotImplemented::Listed {
                keyword,
                paren,
                tools,
            }
        } else {
            NotImplemented::All(keyword)
        });
        Ok(true)
    }
}

/// `(tool_a, tool_b)`: one name at least, a trailing comma allowed. Any
/// identifier is taken, keywords and raw ones too, as tools may be named
/// `type` (`r#type`).
fn tool_list(input: ParseStream) -> syn::Result<(token::Paren, Punctuated<Ident, Token![,]>)> {
    let content;
    let paren = parenthesized!(content in input);
    let mut tools = Punctuated::new();
    while !content.is_empty() {
        if !content.peek(Ident::peek_any) {
            return Err(content.error(messages::NOT_IMPLEMENTED_LIST));
        }
        tools.push_value(content.call(Ident::parse_any)?);
        if content.is_empty() {
            break;
        }
        tools.push_punct(content.parse()?);
    }
    if tools.is_empty() {
        return Err(syn::Error::new(
            paren.span.join(),
            messages::EMPTY_NOT_IMPLEMENTED,
        ));
    }
    Ok((paren, tools))
}

impl Parse for Options {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut options = Options::default();
        while !input.is_empty() {
            let option: Ident = input.parse()?;
            if !options.take(&option, input)? {
                let message = messages::unknown_option(&option.to_string(), None);
                return Err(syn::Error::new(option.span(), message));
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(options)
    }
}

impl ToTokens for Options {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.not_implemented.to_tokens(tokens);
    }
}

impl ToTokens for NotImplemented {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            NotImplemented::All(keyword) => keyword.to_tokens(tokens),
            NotImplemented::Listed {
                keyword,
                paren,
                tools: list,
            } => {
                keyword.to_tokens(tokens);
                paren.surround(tokens, |inner| list.to_tokens(inner));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::{ToTokens, quote};

    use super::{NotImplemented, Options};

    fn parse(tokens: proc_macro2::TokenStream) -> syn::Result<Options> {
        syn::parse2(tokens)
    }

    #[test]
    fn reads_both_forms_and_writes_them_back() {
        for written in [
            quote!(),
            quote!(not_implemented),
            quote!(not_implemented(garden_play)),
            quote!(not_implemented(garden_play, transfer,)),
            quote!(not_implemented(r#type, add)),
        ] {
            let options = parse(written.clone()).unwrap();
            assert_eq!(options.to_token_stream().to_string(), written.to_string());
        }
        let options = parse(quote!(not_implemented(add, r#type))).unwrap();
        let Some(NotImplemented::Listed { tools, .. }) = options.not_implemented else {
            panic!("a list expected");
        };
        let names: Vec<String> = tools.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["add", "r#type"]);
    }

    #[test]
    fn rejects_malformed_lists() {
        let cases = [
            (
                quote!(not_implemented()),
                crate::messages::EMPTY_NOT_IMPLEMENTED,
            ),
            (
                quote!(not_implemented("add")),
                crate::messages::NOT_IMPLEMENTED_LIST,
            ),
            (quote!(not_implemented(add transfer)), "expected `,`"),
            (
                quote!(not_implemented, not_implemented(add)),
                "`not_implemented` given twice",
            ),
        ];
        for (tokens, expected) in cases {
            let error = parse(tokens).err().map(|e| e.to_string());
            assert_eq!(error.as_deref(), Some(expected));
        }
    }
}
