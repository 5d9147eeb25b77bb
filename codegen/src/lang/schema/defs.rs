//! Self-contained schemas: a schema with `$defs` for every named type it
//! refers to, so a client can resolve each `$ref` without another document.

use std::collections::BTreeSet;

use serde_json::{Map, Value as Json};

use super::reach;
use super::types::Cx;
use crate::model::TypeId;

/// `schema` with `$defs` for every named type `root` reaches.
pub(super) fn rooted(
    schema: Map<String, Json>,
    cx: &Cx<'_>,
    root: Option<TypeId>,
) -> Map<String, Json> {
    let reached = reach::reached_from(cx.model, &root.into_iter().collect::<Vec<_>>());
    with_defs(schema, cx, &reached)
}

/// `schema` with `$defs` for `types`, when there are any.
pub(super) fn with_defs(
    mut schema: Map<String, Json>,
    cx: &Cx<'_>,
    types: &BTreeSet<TypeId>,
) -> Map<String, Json> {
    if !types.is_empty() {
        schema.insert("$defs".into(), Json::Object(cx.defs(types)));
    }
    schema
}
