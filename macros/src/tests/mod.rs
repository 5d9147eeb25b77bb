//! Tests of `bind!` on `proc_macro2` tokens: the expansion, pretty-printed
//! and pinned as snapshots, and the text of every error.

mod errors;
mod expand;
mod robustness;

use proc_macro2::TokenStream;
use quote::quote;

use crate::bind::{self, Expansion};

/// A catalogue description as the generator writes it: a tool of each
/// shape, and a job tool.
fn catalogue() -> TokenStream {
    quote! {
        catalogue {
            tool "add" {
                variant Add,
                marker AddTool,
                request MathOperands,
                response MathResult,
                error MathError,
                timing sync,
                declared "idl/math.tool:7:1",
            }
            tool "garden_status" {
                variant GardenStatus,
                marker GardenStatusTool,
                response GardenStatus,
                timing sync,
                declared "idl/garden.tool:4:1",
            }
            tool "garden_play" {
                variant GardenPlay,
                marker GardenPlayTool,
                error GardenError,
                timing fire_and_forget,
                declared "idl/garden.tool:6:1",
            }
            tool "transfer" {
                variant Transfer,
                marker TransferTool,
                request TransferRequest,
                response TransferResponse,
                stream TransferProgress,
                timing async_long,
                declared "idl/transfer.tool:3:1",
            }
            tool "job_status" {
                variant JobStatus,
                marker JobStatusTool,
                request JobRef,
                response JobInfo,
                error JobError,
                timing sync,
                declared "<builtin>/jobs.tool:9:1",
                builtin,
            }
        }
    }
}

/// `bind!` on the test catalogue, with `module (crate)`.
fn expand(options: TokenStream, block: TokenStream) -> Expansion {
    expand_in(quote!(crate), options, block)
}

fn expand_in(module: TokenStream, options: TokenStream, block: TokenStream) -> Expansion {
    let catalogue = catalogue();
    let input = quote! {
        #catalogue
        module (#module)
        options (#options)
        #block
    };
    match bind::expand(input) {
        Ok(expansion) => expansion,
        Err((error, _)) => panic!("bind! rejected its input: {error}"),
    }
}

/// Pins `value` as the snapshot `name`; the snapshot holds what it shows,
/// without the test's source expression.
fn snapshot(name: &str, value: &str) {
    insta::with_settings!({ omit_expression => true, prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, value);
    });
}

/// The expansion as rustfmt-like source.
fn pretty(tokens: TokenStream) -> String {
    match syn::parse2::<syn::File>(tokens) {
        Ok(file) => prettyplease::unparse(&file),
        Err(error) => panic!("bind! emitted invalid Rust: {error}"),
    }
}
