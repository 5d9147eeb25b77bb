//! What a `tools/call` takes as arguments: the request's fields as an
//! object, or an empty object for a tool without a request. A plain tool
//! roots it as its `inputSchema`; an action tool uses it per action.

use serde_json::{Map, Value as Json};

use super::types::Cx;
use crate::model::TypeId;

/// The arguments: the request's fields, or none.
pub(super) fn request(cx: &Cx<'_>, request: Option<TypeId>) -> Map<String, Json> {
    match request {
        Some(id) => cx.type_schema(cx.model.type_def(id)),
        None => cx.object(&[], true),
    }
}
