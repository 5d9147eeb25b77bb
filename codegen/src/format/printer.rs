//! Prints a syntax tree in canonical layout, putting comments back where
//! they were.

use crate::source::Span;
use crate::syntax::ast::{
    Attr, Clause, ClauseKind, Data, DataKind, Entry, EnumValue, Example, ExamplePartKind, Field,
    File, Item, Meta, Shape, Tool, TypeBody, TypeDecl, TypeExpr, Variant,
};
use crate::syntax::keywords;
use crate::syntax::lexer::Comment;

/// Lists longer than this are broken one entry per line.
const WIDTH: usize = 100;
const INDENT: &str = "    ";

pub(super) fn print(text: &str, file: &File, comments: &[Comment]) -> String {
    let mut p = Printer {
        text,
        comments,
        next_comment: 0,
        lines: Vec::new(),
        depth: 0,
        commented_line: None,
    };
    p.file(file);
    let mut out = p.lines.join("\n");
    out.push('\n');
    out
}

struct Printer<'a> {
    text: &'a str,
    comments: &'a [Comment],
    next_comment: usize,
    lines: Vec<String>,
    depth: usize,
    /// The line that last received a trailing comment.
    commented_line: Option<usize>,
}

impl Printer<'_> {
    fn line(&mut self, s: &str) {
        self.lines.push(format!("{}{s}", INDENT.repeat(self.depth)));
    }

    /// One blank line, unless at the start or right after `{` or a blank.
    fn blank(&mut self) {
        if let Some(last) = self.lines.last()
            && !last.is_empty()
            && !last.ends_with('{')
        {
            self.lines.push(String::new());
        }
    }

    fn append(&mut self, s: &str) {
        match self.lines.last_mut() {
            Some(last) => last.push_str(s),
            None => self.lines.push(s.to_owned()),
        }
    }

    /// Appends a trailing comment to the last line with code on it, unless
    /// that line already ends in a comment: then the comment gets its own
    /// line, so two comments never merge into one.
    fn append_trailing(&mut self, comment: &str) {
        let target = self.lines.iter().rposition(|l| !l.is_empty());
        match target {
            Some(i)
                if Some(i) != self.commented_line
                    && !self.lines[i].trim_start().starts_with("//") =>
            {
                self.lines[i].push(' ');
                self.lines[i].push_str(comment);
                self.commented_line = Some(i);
            }
            _ => self.line(comment),
        }
    }

    /// True when the source line above the one holding `pos` is blank.
    fn blank_line_before(&self, pos: usize) -> bool {
        let line_start = self.text[..pos].rfind('\n').map_or(0, |i| i + 1);
        if line_start == 0 {
            return false;
        }
        let prev_start = self.text[..line_start - 1].rfind('\n').map_or(0, |i| i + 1);
        self.text[prev_start..line_start - 1].trim().is_empty()
    }

    /// True when code precedes the comment on its line.
    fn is_trailing(&self, comment: &Comment) -> bool {
        let line_start = self.text[..comment.start].rfind('\n').map_or(0, |i| i + 1);
        !self.text[line_start..comment.start].trim().is_empty()
    }

    fn has_comment_before(&self, pos: usize) -> bool {
        self.comments
            .get(self.next_comment)
            .is_some_and(|c| c.start < pos)
    }

    /// Prints every comment that starts before `pos`.
    fn comments_before(&mut self, pos: usize) {
        while let Some(comment) = self.comments.get(self.next_comment) {
            if comment.start >= pos {
                break;
            }
            self.next_comment += 1;
            if self.is_trailing(comment) {
                self.append_trailing(&comment.text);
            } else {
                if self.blank_line_before(comment.start) {
                    self.blank();
                }
                self.line(&comment.text);
            }
        }
    }

    fn snippet(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }

    fn file(&mut self, file: &File) {
        if let Some(category) = &file.category {
            let meta = Meta {
                docs: file.docs.clone(),
                attrs: file.category_attrs.clone(),
            };
            // `@scopes` may come before the docs.
            let start = Self::start(&meta, category.span);
            let before = self.next_comment;
            self.comments_before(start);
            if self.next_comment > before && self.blank_line_before(start) {
                self.blank();
            }
            self.meta(&meta);
            self.line(&format!("{} {};", keywords::CATEGORY, category.name));
        }
        for item in &file.items {
            self.blank();
            match item {
                Item::Tool(tool) => self.tool(tool),
                Item::Type(decl) => self.type_decl(decl),
                Item::Entry(entry) => self.entry(entry),
            }
        }
        self.comments_before(self.text.len());
        while self.lines.last().is_some_and(String::is_empty) {
            self.lines.pop();
        }
    }

    fn meta(&mut self, meta: &Meta) {
        if let Some(docs) = &meta.docs {
            for line in docs.text.split('\n') {
                if line.is_empty() {
                    self.line("///");
                } else {
                    self.line(&format!("/// {line}"));
                }
            }
        }
        if !meta.attrs.is_empty() {
            // All on one line when they fit, else one per line.
            let attrs: Vec<String> = meta.attrs.iter().map(|a| self.attr(a)).collect();
            let one = attrs.join(" ");
            if self.depth * INDENT.len() + one.len() <= WIDTH {
                self.line(&one);
            } else {
                for attr in &attrs {
                    self.line(attr);
                }
            }
        }
    }

    fn attr(&self, attr: &Attr) -> String {
        if attr.args.is_empty() {
            // `@scopes()` reads as "needs no scopes"; a bare `@scopes`
            // (the same to the checker) would not.
            let parens = if attr.name.name == keywords::SCOPES {
                "()"
            } else {
                ""
            };
            return format!("@{}{parens}", attr.name.name);
        }
        let args: Vec<&str> = attr.args.iter().map(|a| self.snippet(a.span)).collect();
        format!("@{}({})", attr.name.name, args.join(", "))
    }

    /// Start of a node: its docs, its first attribute, or `fallback`.
    fn start(meta: &Meta, fallback: Span) -> usize {
        let mut start = fallback.start;
        if let Some(d) = &meta.docs {
            start = start.min(d.span.start);
        }
        if let Some(a) = meta.attrs.first() {
            start = start.min(a.span.start);
        }
        start as usize
    }

    /// Prints a node's comments, meta, and separating blank line.
    fn member_start(&mut self, meta: &Meta, anchor: Span, first: bool) {
        let start = Self::start(meta, anchor);
        // Comments before the node come first, each keeping its blank line.
        let comment_start = self.comments.get(self.next_comment).map(|c| c.start);
        if !first && comment_start.is_none_or(|c| c >= start) && self.blank_line_before(start) {
            self.blank();
        }
        self.comments_before(start);
        if !first && comment_start.is_some_and(|c| c < start) && self.blank_line_before(start) {
            self.blank();
        }
        self.meta(meta);
    }

    fn type_decl(&mut self, decl: &TypeDecl) {
        let keyword = self.snippet(decl.keyword).to_owned();
        self.member_start(&decl.meta, decl.keyword, true);
        let prefix = format!("{keyword} {}", decl.name.name);
        match &decl.body {
            TypeBody::Struct(fields) => self.fields_block(&prefix, fields, decl.close),
            TypeBody::Enum(values) => self.values_block(&prefix, values, decl.close),
            TypeBody::Union(variants) | TypeBody::Error(variants) => {
                self.variants_block(&prefix, variants, decl.close);
            }
        }
    }

    /// `prefix { a, b }` on one line if every entry renders inline, no
    /// comment sits inside, and it fits; else one entry per line.
    fn block<T>(
        &mut self,
        prefix: &str,
        entries: &[T],
        close: Span,
        inline: impl Fn(&Self, &T) -> Option<String>,
        anchor: impl Fn(&T) -> (&Meta, Span),
        mut print: impl FnMut(&mut Self, &T),
    ) {
        if entries.is_empty() && !self.has_comment_before(close.start as usize) {
            self.line(&format!("{prefix} {{}}"));
            return;
        }
        if !self.has_comment_before(close.start as usize) {
            let parts: Option<Vec<String>> = entries.iter().map(|e| inline(self, e)).collect();
            if let Some(parts) = parts {
                let one = format!("{prefix} {{ {} }}", parts.join(", "));
                if self.depth * INDENT.len() + one.len() <= WIDTH {
                    self.line(&one);
                    return;
                }
            }
        }
        self.line(&format!("{prefix} {{"));
        self.depth += 1;
        for (i, entry) in entries.iter().enumerate() {
            let (meta, span) = anchor(entry);
            self.member_start(meta, span, i == 0);
            print(self, entry);
            self.append(",");
        }
        self.comments_before(close.start as usize);
        self.depth -= 1;
        self.line("}");
    }

    fn fields_block(&mut self, prefix: &str, fields: &[Field], close: Span) {
        self.block(
            prefix,
            fields,
            close,
            |p, f| f.meta.is_empty().then(|| p.field_text(f)),
            |f| (&f.meta, f.name.span),
            |p, f| {
                let text = p.field_text(f);
                p.line(&text);
            },
        );
    }

    fn field_text(&self, field: &Field) -> String {
        let mut s = format!("{}: {}", field.name.name, type_text(&field.ty));
        if let Some(default) = &field.default {
            s.push_str(" = ");
            s.push_str(self.snippet(default.span));
        }
        s
    }

    fn values_block(&mut self, prefix: &str, values: &[EnumValue], close: Span) {
        self.block(
            prefix,
            values,
            close,
            |_, v| v.meta.is_empty().then(|| v.name.name.clone()),
            |v| (&v.meta, v.name.span),
            |p, v| p.line(&v.name.name),
        );
    }

    fn variants_block(&mut self, prefix: &str, variants: &[Variant], close: Span) {
        self.block(
            prefix,
            variants,
            close,
            |p, v| {
                if !v.meta.is_empty() {
                    return None;
                }
                match v.close {
                    None => Some(v.name.name.clone()),
                    Some(_) if v.fields.is_empty() => Some(format!("{} {{}}", v.name.name)),
                    Some(_) => {
                        let fields: Option<Vec<String>> = v
                            .fields
                            .iter()
                            .map(|f| f.meta.is_empty().then(|| p.field_text(f)))
                            .collect();
                        Some(format!("{} {{ {} }}", v.name.name, fields?.join(", ")))
                    }
                }
            },
            |v| (&v.meta, v.name.span),
            |p, v| match v.close {
                None => p.line(&v.name.name),
                Some(close) => p.fields_block(&v.name.name, &v.fields, close),
            },
        );
    }

    fn tool(&mut self, tool: &Tool) {
        self.member_start(&tool.meta, tool.keyword, true);
        self.clauses(
            &format!("{} {}", keywords::TOOL, tool.name.name),
            &tool.clauses,
            tool.close,
        );
    }

    fn entry(&mut self, entry: &Entry) {
        self.member_start(&entry.meta, entry.keyword, true);
        self.clauses(
            &format!("{} {}", entry.kind.keyword(), entry.name.name),
            &entry.clauses,
            entry.close,
        );
    }

    fn clauses(&mut self, head: &str, clauses: &[Clause], close: Span) {
        self.line(&format!("{head} {{"));
        self.depth += 1;
        for (i, clause) in clauses.iter().enumerate() {
            self.member_start(&clause.meta, clause.keyword.span, i == 0);
            let keyword = clause.keyword.name.as_str();
            match &clause.kind {
                ClauseKind::Timing(t) => self.line(&format!("{keyword} {}", t.name)),
                ClauseKind::Title(t) => self.line(&format!("{keyword} \"{}\"", escape(t))),
                ClauseKind::Request(shape)
                | ClauseKind::Response(shape)
                | ClauseKind::Arguments(shape) => self.shape(keyword, shape),
                ClauseKind::Errors(name)
                | ClauseKind::Stream(name)
                | ClauseKind::Contents(name) => {
                    self.line(&format!("{keyword} {}", name.name));
                }
                ClauseKind::Uri(text) | ClauseKind::Mime(text) => {
                    let literal = self.snippet(text.span).to_owned();
                    self.line(&format!("{keyword} {literal}"));
                }
                // Only error-free files are formatted, so there are none.
                ClauseKind::Invalid => {}
                ClauseKind::Action(action) => self.clauses(
                    &format!("{keyword} {}", action.name.name),
                    &action.clauses,
                    action.close,
                ),
                ClauseKind::Example(example) => self.example(keyword, example),
            }
        }
        self.comments_before(close.start as usize);
        self.depth -= 1;
        self.line("}");
    }

    fn shape(&mut self, keyword: &str, shape: &Shape) {
        let prefix = match &shape.name {
            Some(name) => format!("{keyword} {}", name.name),
            None => keyword.to_owned(),
        };
        match (&shape.fields, shape.close) {
            (Some(fields), Some(close)) => self.fields_block(&prefix, fields, close),
            _ => self.line(&prefix),
        }
    }
}

impl Printer<'_> {
    fn example(&mut self, keyword: &str, example: &Example) {
        let title = self.snippet(example.title.span).to_owned();
        if example.parts.is_empty() && !self.has_comment_before(example.close.start as usize) {
            self.line(&format!("{keyword} {title} {{}}"));
            return;
        }
        self.line(&format!("{keyword} {title} {{"));
        self.depth += 1;
        for part in &example.parts {
            self.comments_before(part.keyword.span.start as usize);
            let head = part.keyword.name.as_str();
            match &part.kind {
                ExamplePartKind::Request(data) | ExamplePartKind::Response(data) => {
                    self.data(head, data, "");
                }
                ExamplePartKind::Error { variant, details } => {
                    let head = format!("{head} {}", variant.name);
                    match details {
                        Some(data) => self.data(&head, data, ""),
                        None => self.line(&head),
                    }
                }
            }
        }
        self.comments_before(example.close.start as usize);
        self.depth -= 1;
        self.line("}");
    }

    /// `head value suffix` on one line when it fits and holds no comment;
    /// else an object or list one entry per line, each with its comments.
    fn data(&mut self, head: &str, data: &Data, suffix: &str) {
        let lead = if head.is_empty() {
            String::new()
        } else {
            format!("{head} ")
        };
        let flat = self.flat(data);
        let width = INDENT.len() * self.depth + lead.len() + flat.len() + suffix.len();
        let (open, close, entries): (&str, &str, Vec<(String, &Data)>) = match &data.kind {
            DataKind::Object(entries) if !entries.is_empty() => (
                "{",
                "}",
                entries
                    .iter()
                    .map(|(k, v)| (format!("{}:", self.snippet(k.span)), v))
                    .collect(),
            ),
            DataKind::List(items) if !items.is_empty() => {
                ("[", "]", items.iter().map(|v| (String::new(), v)).collect())
            }
            _ => ("", "", Vec::new()),
        };
        if entries.is_empty() || (width <= WIDTH && !self.has_comment_within(data.span)) {
            self.line(&format!("{lead}{flat}{suffix}"));
            return;
        }
        self.line(&format!("{lead}{open}"));
        self.depth += 1;
        for (key, value) in entries {
            self.comments_before(value.span.start as usize);
            self.data(&key, value, ",");
        }
        self.comments_before(data.span.end as usize);
        self.depth -= 1;
        self.line(&format!("{close}{suffix}"));
    }

    /// The value on one line: numbers, strings and keys as written.
    fn flat(&self, data: &Data) -> String {
        match &data.kind {
            DataKind::List(items) => {
                let items: Vec<String> = items.iter().map(|i| self.flat(i)).collect();
                format!("[{}]", items.join(", "))
            }
            DataKind::Object(entries) if entries.is_empty() => "{}".to_owned(),
            DataKind::Object(entries) => {
                let entries: Vec<String> = entries
                    .iter()
                    .map(|(k, v)| format!("{}: {}", self.snippet(k.span), self.flat(v)))
                    .collect();
                format!("{{ {} }}", entries.join(", "))
            }
            _ => self.snippet(data.span).to_owned(),
        }
    }

    fn has_comment_within(&self, span: Span) -> bool {
        self.comments[self.next_comment..]
            .iter()
            .any(|c| c.start > span.start as usize && c.start < span.end as usize)
    }
}

fn type_text(ty: &TypeExpr) -> String {
    match ty {
        TypeExpr::Optional { inner, .. } => format!("{}?", type_text(inner)),
        TypeExpr::Path { name, args, .. } if args.is_empty() => name.name.clone(),
        TypeExpr::Path { name, args, .. } => {
            let args: Vec<String> = args.iter().map(type_text).collect();
            format!("{}<{}>", name.name, args.join(", "))
        }
    }
}

/// A string literal's text with the IDL's escapes.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}
