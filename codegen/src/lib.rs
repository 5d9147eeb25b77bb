//! Toolwright's IDL frontend and code generators.
//!
//! A catalogue of tools is declared in `.tool` files. This crate reads them
//! ([`Sources`]), checks them — reporting every problem at once, with
//! file:line:col, a snippet and a hint ([`Diagnostics`]) — and produces the
//! [`Model`] that every backend reads. [`generate`] runs the backends;
//! [`Builder`] is the build.rs API around it.
//!
//! ```
//! use toolwright_codegen::{Sources, check};
//!
//! let mut sources = Sources::new();
//! sources.add("math.tool", "tool add { timing sync request { a: f64, b: f64 } response { sum: f64 } }");
//! let model = check(&sources).expect("valid catalogue");
//! assert_eq!(model.tools[0].name, "add");
//! ```

#![deny(missing_docs)]

mod builder;
mod builtin;
mod check;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
pub mod diag;
#[cfg(feature = "diff")]
pub mod diff;
pub mod format;
mod generate;
mod lang;
mod lint;
#[cfg(feature = "lsp")]
pub mod lsp;
pub mod model;
mod options;
mod output;
mod pattern;
mod source;
mod suggest;
// The syntax tree is the checker's input only: backends and users read the
// model, so the tree can change without breaking anyone.
mod syntax;

pub use builder::{BuildError, Builder};
pub use diag::{ColorChoice, Diagnostic, Diagnostics};
pub use format::format_file;
pub use generate::{Binding, generate, generate_bindings, generate_docs, served_docs_page};
pub use lang::schema::profile::Profile;
pub use model::Model;
pub use options::{Clients, Generator, InvalidRuntimeCrate, Options, RuntimeCrate, Side};
pub use output::OutputFile;
pub use source::{
    FileId, LoadError, LoadErrorKind, Location, MAX_FILE_BYTES, SourceFile, Sources, Span,
};

/// Parses and checks every file in `sources`: the frontend of [`generate`],
/// and all of `toolwright check`. Returns the model, or every diagnostic
/// found (syntax and semantic errors together, sorted by position).
pub fn check(sources: &Sources) -> Result<Model, Diagnostics> {
    let mut cx = diag::Ctxt::new();
    let files = syntax::parse_all(sources, &mut cx);
    let model = check::check(sources, &files, &mut cx);
    cx.gate().map_err(|d| d.explain_builtins(sources))?;
    Ok(model)
}

/// A valid catalogue and the warnings it draws.
#[derive(Debug)]
pub struct Checked {
    /// The checked model.
    pub model: Model,
    /// Every warning (`TW4xx`), sorted by position; may be empty.
    pub warnings: Diagnostics,
}

/// [`check`], then the warnings a valid catalogue can still draw: a type
/// no tool uses, a deprecated item used by a live one, a tool, action or
/// field without a doc comment, an `async_long` tool without errors, a
/// scope one tool needs that looks like a typo of another.
/// Warnings are only looked for once there are no errors.
pub fn check_with_warnings(sources: &Sources) -> Result<Checked, Diagnostics> {
    check_for_clients(sources, &Clients::default())
}

/// [`check_with_warnings`], for a catalogue handed to `clients`: each
/// tool's name is checked as those clients pass it on to LLM providers,
/// after their prefix (`mcp__studio__`), against the targeted providers'
/// name rules (`TW405`), and each request field a targeted provider
/// profile cannot state faithfully draws `TW406`.
pub fn check_for_clients(sources: &Sources, clients: &Clients) -> Result<Checked, Diagnostics> {
    let model = check(sources)?;
    let warnings = Diagnostics::new(lint::lint(&model, sources, clients));
    Ok(Checked { model, warnings })
}
