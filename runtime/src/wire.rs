//! The wire's own names, spelled once (docs/wire.md): the keys that tag a
//! request or response with its tool and action.

use crate::Json;

/// The key naming a request's or response's tool: `{"tool": "add", …}`,
/// always the first of its map.
pub(crate) const TOOL_TAG: &str = "tool";

/// The key naming an action tool's action, right after the tool tag.
pub(crate) const ACTION_TAG: &str = "action";

/// A response's own fields: `value` without its tool tag, which is
/// returned (a door that answers one call already says which tool it was).
pub(crate) fn untag(value: &mut Json) -> Option<Json> {
    value.as_object_mut()?.remove(TOOL_TAG)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_tag_is_taken_and_the_fields_kept() {
        let mut response = json!({"tool": "fs", "action": "read", "text": "hi"});
        assert_eq!(untag(&mut response), Some(json!("fs")));
        assert_eq!(response, json!({"action": "read", "text": "hi"}));
        let mut other = json!([1]);
        assert_eq!(untag(&mut other), None);
    }
}
