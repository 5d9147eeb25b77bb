//! The checker: turns syntax trees into the model, reporting every error it
//! finds. Used by `crate::check` for every door (CLI, build.rs, proc-macro).
//!
//! Phases: collect names (`symbols`) → lower types (`types`, `fields`,
//! `defaults`, `resolve`) → lower tools (`tools`) → analyse the type graph
//! (`graph`). Each phase keeps going after an error; the caller gates.

mod attrs;
mod defaults;
mod fields;
mod graph;
mod names;
mod resolve;
mod symbols;
mod tools;
mod types;

use crate::diag::Ctxt;
use crate::model::Model;
use crate::source::Sources;
use crate::syntax::ast;

/// Builds the model. The result is only meaningful if `cx` holds no errors
/// afterwards.
pub(crate) fn check(sources: &Sources, files: &[ast::File], cx: &mut Ctxt) -> Model {
    let symbols = symbols::Symbols::collect(sources, files, cx);
    let mut types = types::lower(&symbols, sources, cx);
    let tools = tools::lower(&symbols, sources, cx);
    let type_order = graph::analyse(&symbols, &mut types, cx);
    Model {
        files: symbols.files,
        tools,
        types,
        type_order,
    }
}
