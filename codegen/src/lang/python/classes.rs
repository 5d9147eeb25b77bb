//! The class names of `models.py`: one per declared type, and one per
//! variant of a union or error, unique within the module. The models and
//! the `ToolCall` / `ToolResult` envelopes both name them.

use super::names::{self, Unique};
use crate::model::{Model, TypeKind};

/// Class names, indexed by type id; variant class names by (type, variant).
pub(super) struct Classes {
    /// Each declared type's class.
    pub(super) types: Vec<String>,
    /// Each union's or error's variant classes, in variant order (empty
    /// for other types).
    pub(super) variants: Vec<Vec<String>>,
}

/// The classes of every type of `model`: variant classes take the first
/// free name after the type classes.
pub(super) fn class_names(model: &Model) -> Classes {
    let mut unique = Unique::default();
    let types: Vec<String> = model.types.iter().map(|t| names::class(&t.name)).collect();
    unique.reserve(types.iter().map(String::as_str));
    let variants = model
        .types
        .iter()
        .zip(&types)
        .map(|(t, class)| match &t.kind {
            TypeKind::Union(vs) | TypeKind::Error(vs) => vs
                .iter()
                .map(|v| unique.name(format!("{class}{}", names::pascal(&v.name))))
                .collect(),
            _ => Vec::new(),
        })
        .collect();
    Classes { types, variants }
}
