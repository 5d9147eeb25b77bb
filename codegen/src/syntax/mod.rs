//! The IDL's syntax: tokens, lexer, syntax tree and parser. Used by the
//! checker only; nothing downstream sees the syntax tree.

pub mod ast;
pub mod keywords;
pub(crate) mod lexer;
pub(crate) mod parser;
pub mod token;

use crate::diag::{Ctxt, messages};
use crate::source::{Sources, Span};

/// Lexes and parses every file, reporting syntax errors into `cx`.
pub(crate) fn parse_all(sources: &Sources, cx: &mut Ctxt) -> Vec<ast::File> {
    sources
        .iter()
        .map(|(id, file)| {
            if let Some(at) = file.invalid_utf8_at() {
                cx.push(messages::invalid_utf8(Span::new(id, at, at + 1)));
            }
            let lossy = file.invalid_utf8_at().is_some();
            let (tokens, _) = lexer::lex_with_comments(id, file.text(), lossy, cx);
            parser::parse(id, &tokens, cx)
        })
        .collect()
}
