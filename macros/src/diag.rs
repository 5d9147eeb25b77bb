//! Collects every error of one expansion, so that several show at once.

use std::fmt::Display;

use proc_macro2::{Span, TokenStream};

/// The errors found so far. Each keeps the span of the user's tokens it is
/// about; rustc shows them all, in order, when the expansion ends.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    /// Records an error.
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(first) => first.combine(error),
            None => self.0 = Some(error),
        }
    }

    /// Records an error at `span`.
    pub(crate) fn at(&mut self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    /// Records an error about `tokens`, shown from their first token to
    /// their last.
    pub(crate) fn spanned(&mut self, tokens: impl quote::ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// The value of `result`, or `None` after recording its error.
    pub(crate) fn ok<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|error| self.push(error)).ok()
    }

    /// Every error as `compile_error!` invocations (nothing when none).
    pub(crate) fn into_compile_errors(self) -> TokenStream {
        self.0
            .map(syn::Error::into_compile_error)
            .unwrap_or_default()
    }

    /// Every error's message, in order (for tests).
    #[cfg(test)]
    pub(crate) fn messages(&self) -> Vec<String> {
        self.0
            .iter()
            .flat_map(|error| error.clone().into_iter())
            .map(|error| error.to_string())
            .collect()
    }
}
