//! Procedural macros for Toolwright: `#[tools]` / `#[tool]` handler binding.

use proc_macro::TokenStream;

/// Binds the `#[tool]` methods of an impl block to a generated catalogue.
#[proc_macro_attribute]
pub fn tools(_args: TokenStream, item: TokenStream) -> TokenStream {
    item
}

/// Marks a handler method inside a `#[tools]` impl block.
#[proc_macro_attribute]
pub fn tool(_args: TokenStream, item: TokenStream) -> TokenStream {
    item
}

/// Expands the binding once the catalogue's tokens are known (called by the
/// generated catalogue macro). Not public API.
#[doc(hidden)]
#[proc_macro]
pub fn bind(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}
