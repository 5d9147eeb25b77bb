//! Stream chunks as JSON, for progress messages: chunks travel as the
//! handler's MsgPack, and `bytes` inside them become base64 strings, as
//! everywhere JSON carries them.

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::{Json, codec};

/// A chunk as JSON text; one that does not decode is described instead.
#[cfg(feature = "mcp")]
pub(crate) fn text(chunk: &[u8]) -> String {
    match to_json(chunk) {
        Ok(json) => json.to_string(),
        Err(_) => format!("a chunk of {} bytes", chunk.len()),
    }
}

/// Any MsgPack value as JSON, `bin` as base64.
///
/// # Errors
/// `INVALID_REQUEST` when the bytes are not one MsgPack value within the
/// default limits.
pub(crate) fn to_json(msgpack: &[u8]) -> Result<Json, crate::ToolError> {
    codec::from_msgpack::<Value>(msgpack, codec::Limits::default()).map(|Value(json)| json)
}

/// A call's arguments read from JSON or MsgPack alike: an object, `bin`
/// as base64 (as JSON carries `bytes`), so a door that takes either hands
/// the edge the same arguments.
#[cfg(feature = "web")]
pub(crate) struct Arguments(pub(crate) serde_json::Map<String, Json>);

#[cfg(feature = "web")]
impl<'de> Deserialize<'de> for Arguments {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)?.0 {
            Json::Object(args) => Ok(Arguments(args)),
            _ => Err(de::Error::custom("the arguments must be an object")),
        }
    }
}

/// Any MsgPack value as JSON, `bin` as base64.
struct Value(Json);

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor).map(Value)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a MsgPack value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        // NaN and infinities have no JSON form: null, as serde_json writes them.
        Ok(serde_json::Number::from_f64(v).map_or(Json::Null, Json::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::from(v))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_bytes<E>(self, v: &[u8]) -> Result<Json, E> {
        Ok(Json::String(STANDARD.encode(v)))
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        Value::deserialize(deserializer).map(|v| v.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        // The decoder's size limit bounds the input; the hint is not trusted
        // beyond a small preallocation.
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(Value(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some((Key(key), Value(value))) = map.next_entry()? {
            object.insert(key, value);
        }
        Ok(Json::Object(object))
    }
}

/// A map key: a string, or a number or boolean written as one.
struct Key(String);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match Value::deserialize(deserializer)?.0 {
            Json::String(s) => Ok(Key(s)),
            Json::Number(n) => Ok(Key(n.to_string())),
            Json::Bool(b) => Ok(Key(b.to_string())),
            _ => Err(de::Error::custom(
                "a map key must be a string, a number or a boolean",
            )),
        }
    }
}

#[cfg(all(test, feature = "mcp"))]
mod tests {
    use super::*;
    use crate::Bytes;
    use serde::Serialize;

    #[derive(Serialize)]
    struct Chunk {
        variation: u32,
        events: Bytes,
        tags: Vec<Option<String>>,
    }

    #[test]
    fn bytes_become_base64_and_the_rest_plain_json() {
        let chunk = Chunk {
            variation: 2,
            events: Bytes(vec![0, 144, 64]),
            tags: vec![Some("a".into()), None],
        };
        let msgpack = codec::to_msgpack(&chunk).expect("encodes");
        assert_eq!(
            text(&msgpack),
            r#"{"events":"AJBA","tags":["a",null],"variation":2}"#
        );
    }

    #[test]
    fn a_chunk_that_does_not_decode_is_described() {
        assert_eq!(text(&[0x92, 0x01]), "a chunk of 2 bytes");
    }
}
