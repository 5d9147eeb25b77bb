//! A call's JSON arguments as the MsgPack request a call port takes.

use serde::Serialize;
use serde::ser::SerializeMap as _;

use super::JsonObject;
use crate::wire::{ACTION_TAG, TOOL_TAG};
use crate::{ToolError, codec};

/// `{"tool": name, "action": …, …args}` as MsgPack: the tag first and the
/// action second, as the decoder reads them. The same bytes as writing the
/// JSON and transcoding it (`codec::json_to_msgpack`), without the JSON.
pub(crate) fn request_msgpack(
    tool: &str,
    args: &JsonObject,
    limits: codec::Limits,
) -> Result<Vec<u8>, ToolError> {
    request_msgpack_tagged(TOOL_TAG, tool, args, limits)
}

/// `{tag: name, …args}` as MsgPack: a tool's call (`tool`), or an entry's
/// request (`resource`, `prompt`, `complete`; see [`crate::entry`]).
pub(crate) fn request_msgpack_tagged(
    tag: &str,
    tool: &str,
    args: &JsonObject,
    limits: codec::Limits,
) -> Result<Vec<u8>, ToolError> {
    let mut out = Vec::with_capacity(64);
    WithTag { tag, tool, args }
        .serialize(&mut rmp_serde::Serializer::new(&mut out))
        .map_err(|e| ToolError::internal(format!("cannot encode the arguments: {e}")))?;
    limits.check_size(out.len())?;
    Ok(out)
}

/// Fields with their tool's name in front, in the wire's key order (the
/// tag, the action, the rest): a call's arguments as its request, or an
/// answer the edge gave as a response.
pub(crate) struct WithTag<'a> {
    /// The key that names it: `tool`, or an entry's kind.
    pub(crate) tag: &'a str,
    /// The tool's (or entry's) name.
    pub(crate) tool: &'a str,
    /// The fields, without a tag of their own.
    pub(crate) args: &'a JsonObject,
}

impl Serialize for WithTag<'_> {
    fn serialize<Ser: serde::Serializer>(&self, serializer: Ser) -> Result<Ser::Ok, Ser::Error> {
        let mut map = serializer.serialize_map(Some(self.args.len() + 1))?;
        map.serialize_entry(self.tag, self.tool)?;
        if let Some(action) = self.args.get(ACTION_TAG) {
            map.serialize_entry(ACTION_TAG, action)?;
        }
        for (key, value) in self.args.iter().filter(|(key, _)| *key != ACTION_TAG) {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arguments_encode_as_the_transcoded_json_would() {
        let args = json!({"b": [1, -2, 3.5, null, true], "action": "write", "a": {"x": "é"}, "n": 18446744073709551615u64});
        let Some(args) = args.as_object() else {
            panic!("an object");
        };
        let limits = codec::Limits::default();
        let direct = request_msgpack("fs", args, limits).unwrap_or_else(|e| panic!("{e:?}"));
        let mut json = br#"{"tool":"fs","action":"write""#.to_vec();
        for (key, value) in args.iter().filter(|(k, _)| *k != "action") {
            json.extend_from_slice(format!(",{}:{}", json!(key), value).as_bytes());
        }
        json.push(b'}');
        let transcoded = codec::json_to_msgpack(&json, limits).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(direct, transcoded);
    }

    #[test]
    fn arguments_over_the_limit_are_refused() {
        let args = json!({"text": "x".repeat(100)});
        let Some(args) = args.as_object() else {
            panic!("an object");
        };
        let limits = codec::Limits::default().max_bytes(50);
        let refused = request_msgpack("echo", args, limits).map(|_| ());
        assert_eq!(refused.map_err(|e| e.code), Err("INVALID_REQUEST".into()));
    }
}
