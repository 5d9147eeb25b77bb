//! `@complete`: an argument of a resource or prompt whose values a handler
//! completes as a user types them (MCP `completion/complete`). It belongs
//! on a `string` or integer field of `arguments` itself; an enum completes
//! from its values with no handler.

use std::collections::HashSet;

use super::symbols::Symbols;
use crate::diag::{Ctxt, messages};
use crate::model::{Primitive, Type, TypeDef, TypeId, TypeKind};
use crate::source::Sources;

/// Checks every `@complete` field. `@complete` on a tool's request field,
/// on an enum or on a `bool` → TW509.
pub(crate) fn check(symbols: &Symbols<'_>, types: &[TypeDef], sources: &Sources, cx: &mut Ctxt) {
    let arguments: HashSet<TypeId> = symbols.argument_structs().into_iter().collect();
    for def in types {
        let own = matches!(def.kind, TypeKind::Struct(_)) && arguments.contains(&def.id);
        for field in def.kind.fields().into_iter().filter(|f| f.complete) {
            let span = sources.name_span(field.location);
            let ty = field.ty.strip_optional();
            if !own {
                cx.push(messages::complete_target(
                    span,
                    &format!("on a field of `{}`, which is no resource's or prompt's arguments", def.name),
                    "put the field in the `arguments` of the resource or prompt whose users it helps, or drop `@complete`",
                ));
                continue;
            }
            match ty {
                Type::Primitive(p) if *p == Primitive::String || p.int_bounds().is_some() => {}
                Type::Named(r) if matches!(types[r.id.index()].kind, TypeKind::Enum(_)) => {
                    cx.push(messages::complete_target(
                        span,
                        &format!(
                            "on `{}`, an enum, which completes from its values",
                            field.name
                        ),
                        &format!(
                            "drop `@complete`: clients are offered the values of `{}` with no code",
                            r.name
                        ),
                    ));
                }
                _ => cx.push(messages::complete_target(
                    span,
                    &format!("on `{}`, a `{}`", field.name, ty.idl()),
                    "drop `@complete`, or make the field a `string`",
                )),
            }
        }
    }
}
