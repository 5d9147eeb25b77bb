//! Which named types can hold a value that breaks a constraint (`@range`,
//! `@length`, `@pattern`), in a field of their own or in a type they hold:
//! the types whose `Validate` impl has something to check. Computed once
//! per catalogue, for the emitters' context.

use crate::model::{Model, Type};

/// Indexed by type id: true when a value of the type can break a
/// constraint, in one of its fields or in a type it holds.
pub(super) fn validated(model: &Model) -> Vec<bool> {
    let mut marked = vec![false; model.types.len()];
    // A fixed point: each pass marks the holders of what the last one
    // marked; recursive types stop when nothing changes.
    loop {
        let mut changed = false;
        for ty in &model.types {
            let needs = ty
                .kind
                .fields()
                .into_iter()
                .any(|f| !f.constraints.is_empty() || holds_validated(&marked, &f.ty));
            if needs && !std::mem::replace(&mut marked[ty.id.index()], true) {
                changed = true;
            }
        }
        if !changed {
            return marked;
        }
    }
}

fn holds_validated(marked: &[bool], ty: &Type) -> bool {
    let mut named = Vec::new();
    ty.push_named(&mut named);
    named
        .iter()
        .any(|id| marked.get(id.index()).copied().unwrap_or(false))
}
