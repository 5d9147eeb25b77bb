//! Which named types a schema reaches: what goes in its `$defs`, and which
//! structs a request can contain (those reject unknown fields).

use std::collections::BTreeSet;

use crate::model::{Field, Model, ToolKind, Type, TypeId, TypeKind};

/// The fields of a named type: a struct's, or every variant's.
pub(super) fn fields_of(model: &Model, id: TypeId) -> Vec<&Field> {
    match &model.type_def(id).kind {
        TypeKind::Struct(fields) => fields.iter().collect(),
        TypeKind::Union(variants) | TypeKind::Error(variants) => {
            variants.iter().flat_map(|v| &v.fields).collect()
        }
        TypeKind::Enum(_) => Vec::new(),
    }
}

/// Pushes the named type a field type mentions, if any.
pub(super) fn named_in(ty: &Type, out: &mut Vec<TypeId>) {
    match ty {
        Type::Primitive(_) => {}
        Type::List(inner) | Type::Map(inner) | Type::Optional(inner) => named_in(inner, out),
        Type::Named(r) => out.push(r.id),
    }
}

/// Every named type the fields of `roots` reach, transitively. A root is
/// included only when it reaches itself (a recursive type), since a
/// schema inlines its root and refers to it only from inside.
pub(super) fn reached_from(model: &Model, roots: &[TypeId]) -> BTreeSet<TypeId> {
    let mut seen = BTreeSet::new();
    let mut stack = Vec::new();
    for &root in roots {
        for field in fields_of(model, root) {
            named_in(&field.ty, &mut stack);
        }
    }
    while let Some(id) = stack.pop() {
        if id.index() >= model.types.len() || !seen.insert(id) {
            continue;
        }
        for field in fields_of(model, id) {
            named_in(&field.ty, &mut stack);
        }
    }
    seen
}

/// Indexed by type id: true when a request can contain the type. The
/// runtime rejects unknown fields in exactly these structs and variants.
pub(super) fn in_request(model: &Model) -> Vec<bool> {
    let requests: Vec<TypeId> = model
        .tools
        .iter()
        .flat_map(|tool| match &tool.kind {
            ToolKind::Single(e) => e.request.into_iter().collect::<Vec<_>>(),
            ToolKind::Actions(actions) => {
                actions.iter().filter_map(|a| a.endpoint.request).collect()
            }
        })
        .collect();
    let mut marked = vec![false; model.types.len()];
    for id in requests
        .iter()
        .copied()
        .chain(reached_from(model, &requests))
    {
        if let Some(slot) = marked.get_mut(id.index()) {
            *slot = true;
        }
    }
    marked
}
