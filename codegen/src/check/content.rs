//! `@content`: a response field the MCP edge sends as content blocks. Its
//! type must carry what its kind of block does, and it must be a field of
//! a tool's response itself, since only a result's top level becomes
//! content.

use std::collections::HashSet;

use crate::diag::{Ctxt, messages};
use crate::model::{ContentKind, Field, Primitive, Tool, Type, TypeDef, TypeId, TypeKind};
use crate::source::Sources;

/// What each kind of field carries: its fields, each a primitive and
/// required or not; `None` for text, which is a `string`.
struct Shape {
    /// Fields that must be there, required.
    required: &'static [(&'static str, Primitive)],
    /// Fields that may be there, each optional.
    optional: &'static [(&'static str, Primitive)],
    /// Of the optional fields, one at least (a resource's `text` or `blob`).
    one_of: &'static [&'static str],
    /// How the note describes it.
    text: &'static str,
}

const MEDIA: Shape = Shape {
    required: &[("data", Primitive::Bytes), ("mime_type", Primitive::String)],
    optional: &[],
    one_of: &[],
    text: "a struct of `data: bytes` and `mime_type: string`",
};

const RESOURCE: Shape = Shape {
    required: &[("uri", Primitive::String)],
    optional: &[
        ("mime_type", Primitive::String),
        ("text", Primitive::String),
        ("blob", Primitive::Bytes),
    ],
    one_of: &["text", "blob"],
    text: "a struct of `uri: string` and `text: string?` and/or `blob: bytes?`, \
           with `mime_type: string?`",
};

const LINK: Shape = Shape {
    required: &[("uri", Primitive::String), ("name", Primitive::String)],
    optional: &[
        ("title", Primitive::String),
        ("description", Primitive::String),
        ("mime_type", Primitive::String),
    ],
    one_of: &[],
    text: "a struct of `uri: string` and `name: string`, with `title`, \
           `description` and `mime_type` as optional strings",
};

/// Checks every `@content` field. `@content("image") cover: string` →
/// TW304; `@content` on a field of a request → TW313.
pub(crate) fn check(types: &[TypeDef], tools: &[Tool], sources: &Sources, cx: &mut Ctxt) {
    let responses: HashSet<TypeId> = tools.iter().flat_map(responses).collect();
    for def in types {
        let TypeKind::Struct(fields) = &def.kind else {
            // Variants hold content fields too rarely to be worth a rule of
            // their own: only a struct is a response.
            for field in def.kind.fields() {
                if field.content.is_some() {
                    let span = sources.name_span(field.location);
                    cx.push(messages::content_placement(span, &def.name));
                }
            }
            continue;
        };
        for field in fields {
            let Some(kind) = field.content else {
                continue;
            };
            let span = sources.name_span(field.location);
            if !responses.contains(&def.id) {
                cx.push(messages::content_placement(span, &def.name));
                continue;
            }
            if let Err((problem, shape)) = fits(types, kind, field) {
                cx.push(messages::content_shape(
                    span,
                    kind.as_str(),
                    &problem,
                    shape,
                ));
            }
        }
    }
}

/// The responses a tool answers with.
fn responses(tool: &Tool) -> Vec<TypeId> {
    tool.endpoints()
        .into_iter()
        .filter_map(|(_, e)| e.response)
        .collect()
}

/// Whether `field`'s type (or the element of its list, under an optional)
/// is what a `kind` block carries; what is wrong and the shape it needs
/// otherwise.
fn fits(types: &[TypeDef], kind: ContentKind, field: &Field) -> Result<(), (String, &'static str)> {
    let mut ty = field.ty.strip_optional();
    if let Type::List(element) = ty {
        ty = element;
    }
    let shape = match kind {
        ContentKind::Text => {
            return match ty {
                Type::Primitive(Primitive::String) => Ok(()),
                _ => Err(("it is not a `string`".to_owned(), "a `string`")),
            };
        }
        ContentKind::Image | ContentKind::Audio => &MEDIA,
        ContentKind::Resource => &RESOURCE,
        ContentKind::Link => &LINK,
    };
    let fail = |problem: String| Err((problem, shape.text));
    let Type::Named(named) = ty else {
        return fail("it is not a struct".to_owned());
    };
    let Some(TypeKind::Struct(fields)) = types.get(named.id.index()).map(|d| &d.kind) else {
        return fail(format!("`{}` is not a struct", named.name));
    };
    for field in fields {
        let wanted = |list: &[(&str, Primitive)]| {
            list.iter()
                .find(|(name, _)| *name == field.name)
                .map(|(_, p)| *p)
        };
        let (primitive, required) = match (wanted(shape.required), wanted(shape.optional)) {
            (Some(p), _) => (p, true),
            (None, Some(p)) => (p, false),
            (None, None) => {
                return fail(format!(
                    "`{}` has a field `{}` the block cannot carry",
                    named.name, field.name
                ));
            }
        };
        let ty = if required {
            &field.ty
        } else {
            field.ty.strip_optional()
        };
        if *ty != Type::Primitive(primitive) || (required && !field.required) {
            let optional = if required { "" } else { "?" };
            return fail(format!(
                "`{}.{}` is not `{}{optional}`",
                named.name,
                field.name,
                primitive.as_str()
            ));
        }
    }
    let has = |name: &str| fields.iter().any(|f| f.name == name);
    if let Some((missing, _)) = shape.required.iter().find(|(name, _)| !has(name)) {
        return fail(format!("`{}` has no `{missing}`", named.name));
    }
    if !shape.one_of.is_empty() && !shape.one_of.iter().any(|name| has(name)) {
        return fail(format!(
            "`{}` has neither {}",
            named.name,
            messages::one_of(shape.one_of).replace(" or ", " nor ")
        ));
    }
    Ok(())
}
