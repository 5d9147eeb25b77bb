//! `bind!`: parse the catalogue and the impl block, pair handlers with
//! tools, emit the block and its `Service` impl, with every error found.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

use crate::diag::Errors;
use crate::input::BindInput;
use crate::{emit, entries, handlers, resolve};

/// What `bind!` expands to: the user's block without its `#[tool]`
/// attributes and the `Service` impl, plus the errors. Even with errors it
/// emits both (answering the faulty tools `NOT_IMPLEMENTED`), so that rustc
/// reports only what is wrong, not everything that depends on it.
pub(crate) struct Expansion {
    pub(crate) tokens: TokenStream,
    pub(crate) errors: Errors,
}

/// Expands `bind!`; `Err` when its input cannot be read, with the tokens
/// of the user's block when only that is unreadable.
pub(crate) fn expand(input: TokenStream) -> Result<Expansion, (syn::Error, TokenStream)> {
    let mut input = BindInput::parse(input)?;
    let mut errors = Errors::default();
    let marked = handlers::collect(&mut input.item, &mut errors);
    let entry_marks = entries::collect(&mut input.item, &mut errors);
    let answers = resolve::resolve(
        &input.catalogue,
        &marked,
        input.options.not_implemented.as_ref(),
        input.item.self_ty.span(),
        &mut errors,
    );
    let every_unbound = matches!(
        input.options.not_implemented,
        Some(crate::options::NotImplemented::All(_))
    );
    let entry_answers = entries::resolve(
        &input.catalogue.entries,
        &entry_marks,
        every_unbound,
        input.item.self_ty.span(),
        &mut errors,
    );
    let entry_fn = entries::entry_fn(&input, &entry_answers);
    let service = emit::service_impl(&input, &answers, entry_fn);
    let item = &input.item;
    Ok(Expansion {
        tokens: quote!(#item #service),
        errors,
    })
}

/// `bind!`'s output tokens.
pub(crate) fn bind(input: TokenStream) -> TokenStream {
    match expand(input) {
        Ok(Expansion { tokens, errors }) => {
            let mut out = errors.into_compile_errors();
            out.extend(tokens);
            out
        }
        Err((error, block)) => {
            let mut out = error.into_compile_error();
            out.extend(block);
            out
        }
    }
}
