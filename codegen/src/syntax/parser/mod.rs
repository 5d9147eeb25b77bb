//! Recursive-descent parser with recovery: a bad field skips to the next
//! field, a bad item to the next item, so one run reports every syntax error.

mod entry;
mod example;
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
        type_start: Span::new(file, 0, 0),
        cx,
    }
    .file()
}

pub(crate) struct Parser<'t, 'c> {
    file: FileId,
    tokens: &'t [Token],
    pos: usize,
    /// Where the type expression being parsed began, for depth errors.
    type_start: Span,
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

    /// At `{`: skips to just past its matching `}` (or to end of file),
    /// iteratively, so no nesting depth can exhaust the stack.
    fn skip_braces(&mut self) {
        if !self.eat(&TokenKind::LBrace) {
            return;
        }
        let mut depth = 1usize;
        while depth > 0 && !self.at(&TokenKind::Eof) {
            match self.peek() {
                TokenKind::LBrace => depth += 1,
                TokenKind::RBrace => depth -= 1,
                _ => {}
            }
            self.bump();
        }
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
        if depth == 0 {
            self.type_start = self.span();
        }
        if depth > MAX_TYPE_DEPTH {
            let span = self.type_start.to(self.span());
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

#[cfg(test)]
mod tests {
    use super::super::ast::{self, ClauseKind, EntryKind, File, Item, LitKind, TypeBody, TypeExpr};
    use super::super::lexer;
    use crate::diag::{Code, Ctxt};
    use crate::source::FileId;

    fn parse(text: &str) -> (File, Vec<Code>) {
        let mut cx = Ctxt::new();
        let tokens = lexer::lex(FileId(0), text, &mut cx);
        let file = super::parse(FileId(0), &tokens, &mut cx);
        let codes = cx
            .gate()
            .err()
            .map_or_else(Vec::new, |d| d.iter().map(|d| d.code).collect());
        (file, codes)
    }

    #[test]
    fn parses_a_tool_with_every_clause() {
        let (file, errors) = parse(
            "/// Doc.\ncategory c;\n/// T.\n@read_only\ntool t { timing sync title \"T\" request { a: u8 = 1 } \
             response R { b: list<string>? } errors E stream S }",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(file.docs.as_ref().map(|d| d.text.as_str()), Some("Doc."));
        assert_eq!(file.category.as_ref().map(|c| c.name.as_str()), Some("c"));
        let Item::Tool(tool) = &file.items[0] else {
            panic!("a tool")
        };
        assert_eq!(tool.meta.attrs[0].name.name, "read_only");
        let kinds: Vec<_> = tool
            .clauses
            .iter()
            .map(|c| c.keyword.name.as_str())
            .collect();
        assert_eq!(
            kinds,
            ["timing", "title", "request", "response", "errors", "stream"]
        );
        let ClauseKind::Response(shape) = &tool.clauses[3].kind else {
            panic!("response")
        };
        assert_eq!(shape.name.as_ref().map(|n| n.name.as_str()), Some("R"));
        let field = &shape.fields.as_ref().unwrap()[0];
        assert!(
            matches!(&field.ty, TypeExpr::Optional { inner, .. } if matches!(&**inner, TypeExpr::Path { args, .. } if args.len() == 1))
        );
    }

    #[test]
    fn parses_types_variants_and_literals() {
        let (file, errors) = parse(
            "enum E { a, b, } union U { x { n: i8 = -3 }, y } error Err { e { m: string = \"q\" }, f }\n\
             struct S { l: list<u8> = [], k: E = a, f: f64 = 1.5, t: bool = true }",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(file.items.len(), 4);
        let Item::Type(s) = &file.items[3] else {
            panic!("a struct")
        };
        let TypeBody::Struct(fields) = &s.body else {
            panic!("fields")
        };
        let defaults: Vec<_> = fields
            .iter()
            .map(|f| f.default.as_ref().unwrap().kind.clone())
            .collect();
        assert_eq!(
            defaults,
            [
                LitKind::EmptyList,
                LitKind::Ident("a".into()),
                LitKind::Float(1.5),
                LitKind::Bool(true)
            ]
        );
    }

    #[test]
    fn recovers_after_a_bad_field_and_a_bad_item() {
        let (file, errors) = parse(
            "struct A { x: , y: u8 }\nstrcut B { }\nstruct C { z: u8 w: u8 }\ntool t { timing sync }",
        );
        assert_eq!(errors, [Code::Expected, Code::ExpectedItem, Code::Expected]);
        // A keeps its good field, B is skipped and remembered, C keeps both
        // fields despite the missing comma, and the tool still parses.
        assert_eq!(file.items.len(), 3);
        assert_eq!(file.broken, ["B"]);
        let Item::Type(c) = &file.items[1] else {
            panic!("C")
        };
        assert!(matches!(&c.body, TypeBody::Struct(f) if f.len() == 2));
        assert!(matches!(file.items[2], Item::Tool(_)));
    }

    #[test]
    fn a_missing_closing_brace_does_not_swallow_the_next_item() {
        let (file, errors) = parse("struct A { x: u8,\nstruct B { y: u8 }");
        assert_eq!(errors, [Code::Expected]);
        assert_eq!(file.items.len(), 2);
    }

    #[test]
    fn parses_resources_and_prompts_with_their_clauses() {
        let (file, errors) = parse(
            "@subscribable resource r { uri \"x:{a}\" title \"R\" mime \"text/plain\" contents bytes\n\
             /// Args.\narguments A { a: string } errors E }\nprompt p { arguments P }",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let Item::Entry(r) = &file.items[0] else {
            panic!("a resource")
        };
        assert_eq!(r.kind, EntryKind::Resource);
        let kinds: Vec<_> = r.clauses.iter().map(|c| c.keyword.name.as_str()).collect();
        assert_eq!(
            kinds,
            ["uri", "title", "mime", "contents", "arguments", "errors"]
        );
        let ClauseKind::Uri(uri) = &r.clauses[0].kind else {
            panic!("uri")
        };
        assert_eq!((uri.value.as_str(), uri.span.range()), ("x:{a}", 31..38));
        let Item::Entry(p) = &file.items[1] else {
            panic!("a prompt")
        };
        assert_eq!((p.kind, p.clauses.len()), (EntryKind::Prompt, 1));
    }

    #[test]
    fn a_clause_of_another_body_is_refused_and_parsing_goes_on() {
        let (file, errors) = parse(
            "resource r { timing sync uri \"x:y\" response { a: u8 } }\n\
             tool t { timing sync uri \"x:y\" arguments { a: u8 } }\nprompt p { mime \"a/b\" }",
        );
        assert_eq!(errors, [Code::UnknownClause; 5]);
        assert_eq!(file.items.len(), 3);
        let Item::Entry(r) = &file.items[0] else {
            panic!("a resource")
        };
        // The good clause between the bad ones is kept.
        assert!(matches!(
            r.clauses[..],
            [ast::Clause {
                kind: ClauseKind::Uri(_),
                ..
            }]
        ));
    }

    #[test]
    fn category_must_come_first() {
        let (_, errors) = parse("struct A {}\ncategory c;");
        assert_eq!(errors, [Code::MisplacedCategory]);
        let (_, errors) = parse("category c;\ncategory d;");
        assert_eq!(errors, [Code::MisplacedCategory]);
    }

    #[test]
    fn non_empty_list_literals_are_rejected() {
        let (_, errors) = parse("struct A { x: list<u8> = [1, 2] }");
        assert_eq!(errors, [Code::NonEmptyList]);
    }
}
