//! `example "Title" { request { ... } response { ... } }` and the JSON-like
//! data an example's parts hold.

use super::{Fail, MAX_TYPE_DEPTH, PResult, Parser};
use crate::diag::messages;
use crate::syntax::ast::{Data, DataKind, Example, ExamplePart, ExamplePartKind, Key};
use crate::syntax::keywords;
use crate::syntax::token::TokenKind;

/// Data nested deeper than this is refused: it bounds the parser's
/// recursion, and no example of a real tool needs more than the types it
/// describes (themselves at most [`MAX_TYPE_DEPTH`] deep, plus structs).
const MAX_DATA_DEPTH: usize = 2 * MAX_TYPE_DEPTH;

impl Parser<'_, '_> {
    /// After `example`: the title and the body. A mistake inside the body is
    /// reported and the rest of the body skipped, so the clauses after it
    /// are read as the tool's again.
    pub(super) fn example(&mut self) -> PResult<Example> {
        let title = self.quoted(keywords::EXAMPLE)?;
        let body = self.pos;
        let open = self.expect(&TokenKind::LBrace, "`{` after the example's title")?;
        let mut parts = Vec::new();
        loop {
            match self.peek() {
                TokenKind::RBrace => {
                    let close = self.span();
                    self.bump();
                    return Ok(Example {
                        title,
                        parts,
                        close,
                    });
                }
                TokenKind::Eof => {
                    let found = self.peek().describe();
                    let span = self.span();
                    self.cx.push(
                        messages::expected(span, "`}`", &found)
                            .with_secondary(open, "the example's body opens here"),
                    );
                    return Err(Fail);
                }
                _ => {}
            }
            match self.example_part() {
                Ok(part) => parts.push(part),
                Err(Fail) => {
                    // Back to the body's `{`, to skip it whole however
                    // deep in the data the mistake was.
                    self.pos = body;
                    self.skip_braces();
                    return Err(Fail);
                }
            }
        }
    }

    /// `request DATA`, `response DATA` or `error variant DATA?`.
    fn example_part(&mut self) -> PResult<ExamplePart> {
        let word = match self.peek() {
            TokenKind::Ident(w) if keywords::EXAMPLE_PARTS.contains(&w.as_str()) => w.clone(),
            _ => {
                let found = self.peek().describe();
                let span = self.span();
                self.cx.push(messages::expected_with_help(
                    span,
                    "`request`, `response` or `error`",
                    &found,
                    "an example holds `request { ... }` and either `response { ... }` or `error variant`",
                ));
                return Err(Fail);
            }
        };
        let keyword = self.ident("an example part")?;
        let kind = match word.as_str() {
            keywords::REQUEST => ExamplePartKind::Request(self.data(0)?),
            keywords::RESPONSE => ExamplePartKind::Response(self.data(0)?),
            _ => {
                let variant = self.ident("the name of one of the tool's errors")?;
                let details = if self.at(&TokenKind::LBrace) {
                    Some(self.data(0)?)
                } else {
                    None
                };
                ExamplePartKind::Error { variant, details }
            }
        };
        Ok(ExamplePart { keyword, kind })
    }

    /// One value: `null`, `true`, a number, a string, a bare name, a list
    /// `[...]` or an object `{ key: value, ... }` (trailing commas allowed).
    fn data(&mut self, depth: usize) -> PResult<Data> {
        let start = self.span();
        if depth > MAX_DATA_DEPTH {
            self.cx.push(messages::data_too_deep(start, MAX_DATA_DEPTH));
            return Err(Fail);
        }
        let kind = match self.peek().clone() {
            TokenKind::Int(i) => DataKind::Int(i),
            TokenKind::Float(f) => DataKind::Float(f),
            TokenKind::Str(s) => DataKind::Str(s),
            TokenKind::Ident(w) => match w.as_str() {
                keywords::TRUE => DataKind::Bool(true),
                keywords::FALSE => DataKind::Bool(false),
                keywords::NULL => DataKind::Null,
                _ => DataKind::Name(w),
            },
            TokenKind::LBracket => {
                self.bump();
                let mut items = Vec::new();
                while !self.at(&TokenKind::RBracket) {
                    items.push(self.data(depth + 1)?);
                    if !self.eat(&TokenKind::Comma) {
                        break;
                    }
                }
                self.expect(&TokenKind::RBracket, "`,` or `]`")?;
                return Ok(Data {
                    kind: DataKind::List(items),
                    span: start.to(self.prev_span()),
                });
            }
            TokenKind::LBrace => {
                self.bump();
                let mut entries = Vec::new();
                while !self.at(&TokenKind::RBrace) {
                    let key = match self.peek().clone() {
                        TokenKind::Ident(name) | TokenKind::Str(name) => Key {
                            name,
                            span: self.span(),
                        },
                        _ => return Err(self.error_expected("a key (a name or a string) or `}`")),
                    };
                    self.bump();
                    self.expect(&TokenKind::Colon, "`:` after the key")?;
                    entries.push((key, self.data(depth + 1)?));
                    if !self.eat(&TokenKind::Comma) {
                        break;
                    }
                }
                self.expect(&TokenKind::RBrace, "`,` or `}`")?;
                return Ok(Data {
                    kind: DataKind::Object(entries),
                    span: start.to(self.prev_span()),
                });
            }
            _ => {
                return Err(self.error_expected(
                    "a value (number, string, `true`, `false`, `null`, a name, `[...]` or `{...}`)",
                ));
            }
        };
        self.bump();
        Ok(Data { kind, span: start })
    }
}
