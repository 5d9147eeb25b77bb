//! The IDL's syntax: tokens, lexer, syntax tree and parser. Used by the
//! checker only; nothing downstream sees the syntax tree.

pub mod ast;
pub mod keywords;
mod lexer;
mod parser;
pub mod token;

pub use parser::MAX_TYPE_DEPTH;

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
            let tokens = lexer::lex(id, file.text(), cx);
            parser::parse(id, &tokens, cx)
        })
        .collect()
}
