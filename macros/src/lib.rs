//! Procedural macros for Toolwright: `#[tools]` / `#[tool]` handler binding.
//!
//! The entry points here only convert tokens; the work is done on
//! `proc_macro2` tokens by the modules below, which are unit-tested and
//! snapshot-tested without a compiler in the loop.
//!
//! How the pieces meet (see `docs/rust.md`, "How `#[tools]` finds the
//! catalogue"): `#[tools]` calls the generated `__toolwright_catalogue!`,
//! which calls `bind!` with a description of every tool; `bind!` checks
//! the `#[tool]` methods against it and writes the `Service` impl.

mod bind;
mod catalogue;
mod diag;
mod emit;
mod entries;
mod handlers;
mod input;
mod messages;
mod options;
mod resolve;
mod signature;
mod suggest;
mod tool_attr;
mod tools_attr;

#[cfg(test)]
mod tests;

use proc_macro::TokenStream;

/// Binds the `#[tool]` methods of an impl block to the generated catalogue
/// and implements `toolwright::Service` for the block's type.
///
/// `#[tools]` finds the catalogue at the crate root, where
/// `toolwright::include_tools!()` usually is; `#[tools(path::to::module)]`
/// names another module. Every tool must have a handler, unless the block
/// says `#[tools(not_implemented)]`, which answers the unbound ones with
/// `NOT_IMPLEMENTED`, or `#[tools(not_implemented(tool_a, tool_b))]`, which
/// answers only the listed ones so (every other tool still needs a handler).
///
/// ```text
/// #[toolwright::tools]
/// impl Calculator {
///     #[tool]
///     async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
///         let result = request.a.checked_add(request.b).ok_or(MathError::Overflow {})?;
///         Ok(MathResult { result })
///     }
/// }
/// ```
#[proc_macro_attribute]
pub fn tools(args: TokenStream, item: TokenStream) -> TokenStream {
    match syn::parse(args) {
        Ok(args) => tools_attr::expand(args, item.into()).into(),
        Err(error) => tools_attr::bad_arguments(error, item.into()).into(),
    }
}

/// Marks a handler method inside a `#[tools]` impl block: the method of
/// the tool of the same name, or `#[tool(name = "...")]` to bind another.
///
/// A handler takes `&self`, the tool's request (unless it takes none) and
/// optionally a `toolwright::Context` last, and returns
/// `Result<Response, Error>` (`()` for a tool without a response,
/// `toolwright::ToolError` for one without errors); `async fn` or plain
/// `fn`. A handler under `#[cfg(...)]` counts as bound; where it is
/// compiled out, its tool answers `NOT_IMPLEMENTED`.
#[proc_macro_attribute]
pub fn tool(_args: TokenStream, item: TokenStream) -> TokenStream {
    tool_attr::outside_tools(item.into()).into()
}

/// Marks a resource's handler inside a `#[tools]` impl block: the method
/// of the resource of the same name, or `#[resource(name = "...")]`.
///
/// It takes `&self`, the resource's arguments (its URI template's
/// variables as their generated struct, unless it has none) and
/// optionally a `toolwright::Context` last, and returns
/// `Result<Contents, Error>`: `String` (or anything `Into<String>`) for
/// `contents text`, `Vec<u8>` or `toolwright::Bytes` for `contents bytes`,
/// the declared type for typed contents; `Error` the resource's `errors`
/// type, or `toolwright::ToolError`.
#[proc_macro_attribute]
pub fn resource(_args: TokenStream, item: TokenStream) -> TokenStream {
    tool_attr::outside_tools_as("resource", item.into()).into()
}

/// Marks a prompt's handler inside a `#[tools]` impl block: the method of
/// the prompt of the same name, or `#[prompt(name = "...")]`. It takes
/// `&self`, the prompt's arguments (unless it has none) and optionally a
/// `toolwright::Context` last, and returns
/// `Result<toolwright::entry::PromptMessages, Error>`.
#[proc_macro_attribute]
pub fn prompt(_args: TokenStream, item: TokenStream) -> TokenStream {
    tool_attr::outside_tools_as("prompt", item.into()).into()
}

/// Marks the method that completes an `@complete` argument of a resource
/// or prompt inside a `#[tools]` impl block: `#[complete(entry.argument)]`.
/// It takes `&self`, a `toolwright::entry::CompletionRequest` (what has
/// been typed, and the other arguments chosen) and optionally a
/// `toolwright::Context`, and returns the values: a `Vec<String>`, a
/// `toolwright::entry::Completion`, or a `Result` of either.
#[proc_macro_attribute]
pub fn complete(_args: TokenStream, item: TokenStream) -> TokenStream {
    tool_attr::outside_tools_as("complete", item.into()).into()
}

/// Binds a `#[tools]` block once the catalogue is known; called by the
/// generated `__toolwright_catalogue!`. Not public API.
#[doc(hidden)]
#[proc_macro]
pub fn bind(input: TokenStream) -> TokenStream {
    bind::bind(input.into()).into()
}
