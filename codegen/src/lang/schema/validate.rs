//! Every generated schema is checked against the JSON Schema 2020-12
//! metaschema (bundled with `boon`, so no network), with formats asserted,
//! so each `pattern` is also checked as an ECMA-262 regular expression. A
//! schema that fails is a diagnostic at the declaration it came from.
//!
//! The metaschema is compiled once; each document is then an instance
//! validated against it, which costs a fraction of compiling the document
//! as a schema of its own.

use boon::{Compiler, Draft, InstanceToken, SchemaIndex, Schemas, ValidationError};
use serde_json::Value as Json;

use super::dialect::DIALECT;
use crate::diag::{Diagnostic, messages};
use crate::model::{Model, Tool, TypeId, TypeKind};
use crate::source::{FileId, Location, Sources, Span};

/// What a schema was generated from, to point a failure at.
#[derive(Clone, Copy)]
pub(super) enum Origin<'a> {
    /// A named type's file.
    Type(TypeId),
    /// A tool's input or output schema, or one of its actions'.
    Tool(&'a Tool),
}

/// Where in a schema the metaschema check failed, and why.
#[derive(Debug)]
pub(super) struct Rejection {
    /// JSON pointer tokens into the schema.
    pub(super) pointer: Vec<String>,
    /// What is wrong, as the validator says it.
    pub(super) reason: String,
}

/// Checks schemas against the 2020-12 metaschema, which it compiles once.
pub(super) struct Validator {
    schemas: Schemas,
    metaschema: SchemaIndex,
}

impl Validator {
    pub(super) fn new() -> Self {
        let mut compiler = Compiler::new();
        compiler.set_default_draft(Draft::V2020_12);
        // As `boon` checks every schema it compiles: formats asserted,
        // which is what checks a `pattern` as a regular expression.
        compiler.enable_format_assertions();
        let mut schemas = Schemas::new();
        let metaschema = compiler
            .compile(DIALECT, &mut schemas)
            .expect("the bundled 2020-12 metaschema compiles");
        Validator {
            schemas,
            metaschema,
        }
    }

    /// Checks one schema document against the metaschema.
    pub(super) fn check(&self, schema: &Json) -> Result<(), Rejection> {
        self.schemas
            .validate(schema, self.metaschema)
            .map_err(|e| validation_rejection(&e))
    }
}

fn validation_rejection(error: &ValidationError<'_, '_>) -> Rejection {
    let leaf = deepest(error);
    Rejection {
        pointer: leaf
            .instance_location
            .tokens
            .iter()
            .map(|t| match t {
                InstanceToken::Prop(p) => p.to_string(),
                InstanceToken::Item(i) => i.to_string(),
            })
            .collect(),
        reason: leaf.kind.to_string(),
    }
}

/// The first most specific cause: where the schema actually breaks the
/// metaschema, not the `allOf` that wraps it.
fn deepest<'e, 's, 'v>(error: &'e ValidationError<'s, 'v>) -> &'e ValidationError<'s, 'v> {
    let mut at = error;
    while let Some(first) = at.causes.first() {
        at = first;
    }
    at
}

/// The diagnostic for a schema the metaschema rejects, at the field,
/// variant, type or tool the failing part was generated from.
pub(super) fn diagnostic(
    model: &Model,
    sources: &Sources,
    origin: Origin<'_>,
    rejection: &Rejection,
) -> Diagnostic {
    let (location, what) = locate(model, origin, &rejection.pointer);
    let span = span_at(sources, location);
    let keyword = rejection
        .pointer
        .iter()
        .rev()
        .find(|t| t.parse::<usize>().is_err())
        .map_or("", String::as_str);
    messages::schema_rejected(span, keyword, &what, &rejection.reason)
}

/// The declaration a pointer into a schema comes from, and its name.
fn locate<'m>(model: &'m Model, origin: Origin<'m>, pointer: &[String]) -> (&'m Location, String) {
    // A `$defs` entry is a named type wherever it sits.
    if let Some(at) = pointer.iter().rposition(|t| t == "$defs")
        && let Some(ty) = pointer.get(at + 1).and_then(|n| model.type_named(n))
    {
        return locate_in_type(model, ty.id, &pointer[at + 2..]);
    }
    match origin {
        Origin::Type(id) => locate_in_type(model, id, pointer),
        Origin::Tool(tool) => (&tool.location, format!("tool `{}`", tool.name)),
    }
}

fn locate_in_type<'m>(model: &'m Model, id: TypeId, pointer: &[String]) -> (&'m Location, String) {
    let ty = model.type_def(id);
    let token = |i: usize| pointer.get(i).map(String::as_str);
    match &ty.kind {
        TypeKind::Struct(fields) if token(0) == Some("properties") => {
            if let Some(f) = fields.iter().find(|f| Some(f.name.as_str()) == token(1)) {
                return (&f.location, format!("field `{}.{}`", ty.name, f.name));
            }
        }
        TypeKind::Union(variants) | TypeKind::Error(variants)
            if token(0) == Some("oneOf") && token(2) == Some("properties") =>
        {
            if let Some(v) = variants.iter().find(|v| Some(v.name.as_str()) == token(3)) {
                if token(4) == Some("properties")
                    && let Some(f) = v.fields.iter().find(|f| Some(f.name.as_str()) == token(5))
                {
                    return (
                        &f.location,
                        format!("field `{}.{}.{}`", ty.name, v.name, f.name),
                    );
                }
                return (&v.location, format!("variant `{}.{}`", ty.name, v.name));
            }
        }
        _ => {}
    }
    (&ty.location, format!("type `{}`", ty.name))
}

/// The span of the word at a location: a declaration's name.
fn span_at(sources: &Sources, location: &Location) -> Span {
    let file = FileId(u32::try_from(location.file).unwrap_or(u32::MAX));
    let Some(text) = (location.file < sources.len()).then(|| sources.get(file).text()) else {
        return Span::new(FileId(0), 0, 0);
    };
    let line_start: usize = text
        .split_inclusive('\n')
        .take(location.line.saturating_sub(1))
        .map(str::len)
        .sum();
    let start = text[line_start..]
        .char_indices()
        .nth(location.column.saturating_sub(1))
        .map_or(text.len(), |(i, _)| line_start + i);
    let len = text[start..]
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '@'))
        .unwrap_or(text.len() - start);
    // Nothing word-like there: point at the one character instead.
    let len = if len == 0 {
        text[start..].chars().next().map_or(0, char::len_utf8)
    } else {
        len
    };
    Span::new(file, start, start + len)
}
