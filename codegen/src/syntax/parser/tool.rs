//! Tool and action bodies, `tool name { clause* }`, and the clause
//! machinery every body shares (resources and prompts too, `entry.rs`).

use super::entry::Body;
use super::{Fail, PResult, Parser};
use crate::diag::messages;
use crate::source::Span;
use crate::syntax::ast::{Action, Clause, ClauseKind, Ident, Meta, Shape, Tool};
use crate::syntax::keywords;
use crate::syntax::token::TokenKind;

impl Parser<'_, '_> {
    pub(super) fn tool(&mut self, meta: Meta) -> PResult<Tool> {
        let keyword = self.span();
        self.bump();
        let name = self.ident("a tool name")?;
        let (clauses, close) = self.clauses(Body::Tool)?;
        Ok(Tool {
            meta,
            keyword,
            name,
            clauses,
            close,
        })
    }

    /// `{ clause* }`, recovering at the next clause keyword after a bad one.
    pub(super) fn clauses(&mut self, body: Body) -> PResult<(Vec<Clause>, Span)> {
        self.expect(&TokenKind::LBrace, "`{`")?;
        let mut clauses = Vec::new();
        let unclosed = format!("the {} body above is not closed", body.name());
        loop {
            let meta = self.meta();
            if let Some(close) = self.end_of_body(&meta, "a clause", &unclosed) {
                return Ok((clauses, close));
            }
            let keyword = match self.peek() {
                TokenKind::Ident(w) if body.reads(w) => Some(Ident {
                    name: w.clone(),
                    span: self.span(),
                }),
                _ => None,
            };
            match self.clause(meta, body) {
                Ok(clause) => clauses.push(clause),
                Err(Fail) => {
                    if let Some(keyword) = keyword {
                        clauses.push(Clause {
                            meta: Meta::default(),
                            keyword,
                            kind: ClauseKind::Invalid,
                        });
                    }
                    self.recover_to_clause();
                }
            }
        }
    }

    fn clause(&mut self, meta: Meta, body: Body) -> PResult<Clause> {
        let TokenKind::Ident(word) = self.peek().clone() else {
            let found = self.peek().describe();
            let span = self.span();
            let help = match self.peek() {
                TokenKind::Comma | TokenKind::Semi => {
                    "clauses are separated by whitespace only, without `,` or `;`".to_owned()
                }
                _ => format!(
                    "a {} body holds clauses such as {}",
                    body.name(),
                    body.examples()
                ),
            };
            self.cx.push(messages::expected_with_help(
                span, "a clause", &found, &help,
            ));
            self.bump();
            return Err(Fail);
        };
        let keyword = self.ident("a clause")?;
        if !body.reads(&word) {
            self.cx.push(body.refuse(keyword.span, &word));
            return Err(Fail);
        }
        let kind = match word.as_str() {
            keywords::TIMING => ClauseKind::Timing(self.ident("a timing class")?),
            keywords::TITLE => match self.peek().clone() {
                TokenKind::Str(s) => {
                    self.bump();
                    ClauseKind::Title(s)
                }
                _ => return Err(self.error_expected("a string after `title`")),
            },
            keywords::REQUEST => ClauseKind::Request(self.shape(keywords::REQUEST)?),
            keywords::RESPONSE => ClauseKind::Response(self.shape(keywords::RESPONSE)?),
            keywords::ERRORS => ClauseKind::Errors(self.ident("the name of an `error` type")?),
            keywords::STREAM => ClauseKind::Stream(self.ident("the name of a stream chunk type")?),
            keywords::ACTION if body == Body::Action => {
                // Actions do not nest. Skip the inner one without recursing,
                // so no file can drive the parser's stack.
                self.cx
                    .push(messages::clause_in_action(keyword.span, keywords::ACTION));
                self.skip_action();
                return Err(Fail);
            }
            keywords::ACTION => {
                let name = self.ident("an action name")?;
                let (clauses, close) = self.clauses(Body::Action)?;
                ClauseKind::Action(Action {
                    name,
                    clauses,
                    close,
                })
            }
            keywords::URI => ClauseKind::Uri(self.quoted(keywords::URI)?),
            keywords::MIME => ClauseKind::Mime(self.quoted(keywords::MIME)?),
            keywords::CONTENTS => {
                ClauseKind::Contents(self.ident("`text`, `bytes` or a type name after `contents`")?)
            }
            keywords::ARGUMENTS => ClauseKind::Arguments(self.shape(keywords::ARGUMENTS)?),
            keywords::EXAMPLE => ClauseKind::Example(self.example()?),
            _ => {
                self.cx.push(body.refuse(keyword.span, &word));
                return Err(Fail);
            }
        };
        Ok(Clause {
            meta,
            keyword,
            kind,
        })
    }

    /// `Name`, `{ fields }` or `Name { fields }`.
    fn shape(&mut self, clause: &str) -> PResult<Shape> {
        let name = match self.peek() {
            TokenKind::Ident(_) => Some(self.ident("a type name")?),
            _ => None,
        };
        let (fields, close) = if self.at(&TokenKind::LBrace) {
            let (fields, close) = self.fields()?;
            (Some(fields), Some(close))
        } else {
            (None, None)
        };
        if name.is_none() && fields.is_none() {
            let found = self.peek().describe();
            let span = self.span();
            self.cx.push(messages::expected_with_help(
                span,
                &format!("a type name or `{{` after `{clause}`"),
                &found,
                &format!("write `{clause} {{ field: type }}` or `{clause} SomeStruct`"),
            ));
            return Err(Fail);
        }
        Ok(Shape {
            name,
            fields,
            close,
        })
    }

    /// Skips an optional name and a balanced `{ ... }` body.
    fn skip_action(&mut self) {
        if matches!(self.peek(), TokenKind::Ident(_)) {
            self.bump();
        }
        self.skip_braces();
    }

    /// Skips to the next clause keyword (of any body, so that a clause
    /// that belongs elsewhere is reported too) or the `}` closing the body.
    fn recover_to_clause(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                TokenKind::Eof => return,
                TokenKind::LBrace => depth += 1,
                TokenKind::RBrace if depth == 0 => return,
                TokenKind::RBrace => depth -= 1,
                TokenKind::Ident(w) if depth == 0 && keywords::CLAUSES.contains(&w.as_str()) => {
                    return;
                }
                _ if depth == 0 && self.at_item_start() => return,
                _ => {}
            }
            self.bump();
        }
    }
}
