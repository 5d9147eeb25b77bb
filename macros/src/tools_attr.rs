//! `#[tools]` / `#[tools(path::to::module, not_implemented)]` /
//! `#[tools(path::to::module, not_implemented(tool_a, tool_b))]`: hands the
//! impl block to the generated `__toolwright_catalogue!` of that module,
//! which calls `bind!` back with the catalogue. It reads no files and leaves
//! the block's tokens as they are.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{Ident, Path, Token};

use crate::diag::Errors;
use crate::handlers;
use crate::options::{self, Options};
use crate::{messages, suggest};

/// The arguments of `#[tools(...)]`: a module path and options, in any order.
#[derive(Default)]
pub(crate) struct ToolsArgs {
    module: Option<Path>,
    options: Options,
}

impl Parse for ToolsArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut args = ToolsArgs::default();
        while !input.is_empty() {
            let path = input.call(Path::parse_mod_style)?;
            let taken = match path.get_ident() {
                Some(ident) => args.options.take(ident, input)? || misspelt_option(ident)?,
                None => false,
            };
            if !taken {
                if args.module.is_some() {
                    return Err(syn::Error::new(path.span(), messages::TWO_MODULES));
                }
                args.module = Some(path);
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(args)
    }
}

/// `Err` for a word that looks like a misspelt option rather than a module
/// (`not_implmented`), which would otherwise be reported as a module
/// without a catalogue.
fn misspelt_option(ident: &Ident) -> syn::Result<bool> {
    let word = ident.to_string();
    match suggest::closest(&word, [options::NOT_IMPLEMENTED]) {
        Some(option) => Err(syn::Error::new(
            ident.span(),
            messages::unknown_option(&word, Some(option)),
        )),
        None => Ok(false),
    }
}

/// The expansion of `#[tools(...)]` with unreadable arguments: the error,
/// and the block without its `#[tool]` attributes, so that they do not each
/// report being outside a `#[tools]` block.
pub(crate) fn bad_arguments(error: syn::Error, item: TokenStream) -> TokenStream {
    let mut out = error.into_compile_error();
    match syn::parse2::<syn::ItemImpl>(item.clone()) {
        Ok(mut block) => {
            handlers::collect(&mut block, &mut Errors::default());
            block.to_tokens(&mut out);
        }
        Err(_) => out.extend(item),
    }
    out
}

/// The expansion of `#[tools(args)] item`.
pub(crate) fn expand(args: ToolsArgs, item: TokenStream) -> TokenStream {
    // The default `crate` carries the attribute's span: `bind!` points the
    // code it emits there, and a missing catalogue is reported there.
    let module = args
        .module
        .unwrap_or_else(|| Path::from(Ident::new("crate", Span::call_site())));
    let span = module
        .segments
        .last()
        .map_or_else(Span::call_site, |s| s.ident.span());
    let callback = format_ident!("__toolwright_catalogue", span = span);
    let options = &args.options;
    let call = quote_spanned!(span=> #module::#callback!);
    quote! {
        #call {
            module (#module)
            options (#options)
            #item
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::{ToolsArgs, expand};

    fn expand_str(args: proc_macro2::TokenStream) -> String {
        let args: ToolsArgs = syn::parse2(args).unwrap();
        expand(args, quote!(impl Studio {})).to_string()
    }

    #[test]
    fn calls_back_the_catalogue_of_its_module() {
        assert_eq!(
            expand_str(quote!()),
            "crate :: __toolwright_catalogue ! { module (crate) options () impl Studio { } }"
        );
        assert_eq!(
            expand_str(quote!(crate::api, not_implemented)),
            "crate :: api :: __toolwright_catalogue ! \
             { module (crate :: api) options (not_implemented) impl Studio { } }"
        );
        assert_eq!(
            expand_str(quote!(not_implemented, super::api)),
            "super :: api :: __toolwright_catalogue ! \
             { module (super :: api) options (not_implemented) impl Studio { } }"
        );
        assert_eq!(
            expand_str(quote!(crate::api, not_implemented(garden_play, transfer))),
            "crate :: api :: __toolwright_catalogue ! \
             { module (crate :: api) options (not_implemented (garden_play , transfer)) \
             impl Studio { } }"
        );
        assert_eq!(
            expand_str(quote!(not_implemented(garden_play))),
            "crate :: __toolwright_catalogue ! \
             { module (crate) options (not_implemented (garden_play)) impl Studio { } }"
        );
    }

    #[test]
    fn rejects_bad_arguments() {
        let cases = [
            (
                quote!(a, b),
                "`#[tools]` takes one module path: where `toolwright::include_tools!()` is",
            ),
            (
                quote!(not_implemented, not_implemented),
                "`not_implemented` given twice",
            ),
            (quote!("crate"), "expected identifier"),
            (
                quote!(not_implmented),
                "unknown option `not_implmented`; did you mean `not_implemented`?",
            ),
            (
                quote!(not_implmented(add)),
                "unknown option `not_implmented`; did you mean `not_implemented`?",
            ),
            (
                quote!(crate::api, not_implemented(add), not_implemented),
                "`not_implemented` given twice",
            ),
            (
                quote!(not_implemented()),
                crate::messages::EMPTY_NOT_IMPLEMENTED,
            ),
            (
                quote!(not_implemented(1)),
                crate::messages::NOT_IMPLEMENTED_LIST,
            ),
            (quote!(not_implemented(crate::add)), "expected `,`"),
        ];
        for (args, expected) in cases {
            let error = syn::parse2::<ToolsArgs>(args).err().map(|e| e.to_string());
            assert_eq!(error.as_deref(), Some(expected));
        }
    }

    #[test]
    fn bad_arguments_keep_the_block_without_its_handler_marks() {
        let error = syn::Error::new(proc_macro2::Span::call_site(), "bad");
        let item = quote!(impl Studio { #[tool] fn add(&self) {} });
        let out = super::bad_arguments(error, item).to_string();
        assert_eq!(
            out,
            ":: core :: compile_error ! { \"bad\" } impl Studio { fn add (& self) { } }"
        );
    }
}
