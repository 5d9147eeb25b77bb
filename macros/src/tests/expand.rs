//! Snapshots of what `bind!` writes. Review a changed snapshot as code: it
//! is what every user's crate compiles.

use quote::quote;

use super::{expand, expand_in, pretty, snapshot};

fn expansion(options: proc_macro2::TokenStream, block: proc_macro2::TokenStream) -> String {
    let expansion = expand(options, block);
    assert_eq!(expansion.errors.messages(), Vec::<String>::new());
    pretty(expansion.tokens)
}

#[test]
fn every_kind_of_handler() {
    snapshot(
        "expand__every_kind_of_handler",
        &expansion(
            quote!(),
            quote! {
                impl Studio {
                    #[tool]
                    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
                        Ok(MathResult { result: request.a + request.b })
                    }

                    #[tool(name = "garden_status")]
                    fn status(&self) -> Result<GardenStatus, toolwright::ToolError> {
                        Ok(self.status.clone())
                    }

                    #[toolwright::tool]
                    async fn garden_play(&self) -> Result<(), GardenError> {
                        Ok(())
                    }

                    #[tool]
                    async fn transfer(
                        &self,
                        request: TransferRequest,
                        cx: Context<TransferProgress>,
                    ) -> Result<TransferResponse, ToolError> {
                        cx.send(&TransferProgress { done: 1 })?;
                        Ok(TransferResponse { bytes: 1 })
                    }

                    fn helper(&self) {}
                }
            },
        ),
    );
}

#[test]
fn not_implemented_without_handlers() {
    let expansion = expansion(quote!(not_implemented), quote!(impl Studio {}));
    snapshot("expand__not_implemented_without_handlers", &expansion);
}

#[test]
fn not_implemented_for_listed_tools() {
    // `r#transfer`: a listed name may be written raw.
    let expansion = expansion(
        quote!(not_implemented(garden_status, garden_play, r#transfer,)),
        quote! {
            impl Studio {
                #[tool]
                async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
                    Ok(MathResult { result: request.a + request.b })
                }
            }
        },
    );
    snapshot("expand__not_implemented_for_listed_tools", &expansion);
}

#[test]
fn handler_returning_impl_future() {
    snapshot(
        "expand__handler_returning_impl_future",
        &expansion(
            quote!(not_implemented),
            quote! {
                impl Studio {
                    #[tool]
                    fn add(
                        &self,
                        request: MathOperands,
                    ) -> impl Future<Output = Result<MathResult, MathError>> + Send + 'static {
                        async move { Ok(MathResult { result: request.a + request.b }) }
                    }
                }
            },
        ),
    );
}

#[test]
fn generic_block_in_a_module() {
    let expansion = expand_in(
        quote!(crate::api),
        quote!(not_implemented),
        quote! {
            impl<B: Backend> Studio<B> where B: Send + Sync + 'static {
                #[tool]
                async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
                    self.backend.add(request).await
                }
            }
        },
    );
    assert_eq!(expansion.errors.messages(), Vec::<String>::new());
    snapshot(
        "expand__generic_block_in_a_module",
        &pretty(expansion.tokens),
    );
}

#[test]
fn handler_under_cfg() {
    snapshot(
        "expand__handler_under_cfg",
        &expansion(
            quote!(not_implemented),
            quote! {
                impl Studio {
                    #[cfg(feature = "math")]
                    #[tool]
                    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
                        Ok(MathResult { result: request.a + request.b })
                    }
                }
            },
        ),
    );
}

/// A catalogue generated with `Builder::runtime_crate` names the runtime's
/// path; every path of the binding goes through it.
#[test]
fn the_runtime_path_comes_from_the_catalogue() {
    let catalogue = super::catalogue();
    let input = quote! {
        runtime (::my_sdk::toolwright)
        #catalogue
        module (crate)
        options (not_implemented)
        impl Studio {
            #[tool]
            async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
                Ok(MathResult { result: request.a + request.b })
            }
        }
    };
    let Ok(expansion) = crate::bind::expand(input) else {
        panic!("bind! rejected its input");
    };
    let text = pretty(expansion.tokens);
    assert!(
        text.contains("impl ::my_sdk::toolwright::__private::Service for Studio"),
        "{text}"
    );
    // Every path into the runtime is the catalogue's, none the default.
    assert_eq!(
        text.matches("::toolwright::__private").count(),
        text.matches("::my_sdk::toolwright::__private").count(),
        "{text}"
    );
}
