//! `bind!` and `#[tools]` never panic: every input with one token removed
//! (a broken catalogue, a broken block, a broken signature) expands to
//! code or to errors.

use std::str::FromStr;

use proc_macro2::TokenStream;
use quote::quote;

use crate::{bind, tools_attr};

/// A valid `bind!` input with a handler of every shape, and `options`.
fn input(options: TokenStream) -> String {
    let catalogue = super::catalogue();
    quote! {
        #catalogue
        module (crate::api)
        options (#options)
        impl<B: Backend> Studio<B> {
            #[tool]
            async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
                todo!()
            }
            #[tool(name = "garden_status")]
            fn status(&self, cx: toolwright::Context) -> Result<GardenStatus, ToolError> {
                todo!()
            }
            #[toolwright::tool]
            async fn transfer(
                &self,
                request: TransferRequest,
                cx: Context<TransferProgress>,
            ) -> impl Future<Output = Result<TransferResponse, ToolError>> {
                todo!()
            }
        }
    }
    .to_string()
}

/// Every variant of `text` with one whitespace-separated word left out that
/// still lexes as Rust tokens.
fn one_word_removed(text: &str) -> Vec<TokenStream> {
    let words: Vec<&str> = text.split_whitespace().collect();
    (0..words.len())
        .filter_map(|skip| {
            let kept: Vec<&str> = words
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, w)| *w)
                .collect();
            TokenStream::from_str(&kept.join(" ")).ok()
        })
        .collect()
}

#[test]
fn bind_survives_every_one_word_removal() {
    for options in [
        quote!(not_implemented),
        quote!(not_implemented(garden_play, add, job_status, nothing)),
    ] {
        let variants = one_word_removed(&input(options));
        assert!(variants.len() > 100, "{} variants", variants.len());
        for tokens in variants {
            let out = bind::bind(tokens.clone());
            assert!(!out.is_empty(), "nothing emitted for {tokens}");
        }
    }
}

#[test]
fn tools_survives_every_one_word_removal() {
    let args = "crate :: api , not_implemented ( garden_play , transfer , )";
    for tokens in one_word_removed(args) {
        let item = quote!(impl Studio { #[tool] fn add(&self) {} });
        let out = match syn::parse2(tokens) {
            Ok(args) => tools_attr::expand(args, item),
            Err(error) => tools_attr::bad_arguments(error, item),
        };
        assert!(!out.is_empty());
    }
}
