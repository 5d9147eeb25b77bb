//! The text of every error `bind!` reports, and that it still emits the
//! block and a `Service` impl, so rustc adds no errors of its own.

use proc_macro2::TokenStream;
use quote::quote;

use super::{expand, pretty, snapshot};

/// Pins the messages `bind!` reports for `block`, after the block itself,
/// and checks that the expansion is whole regardless.
fn errors(name: &str, options: TokenStream, block: TokenStream) {
    let shown = pretty(block.clone());
    let expansion = expand(options, block);
    let code = pretty(expansion.tokens);
    assert!(
        code.contains("impl ::toolwright::__private::Service for"),
        "{code}"
    );
    let messages = expansion.errors.messages().join("\n\n");
    snapshot(
        &format!("errors__{name}"),
        &format!("{shown}\n// ---- errors ----\n\n{messages}\n"),
    );
}

#[test]
fn missing_handlers() {
    errors(
        "missing_handlers",
        quote!(),
        quote! {
            impl Studio {
                #[tool]
                async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
                    todo!()
                }
            }
        },
    );
}

#[test]
fn unknown_tool() {
    errors(
        "unknown_tool",
        quote!(not_implemented),
        quote! {
            impl Studio {
                #[tool]
                async fn ad(&self, request: MathOperands) -> Result<MathResult, MathError> {
                    todo!()
                }
                #[tool(name = "subtract")]
                async fn minus(&self, request: MathOperands) -> Result<MathResult, MathError> {
                    todo!()
                }
                // Job tools are not suggested: they cannot have handlers.
                #[tool]
                async fn job_stats(&self) -> Result<(), ToolError> {
                    todo!()
                }
            }
        },
    );
}

#[test]
fn duplicate_and_builtin_handlers() {
    errors(
        "duplicate_and_builtin_handlers",
        quote!(not_implemented),
        quote! {
            impl Studio {
                #[tool]
                async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
                    todo!()
                }
                #[tool(name = "add")]
                async fn add_again(&self, request: MathOperands) -> Result<MathResult, MathError> {
                    todo!()
                }
                #[tool]
                async fn job_status(&self, request: JobRef) -> Result<JobInfo, JobError> {
                    todo!()
                }
            }
        },
    );
}

#[test]
fn signature_shapes() {
    errors(
        "signature_shapes",
        quote!(not_implemented),
        quote! {
            impl Studio {
                #[tool]
                async fn add(request: MathOperands) -> Result<MathResult, MathError> {
                    todo!()
                }
                #[tool]
                fn garden_status(&mut self) -> Result<GardenStatus, ToolError> {
                    todo!()
                }
                #[tool]
                async fn garden_play(&self, extra: u8) -> Result<(), GardenError> {
                    todo!()
                }
                #[tool]
                async fn transfer(&self, cx: Context<TransferProgress>) {
                    todo!()
                }
            }
        },
    );
}

#[test]
fn not_a_result() {
    errors(
        "not_a_result",
        quote!(not_implemented),
        quote! {
            impl Studio {
                #[tool]
                async fn add(&self, request: MathOperands, cx: Context, more: u8) -> () {
                    todo!()
                }
            }
        },
    );
}

#[test]
fn not_implemented_list() {
    // Every mistake a list can hold, each reported at its name; `transfer`,
    // neither bound nor listed, still needs a handler.
    errors(
        "not_implemented_list",
        quote!(not_implemented(
            add,
            garden_plya,
            job_status,
            garden_status,
            garden_status
        )),
        quote! {
            impl Studio {
                #[tool]
                async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
                    todo!()
                }
            }
        },
    );
}

#[test]
fn not_implemented_list_names_no_tool() {
    // No suggestion: nothing unbound is close. A misspelt name whose tool
    // has a handler is not offered, listing it would be wrong too.
    let expansion = expand(
        quote!(not_implemented(ad, subtract)),
        quote! {
            impl Studio {
                #[tool]
                async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
                    todo!()
                }
                #[tool]
                async fn garden_status(&self) -> Result<GardenStatus, ToolError> {
                    todo!()
                }
                #[tool]
                async fn garden_play(&self) -> Result<(), GardenError> {
                    todo!()
                }
                #[tool]
                async fn transfer(&self, request: TransferRequest) -> Result<TransferResponse, ToolError> {
                    todo!()
                }
            }
        },
    );
    assert_eq!(
        expansion.errors.messages(),
        [
            crate::messages::unknown_not_implemented("ad", None),
            crate::messages::unknown_not_implemented("subtract", None),
        ]
    );
}

#[test]
fn missing_handler_hint_extends_the_list() {
    let expansion = expand(
        quote!(not_implemented(garden_status, garden_play)),
        quote!(impl Studio {}),
    );
    let messages = expansion.errors.messages();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].contains("`#[tools(not_implemented(garden_status, garden_play, add))]`"),
        "{}",
        messages[0]
    );
    assert!(
        messages[1].contains("`#[tools(not_implemented(garden_status, garden_play, transfer))]`"),
        "{}",
        messages[1]
    );
}

#[test]
fn many_missing_handlers_share_one_error() {
    use crate::catalogue::Catalogue;
    use crate::diag::Errors;
    use crate::resolve::resolve;

    let tools = (0..9).map(|i| {
        let name = format!("tool_{i}");
        let variant = quote::format_ident!("Tool{i}");
        let marker = quote::format_ident!("Tool{i}Tool");
        quote!(tool #name { variant #variant, marker #marker, declared "many.tool:1:1" })
    });
    let catalogue: Catalogue = syn::parse2(quote!(#(#tools)*)).unwrap();
    let mut errors = Errors::default();
    resolve(
        &catalogue,
        &[],
        None,
        proc_macro2::Span::call_site(),
        &mut errors,
    );
    let messages = errors.messages();
    assert_eq!(messages.len(), 6);
    snapshot(
        "errors__many_missing_handlers_share_one_error",
        &messages[5],
    );
}

#[test]
fn not_an_inherent_impl() {
    let catalogue = super::catalogue();
    for item in [
        quote!(impl Trait for Studio {}),
        quote!(
            struct Studio;
        ),
    ] {
        let input = quote!(#catalogue module (crate) options () #item);
        let Err((error, kept)) = crate::bind::expand(input) else {
            panic!("bind! accepted {item}");
        };
        assert_eq!(error.to_string(), crate::messages::NOT_AN_IMPL);
        // The item is emitted unchanged, so nothing else fails for want of it.
        assert_eq!(kept.to_string(), item.to_string());
    }
}

#[test]
fn a_misspelt_handler_is_not_also_missing() {
    let expansion = expand(
        quote!(),
        quote! {
            impl Studio {
                #[tool]
                async fn ad(&self, request: MathOperands) -> Result<MathResult, MathError> {
                    todo!()
                }
                #[tool]
                async fn garden_status(&self) -> Result<GardenStatus, ToolError> {
                    todo!()
                }
                #[tool]
                async fn garden_play(&self) -> Result<(), GardenError> {
                    todo!()
                }
                #[tool]
                async fn transfer(&self, request: TransferRequest) -> Result<TransferResponse, ToolError> {
                    todo!()
                }
            }
        },
    );
    assert_eq!(
        expansion.errors.messages(),
        [crate::messages::unknown_tool("ad", Some("add"))]
    );
}
