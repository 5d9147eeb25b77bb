//! Rough sizes of generated types, to tell when clippy's
//! `large_enum_variant` would fire on an enum whose variants mirror the IDL
//! (and so cannot be boxed without changing the API the IDL promises).

use crate::model::{Field, Model, Primitive, Type, TypeKind};

/// clippy's default `enum-variant-size-threshold` (200 bytes), less a
/// margin for the estimate's error: above it, the enum gets a targeted
/// `allow`.
const LARGE_DIFFERENCE: usize = 150;

/// True when the largest variant may exceed the second largest by clippy's
/// threshold. `variants` holds each variant's payload size.
pub(crate) fn lopsided(mut variants: Vec<usize>) -> bool {
    variants.sort_unstable_by(|a, b| b.cmp(a));
    match variants.as_slice() {
        [largest, second, ..] => largest.saturating_sub(*second) >= LARGE_DIFFERENCE,
        _ => false,
    }
}

/// Estimated size in bytes of every type, indexed by type id: computed
/// once, dependencies first, so it stays linear in the catalogue's size.
pub(crate) fn sizes(model: &Model) -> Vec<usize> {
    // A type met before its size is known sits on a cycle, which always
    // passes through a box, a list or a map; a pointer's size stands in.
    let mut sizes = vec![8; model.types.len()];
    for &id in &model.type_order {
        let size = match &model.type_def(id).kind {
            TypeKind::Struct(fields) => fields_size(&sizes, fields),
            TypeKind::Enum(_) => 1,
            TypeKind::Union(variants) | TypeKind::Error(variants) => {
                8 + variants
                    .iter()
                    .map(|v| fields_size(&sizes, &v.fields))
                    .max()
                    .unwrap_or(0)
            }
        };
        if let Some(slot) = sizes.get_mut(id.index()) {
            *slot = size;
        }
    }
    sizes
}

/// Estimated size of a field list, given the sizes of named types.
pub(crate) fn fields_size(sizes: &[usize], fields: &[Field]) -> usize {
    fields
        .iter()
        .map(|f| if f.indirect { 8 } else { ty(sizes, &f.ty) })
        .sum()
}

fn ty(sizes: &[usize], t: &Type) -> usize {
    match t {
        Type::Primitive(p) => match p {
            Primitive::Bool | Primitive::I8 | Primitive::U8 => 1,
            Primitive::I16 | Primitive::U16 => 2,
            Primitive::I32 | Primitive::U32 | Primitive::F32 => 4,
            Primitive::I64 | Primitive::U64 | Primitive::F64 => 8,
            Primitive::String | Primitive::Bytes => 24,
            Primitive::Json => 32,
        },
        Type::List(_) | Type::Map(_) => 24,
        Type::Optional(inner) => 8 + ty(sizes, inner),
        Type::Named(r) => sizes.get(r.id.index()).copied().unwrap_or(8),
    }
}
