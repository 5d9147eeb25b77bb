//! `toolwright fmt`: the canonical layout of a `.tool` file. Used by the CLI.
//!
//! The layout is a function of the syntax tree and the comments: one item per
//! paragraph, one clause per line, four-space indents, docs above attributes
//! above the thing they describe. A field, value or variant list stays on
//! one line when it fits in 100 columns and carries no docs, attributes or
//! comments; otherwise it has one entry per line with trailing commas. Single
//! blank lines between entries are kept. Literals keep their spelling.

mod printer;

use crate::Diagnostics;
use crate::diag::Ctxt;
use crate::source::{FileId, Sources};
use crate::syntax::{lexer, parser};

/// The canonical formatting of one file. Fails with the syntax errors if the
/// file does not parse; names and types need not resolve.
pub fn format_file(sources: &Sources, file: FileId) -> Result<String, Diagnostics> {
    let source = sources.get(file);
    let mut cx = Ctxt::new();
    if let Some(at) = source.invalid_utf8_at() {
        cx.push(crate::diag::messages::invalid_utf8(crate::Span::new(
            file,
            at,
            at + 1,
        )));
    }
    let lossy = source.invalid_utf8_at().is_some();
    let (tokens, comments) = lexer::lex_with_comments(file, source.text(), lossy, &mut cx);
    let ast = parser::parse(file, &tokens, &mut cx);
    cx.gate()?;
    Ok(printer::print(source.text(), &ast, &comments))
}
