//! Recursive-descent parser with recovery: a bad field skips to the next
//! field, a bad item to the next item, so one run reports every syntax error.

mod items;
mod tool;

use super::ast::{Attr, Docs, Ident, LitKind, Literal, Meta, TypeExpr};
use super::keywords;
use super::token::{Token, TokenKind};
use crate::diag::{Ctxt, messages};
use crate::source::{FileId, Span};

/// Types nested deeper than this (`list<list<...>>`) are rejected: no real
/// schema needs it, and it bounds the recursion of every later phase.
pub const MAX_TYPE_DEPTH: usize = 16;

/// Marks a parse failure that has already been reported.
#[derive(Debug)]
pub(crate) struct Fail;

pub(crate) type PResult<T> = Result<T, Fail>;

pub(crate) fn parse(file: FileId, tokens: &[Token], cx: &mut Ctxt) -> super::ast::File {
    Parser {
        file,
        tokens,
        pos: 0,
        cx,
    }
    .file()
}

pub(crate) struct Parser<'t, 'c> {
    file: FileId,
    tokens: &'t [Token],
    pos: usize,
    cx: &'c mut Ctxt,
}

impl Parser<'_, '_> {
    fn peek(&self) -> &TokenKind {
        &self.tokens[self.pos].kind
    }

    fn peek_at(&self, n: usize) -> &TokenKind {
        let i = (self.pos + n).min(self.tokens.len() - 1);
        &self.tokens[i].kind
    }

    fn span(&self) -> Span {
        let t = &self.tokens[self.pos];
        Span::new(self.file, t.start, t.end)
    }

    fn prev_span(&self) -> Span {
        let t = &self.tokens[self.pos.saturating_sub(1)];
        Span::new(self.file, t.start, t.end)
    }

    fn bump(&mut self) {
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
    }

    fn at(&self, kind: &TokenKind) -> bool {
        self.peek() == kind
    }

    fn eat(&mut self, kind: &TokenKind) -> bool {
        if self.at(kind) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn error_expected(&mut self, what: &str) -> Fail {
        let found = self.peek().describe();
        let span = self.span();
        self.cx.push(messages::expected(span, what, &found));
        Fail
    }

    fn expect(&mut self, kind: &TokenKind, what: &str) -> PResult<Span> {
        if self.at(kind) {
            let span = self.span();
            self.bump();
            Ok(span)
        } else {
            Err(self.error_expected(what))
        }
    }

    fn ident(&mut self, what: &str) -> PResult<Ident> {
        match self.peek() {
            TokenKind::Ident(name) => {
                let ident = Ident {
                    name: name.clone(),
                    span: self.span(),
                };
                self.bump();
                Ok(ident)
            }
            _ => Err(self.error_expected(what)),
        }
    }

    /// True at `word name` where `word` starts an item: the sign of a missing
    /// `}` when seen inside a body.
    fn at_item_start(&self) -> bool {
        match (self.peek(), self.peek_at(1)) {
            (TokenKind::Ident(w), TokenKind::Ident(_)) => keywords::ITEMS.contains(&w.as_str()),
            _ => false,
        }
    }

    /// Skips to just before the next top-level item.
    fn recover_to_item(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                TokenKind::Eof => return,
                TokenKind::LBrace => depth += 1,
                TokenKind::RBrace => {
                    if depth <= 1 {
                        self.bump();
                        if depth == 1 {
                            return;
                        }
                        continue;
                    }
                    depth -= 1;
                }
                TokenKind::Doc(_) | TokenKind::At if depth == 0 => return,
                _ if depth == 0 && self.at_item_start() => return,
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips to the next `,` or the `}` closing the current list, whichever
    /// comes first at this nesting level. Leaves the cursor on it.
    fn recover_in_list(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                TokenKind::Eof => return,
                TokenKind::LBrace | TokenKind::LParen | TokenKind::LBracket | TokenKind::Lt => {
                    depth += 1;
                }
                TokenKind::RBrace if depth == 0 => return,
                TokenKind::Comma if depth == 0 => return,
                TokenKind::RBrace | TokenKind::RParen | TokenKind::RBracket | TokenKind::Gt => {
                    depth = depth.saturating_sub(1);
                }
                _ if depth == 0 && self.at_item_start() => return,
                _ => {}
            }
            self.bump();
        }
    }

    /// Docs and attributes, in any order.
    fn meta(&mut self) -> Meta {
        let mut meta = Meta::default();
        loop {
            match self.peek() {
                TokenKind::Doc(_) => {
                    let start = self.span();
                    let mut text = Vec::new();
                    let mut end = start;
                    while let TokenKind::Doc(line) = self.peek() {
                        text.push(line.clone());
                        end = self.span();
                        self.bump();
                    }
                    let docs = match meta.docs.take() {
                        Some(mut d) => {
                            d.text.push('\n');
                            d.text.push_str(&text.join("\n"));
                            d.span = d.span.to(end);
                            d
                        }
                        None => Docs {
                            text: text.join("\n"),
                            span: start.to(end),
                        },
                    };
                    meta.docs = Some(docs);
                }
                TokenKind::At => {
                    if let Ok(attr) = self.attr() {
                        meta.attrs.push(attr);
                    }
                }
                _ => return meta,
            }
        }
    }

    fn attr(&mut self) -> PResult<Attr> {
        let at = self.span();
        self.bump();
        let name = match self.ident("an attribute name after `@`") {
            Ok(name) => name,
            Err(fail) => {
                self.bump();
                return Err(fail);
            }
        };
        let mut args = Vec::new();
        let mut end = name.span;
        if self.eat(&TokenKind::LParen) {
            loop {
                if self.at(&TokenKind::RParen) {
                    break;
                }
                match self.literal() {
                    Ok(lit) => args.push(lit),
                    Err(fail) => {
                        self.skip_past(&TokenKind::RParen);
                        return Err(fail);
                    }
                }
                if !self.eat(&TokenKind::Comma) {
                    break;
                }
            }
            end = self.span();
            if let Err(fail) = self.expect(&TokenKind::RParen, "`,` or `)`") {
                self.skip_past(&TokenKind::RParen);
                return Err(fail);
            }
        }
        Ok(Attr {
            name,
            args,
            span: at.to(end),
        })
    }

    /// Skips up to and including `kind` on the current line of tokens, but
    /// never past a brace (so a bad attribute does not swallow a body).
    fn skip_past(&mut self, kind: &TokenKind) {
        loop {
            match self.peek() {
                TokenKind::Eof | TokenKind::LBrace | TokenKind::RBrace => return,
                k if k == kind => {
                    self.bump();
                    return;
                }
                _ => self.bump(),
            }
        }
    }

    fn literal(&mut self) -> PResult<Literal> {
        let span = self.span();
        let kind = match self.peek().clone() {
            TokenKind::Int(v) => LitKind::Int(v),
            TokenKind::Float(v) => LitKind::Float(v),
            TokenKind::Str(s) => LitKind::Str(s),
            TokenKind::Ident(w) if w == keywords::TRUE => LitKind::Bool(true),
            TokenKind::Ident(w) if w == keywords::FALSE => LitKind::Bool(false),
            TokenKind::Ident(w) => LitKind::Ident(w),
            TokenKind::LBracket => {
                self.bump();
                if self.eat(&TokenKind::RBracket) {
                    return Ok(Literal {
                        kind: LitKind::EmptyList,
                        span: span.to(self.prev_span()),
                    });
                }
                let mut depth = 1usize;
                while depth > 0 {
                    match self.peek() {
                        TokenKind::Eof | TokenKind::LBrace | TokenKind::RBrace => break,
                        TokenKind::LBracket => depth += 1,
                        TokenKind::RBracket => depth -= 1,
                        _ => {}
                    }
                    self.bump();
                }
                let whole = span.to(self.prev_span());
                self.cx.push(messages::non_empty_list(whole));
                return Err(Fail);
            }
            _ => {
                return Err(self
                    .error_expected("a value (number, string, `true`, `false`, `[]` or a name)"));
            }
        };
        self.bump();
        Ok(Literal { kind, span })
    }

    fn type_expr(&mut self, depth: usize) -> PResult<TypeExpr> {
        if depth > MAX_TYPE_DEPTH {
            let span = self.span();
            self.cx.push(messages::too_deep(span, MAX_TYPE_DEPTH));
            return Err(Fail);
        }
        let name = self.ident("a type")?;
        let mut span = name.span;
        let mut args = Vec::new();
        if self.eat(&TokenKind::Lt) {
            loop {
                args.push(self.type_expr(depth + 1)?);
                if !self.eat(&TokenKind::Comma) {
                    break;
                }
            }
            span = span.to(self.span());
            self.expect(&TokenKind::Gt, "`>` to close the type arguments")?;
        }
        let mut ty = TypeExpr::Path { name, args, span };
        while self.at(&TokenKind::Question) {
            let question = self.span();
            self.bump();
            ty = TypeExpr::Optional {
                inner: Box::new(ty),
                question,
            };
        }
        Ok(ty)
    }
}
