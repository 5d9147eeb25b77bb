//! `@paged`: a tool or action that answers a page at a time. Its request
//! gets a `cursor: string?` field and its response a `paging: Paging` field
//! (the built-in struct). They are written into a copy of the syntax trees
//! before any other phase reads them, so every later check and every
//! generator sees them as if they had been declared: the schemas, the
//! bindings of every language and the docs need nothing of their own.

use crate::diag::{Ctxt, messages};
use crate::source::Span;
use crate::syntax::ast::{self, ClauseKind, Docs, Field, Ident, Item, Meta, Shape, TypeExpr};

/// The attribute's name.
const PAGED: &str = "paged";
/// The request field a paged call continues from.
pub(crate) const CURSOR: &str = "cursor";
/// The response field saying where the page ends.
pub(crate) const PAGING: &str = "paging";
/// Its type, declared in the built-in files.
const PAGING_TYPE: &str = "Paging";

/// The files with the paging fields added, or `None` when nothing is
/// paged (the common case, which copies nothing).
/// `@paged tool t { timing sync request R response { .. } }` → TW207.
pub(crate) fn desugar(files: &[ast::File], cx: &mut Ctxt) -> Option<Vec<ast::File>> {
    let first = files.iter().flat_map(|f| &f.items).find_map(first_paged)?;
    // `Paging` comes with the job tools' built-in file; a catalogue checked
    // without it (`--no-job-tools`) cannot page.
    let declared = files
        .iter()
        .flat_map(|f| &f.items)
        .any(|item| matches!(item, Item::Type(t) if t.name.name == PAGING_TYPE));
    if !declared {
        cx.push(messages::paged_without_builtins(first));
        return None;
    }
    let mut files = files.to_vec();
    for item in files.iter_mut().flat_map(|f| &mut f.items) {
        if let Item::Tool(tool) = item {
            tool_fields(tool, cx);
        }
    }
    Some(files)
}

/// The first `@paged` on a tool or action of `item`.
fn first_paged(item: &Item) -> Option<Span> {
    let Item::Tool(tool) = item else {
        return None;
    };
    paged_attr(&tool.meta).or_else(|| {
        tool.clauses
            .iter()
            .filter(|c| matches!(c.kind, ClauseKind::Action(_)))
            .find_map(|c| paged_attr(&c.meta))
    })
}

/// The span of `@paged` among `meta`'s attributes. Its arguments and
/// targets are checked with the other attributes.
fn paged_attr(meta: &Meta) -> Option<Span> {
    meta.attrs
        .iter()
        .find(|a| a.name.name == PAGED)
        .map(|a| a.span)
}

fn tool_fields(tool: &mut ast::Tool, cx: &mut Ctxt) {
    let has_actions = tool
        .clauses
        .iter()
        .any(|c| matches!(c.kind, ClauseKind::Action(_)));
    if let Some(attr) = paged_attr(&tool.meta) {
        if has_actions {
            cx.push(messages::paged_action_tool(attr, &tool.name.name));
        } else {
            page(&tool.name.name, tool.name.span, &mut tool.clauses, attr, cx);
        }
    }
    for clause in &mut tool.clauses {
        let Some(attr) = paged_attr(&clause.meta) else {
            continue;
        };
        if let ClauseKind::Action(action) = &mut clause.kind {
            let name = format!("{}.{}", tool.name.name, action.name.name);
            page(&name, action.name.span, &mut action.clauses, attr, cx);
        }
    }
}

/// Adds the paging fields to the clauses of one tool or action.
fn page(name: &str, name_span: Span, clauses: &mut Vec<ast::Clause>, attr: Span, cx: &mut Ctxt) {
    let request = clauses.iter_mut().find_map(|c| match &mut c.kind {
        ClauseKind::Request(shape) => Some(shape),
        _ => None,
    });
    let cursor = field(
        CURSOR,
        optional("string", attr),
        "Where to continue: the `paging.cursor` of the previous page, with\n\
         the same other arguments. Leave it out for the first page.",
        attr,
    );
    match request {
        Some(shape) => add(name, shape, "request", cursor, attr, cx),
        None => clauses.push(ast::Clause {
            meta: Meta::default(),
            keyword: ident("request", attr),
            kind: ClauseKind::Request(Shape {
                name: None,
                fields: Some(vec![cursor]),
                close: None,
            }),
        }),
    }
    let response = clauses.iter_mut().find_map(|c| match &mut c.kind {
        ClauseKind::Response(shape) => Some(shape),
        _ => None,
    });
    let paging = field(
        PAGING,
        path(PAGING_TYPE, attr),
        "Where this page ends: `more` is true when another page follows, and\n\
         `cursor` asks for it.",
        attr,
    );
    match response {
        Some(shape) => add(name, shape, "response", paging, attr, cx),
        None => cx.push(messages::paged_without_response(name_span, name, attr)),
    }
}

/// Adds `new` to the fields of a shape declared in place.
fn add(name: &str, shape: &mut Shape, clause: &str, new: Field, attr: Span, cx: &mut Ctxt) {
    let Some(fields) = &mut shape.fields else {
        let span = shape.name.as_ref().map_or(attr, |n| n.span);
        cx.push(messages::paged_named_shape(
            span,
            name,
            clause,
            &new.name.name,
            attr,
        ));
        return;
    };
    if let Some(declared) = fields.iter().find(|f| f.name.name == new.name.name) {
        cx.push(messages::paged_field(
            declared.name.span,
            name,
            &new.name.name,
            attr,
        ));
        return;
    }
    fields.push(new);
}

fn field(name: &str, ty: TypeExpr, docs: &str, span: Span) -> Field {
    Field {
        meta: Meta {
            docs: Some(Docs {
                text: docs.to_owned(),
                span,
            }),
            attrs: Vec::new(),
        },
        name: ident(name, span),
        ty,
        default: None,
    }
}

fn ident(name: &str, span: Span) -> Ident {
    Ident {
        name: name.to_owned(),
        span,
    }
}

fn path(name: &str, span: Span) -> TypeExpr {
    TypeExpr::Path {
        name: ident(name, span),
        args: Vec::new(),
        span,
    }
}

fn optional(name: &str, span: Span) -> TypeExpr {
    TypeExpr::Optional {
        inner: Box::new(path(name, span)),
        question: span,
    }
}
