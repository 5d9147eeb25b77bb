//! Files and type declarations: `category`, `struct`, `enum`, `union`, `error`,
//! and the field and variant lists they share (`tool` bodies are in
//! `tool.rs`, `resource` and `prompt` bodies in `entry.rs`).

use super::{Fail, PResult, Parser};
use crate::diag::messages;
use crate::source::Span;
use crate::suggest;
use crate::syntax::ast::{
    EntryKind, EnumValue, Field, File, Item, Meta, TypeBody, TypeDecl, Variant,
};
use crate::syntax::keywords;
use crate::syntax::token::TokenKind;

impl Parser<'_, '_> {
    pub(super) fn file(mut self) -> File {
        let mut file = File {
            id: self.file,
            docs: None,
            category: None,
            category_attrs: Vec::new(),
            items: Vec::new(),
            broken: Vec::new(),
        };
        let mut category_span = None;
        loop {
            let meta = self.meta();
            let TokenKind::Ident(word) = self.peek().clone() else {
                if self.at(&TokenKind::Eof) {
                    self.dangling(&meta, "an item");
                    return file;
                }
                let found = self.peek().describe();
                let span = self.span();
                self.cx.push(messages::expected_item(span, &found, None));
                self.bump();
                self.recover_to_item();
                continue;
            };
            let keyword = self.span();
            let keyword_pos = self.pos;
            let result = match word.as_str() {
                keywords::CATEGORY => {
                    if category_span.is_some() || !file.items.is_empty() {
                        self.cx
                            .push(messages::misplaced_category(keyword, category_span));
                    }
                    self.bump();
                    self.category().map(|name| {
                        if category_span.is_none() && file.items.is_empty() {
                            category_span = Some(keyword.to(name.span));
                            file.docs = meta.docs;
                            file.category_attrs = meta.attrs;
                            file.category = Some(name);
                        }
                    })
                }
                keywords::TOOL => self.tool(meta).map(|t| file.items.push(Item::Tool(t))),
                keywords::RESOURCE => self
                    .entry(meta, EntryKind::Resource)
                    .map(|e| file.items.push(Item::Entry(e))),
                keywords::PROMPT => self
                    .entry(meta, EntryKind::Prompt)
                    .map(|e| file.items.push(Item::Entry(e))),
                keywords::STRUCT | keywords::ENUM | keywords::UNION | keywords::ERROR => self
                    .type_decl(meta, &word)
                    .map(|t| file.items.push(Item::Type(t))),
                _ => {
                    let suggestion = suggest::closest(&word, keywords::ITEMS.iter().copied());
                    self.cx.push(messages::expected_item(
                        keyword,
                        &format!("`{word}`"),
                        suggestion,
                    ));
                    Err(Fail)
                }
            };
            if result.is_err() {
                // Remember the item's name, if it got that far, so later
                // references to it are not reported as unknown too.
                if let Some(TokenKind::Ident(name)) =
                    self.tokens.get(keyword_pos + 1).map(|t| &t.kind)
                {
                    file.broken.push(name.clone());
                }
                self.recover_to_item();
            }
        }
    }

    /// Reports docs and attributes followed by nothing they could apply to;
    /// `what` names what should have followed ("an item", "a field").
    pub(super) fn dangling(&mut self, meta: &Meta, what: &str) {
        if let Some(docs) = &meta.docs {
            self.cx.push(messages::dangling_doc(docs.span));
        }
        let found = self.peek().describe();
        for attr in &meta.attrs {
            self.cx.push(messages::expected(
                attr.span,
                &format!("{what} after this attribute"),
                &found,
            ));
        }
    }

    fn category(&mut self) -> PResult<crate::syntax::ast::Ident> {
        let name = self.ident("a category name")?;
        if !self.eat(&TokenKind::Semi) {
            let found = self.peek().describe();
            let span = self.prev_span();
            self.cx.push(messages::expected_with_help(
                span,
                "`;` after the category name",
                &found,
                "write `category name;`",
            ));
        }
        Ok(name)
    }

    fn type_decl(&mut self, meta: Meta, word: &str) -> PResult<TypeDecl> {
        let keyword = self.span();
        self.bump();
        let name = self.ident(&format!("a name for the {word}"))?;
        let (body, close) = match word {
            keywords::STRUCT => {
                let (fields, close) = self.fields()?;
                (TypeBody::Struct(fields), close)
            }
            keywords::ENUM => {
                let (values, close) = self.enum_values()?;
                (TypeBody::Enum(values), close)
            }
            keywords::UNION => {
                let (variants, close) = self.variants()?;
                (TypeBody::Union(variants), close)
            }
            _ => {
                let (variants, close) = self.variants()?;
                (TypeBody::Error(variants), close)
            }
        };
        Ok(TypeDecl {
            meta,
            keyword,
            name,
            body,
            close,
        })
    }

    /// Parses `{ elem, elem, }` with per-element recovery. `elem` is called
    /// with the element's docs and attributes already read. Returns the
    /// elements and the span of the closing `}`.
    fn list<T>(
        &mut self,
        what: &str,
        mut elem: impl FnMut(&mut Self, Meta) -> PResult<T>,
    ) -> PResult<(Vec<T>, Span)> {
        self.expect(&TokenKind::LBrace, "`{`")?;
        let mut out = Vec::new();
        loop {
            let meta = self.meta();
            if let Some(close) =
                self.end_of_body(&meta, &format!("a {what}"), "the body above is not closed")
            {
                return Ok((out, close));
            }
            match elem(self, meta) {
                Ok(item) => out.push(item),
                Err(Fail) => self.recover_in_list(),
            }
            match self.peek() {
                TokenKind::Comma => self.bump(),
                TokenKind::RBrace => {}
                // `a: u8 b: u8`: a missing comma; report and keep parsing.
                TokenKind::Ident(_) | TokenKind::Doc(_) | TokenKind::At
                    if !self.at_item_start() =>
                {
                    let span = self.prev_span();
                    let found = self.peek().describe();
                    self.cx.push(messages::expected_with_help(
                        span,
                        &format!("`,` or `}}` after the {what}"),
                        &found,
                        &format!("separate {what}s with commas"),
                    ));
                }
                _ => {}
            }
        }
    }

    /// At the end of a `{ ... }` body, consumes the `}` and returns its span.
    /// At end of file or at the start of the next item, reports the missing
    /// `}` (with `hint`) and returns where it should have been, so the next
    /// item still parses. Inside the body, returns `None`.
    pub(super) fn end_of_body(&mut self, meta: &Meta, what: &str, hint: &str) -> Option<Span> {
        let close = self.span();
        if self.at(&TokenKind::RBrace) {
            self.dangling(meta, what);
            self.bump();
            return Some(close);
        }
        if self.at(&TokenKind::Eof) || self.at_item_start() {
            self.dangling(meta, what);
            let found = self.peek().describe();
            self.cx
                .push(messages::expected_with_help(close, "`}`", &found, hint));
            return Some(close);
        }
        None
    }

    pub(super) fn fields(&mut self) -> PResult<(Vec<Field>, Span)> {
        self.list("field", |p, meta| p.field(meta))
    }

    fn field(&mut self, meta: Meta) -> PResult<Field> {
        let name = self.ident("a field name")?;
        if !self.eat(&TokenKind::Colon) {
            let found = self.peek().describe();
            let span = self.span();
            self.cx.push(messages::expected_with_help(
                span,
                "`:` after the field name",
                &found,
                "write fields as `name: type`",
            ));
            return Err(Fail);
        }
        let ty = self.type_expr(0)?;
        let default = if self.eat(&TokenKind::Eq) {
            Some(self.literal()?)
        } else {
            None
        };
        Ok(Field {
            meta,
            name,
            ty,
            default,
        })
    }

    fn enum_values(&mut self) -> PResult<(Vec<EnumValue>, Span)> {
        self.list("value", |p, meta| {
            let name = p.ident("an enum value")?;
            if p.at(&TokenKind::LBrace) {
                let span = p.span();
                p.cx.push(messages::expected_with_help(
                    span,
                    "`,` or `}`",
                    "`{`",
                    "enum values carry no fields; declare a `union` for variants with data",
                ));
                // Keep the value and skip its would-be fields, so the enum is
                // not also reported empty.
                p.skip_braces();
            }
            Ok(EnumValue { meta, name })
        })
    }

    fn variants(&mut self) -> PResult<(Vec<Variant>, Span)> {
        self.list("variant", |p, meta| {
            let name = p.ident("a variant name")?;
            let (fields, close) = if p.at(&TokenKind::LBrace) {
                let (fields, close) = p.fields()?;
                (fields, Some(close))
            } else {
                (Vec::new(), None)
            };
            Ok(Variant {
                meta,
                name,
                fields,
                close,
            })
        })
    }
}
