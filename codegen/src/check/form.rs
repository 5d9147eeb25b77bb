//! `@form`: a struct a handler asks its client's user to fill in (MCP
//! elicitation), whose requested schema MCP restricts to a flat object of
//! strings, booleans, numbers, enums and lists of enum values.

use crate::diag::{Ctxt, messages};
use crate::model::{Primitive, Type, TypeDef, TypeKind};
use crate::source::Sources;

/// Checks every `@form` type. `@form union U { … }` and a form field of
/// type `json`, `map<…>` or a struct → TW314.
pub(crate) fn check(types: &[TypeDef], sources: &Sources, cx: &mut Ctxt) {
    for def in types.iter().filter(|d| d.form) {
        let TypeKind::Struct(fields) = &def.kind else {
            let span = sources.name_span(def.location);
            cx.push(messages::form_field(span, "must be a struct"));
            continue;
        };
        for field in fields {
            if let Some(problem) = unaskable(types, field.ty.strip_optional()) {
                let span = sources.name_span(field.location);
                cx.push(messages::form_field(
                    span,
                    &format!("field cannot be {problem}"),
                ));
            }
        }
    }
}

/// Why a form field of type `ty` cannot be asked for, if it cannot.
fn unaskable(types: &[TypeDef], ty: &Type) -> Option<String> {
    match ty {
        Type::Primitive(Primitive::Bytes) => Some("`bytes`".to_owned()),
        Type::Primitive(Primitive::Json) => Some("`json`".to_owned()),
        Type::Primitive(_) => None,
        Type::Named(named) if is_enum(types, named.id) => None,
        Type::Named(named) => Some(format!("`{}`, which is not an enum", named.name)),
        Type::List(element) => match &**element {
            Type::Named(named) if is_enum(types, named.id) => None,
            other => Some(format!(
                "`list<{}>`: only lists of enum values are asked for",
                other.idl()
            )),
        },
        Type::Map(_) => Some(format!("`{}`", ty.idl())),
        Type::Optional(inner) => unaskable(types, inner),
    }
}

fn is_enum(types: &[TypeDef], id: crate::model::TypeId) -> bool {
    types
        .get(id.index())
        .is_some_and(|d| matches!(d.kind, TypeKind::Enum(_)))
}
