//! Which named types a schema reaches: what goes in its `$defs`.

use std::collections::BTreeSet;

use crate::model::{Model, TypeId};

/// Every named type the fields of `roots` reach, transitively. A root is
/// included only when it reaches itself (a recursive type), since a
/// schema inlines its root and refers to it only from inside.
pub(super) fn reached_from(model: &Model, roots: &[TypeId]) -> BTreeSet<TypeId> {
    reached(model, roots, false)
}

/// As [`reached_from`] for the structured content of answers: a root's
/// `@content` fields are sent as content blocks, so what only they reach
/// is not in it.
pub(super) fn answered_from(model: &Model, roots: &[TypeId]) -> BTreeSet<TypeId> {
    reached(model, roots, true)
}

fn reached(model: &Model, roots: &[TypeId], skip_content: bool) -> BTreeSet<TypeId> {
    let mut seen = BTreeSet::new();
    let mut stack = Vec::new();
    for &root in roots {
        for field in model.type_def(root).kind.fields() {
            if !(skip_content && field.content.is_some()) {
                field.ty.push_named(&mut stack);
            }
        }
    }
    while let Some(id) = stack.pop() {
        if id.index() >= model.types.len() || !seen.insert(id) {
            continue;
        }
        for field in model.type_def(id).kind.fields() {
            field.ty.push_named(&mut stack);
        }
    }
    seen
}
