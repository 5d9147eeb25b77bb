//! MsgPack (inside) and JSON (at the edge) codecs, with limits checked
//! before anything is allocated.
//!
//! Every type is decoded from MsgPack only: JSON input is transcoded to
//! MsgPack first, so each generated type carries one deserializer, not two.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::ToolError;

/// Bounds on decoded input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Largest accepted message, in bytes.
    pub max_bytes: usize,
    /// Deepest accepted nesting of arrays and maps.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 64 * 1024 * 1024,
            max_depth: 128,
        }
    }
}

impl Limits {
    /// Sets the largest accepted message.
    #[must_use]
    pub fn max_bytes(mut self, n: usize) -> Self {
        self.max_bytes = n;
        self
    }

    /// Sets the deepest accepted nesting.
    #[must_use]
    pub fn max_depth(mut self, n: usize) -> Self {
        self.max_depth = n;
        self
    }

    pub(crate) fn check_size(&self, len: usize) -> Result<(), ToolError> {
        if len > self.max_bytes {
            return Err(ToolError::invalid_request(format!(
                "message of {len} bytes is larger than the limit of {} bytes",
                self.max_bytes
            )));
        }
        Ok(())
    }
}

/// Encodes as MsgPack, structs as maps keyed by field name.
///
/// # Errors
/// `INTERNAL` when the value cannot be encoded (a `json` map with non-string
/// keys, say).
pub fn to_msgpack<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, ToolError> {
    rmp_serde::to_vec_named(value)
        .map_err(|e| ToolError::internal(format!("cannot encode MsgPack: {e}")))
}

/// Decodes MsgPack within `limits`; trailing bytes are an error.
///
/// # Errors
/// `INVALID_REQUEST` naming what is wrong: truncated input, a wrong type, a
/// missing field, nesting deeper than the limit.
pub fn from_msgpack<T: DeserializeOwned>(bytes: &[u8], limits: Limits) -> Result<T, ToolError> {
    limits.check_size(bytes.len())?;
    let mut de = deserializer(bytes, limits);
    let value = T::deserialize(&mut de).map_err(|e| invalid_msgpack(&e))?;
    if at_end(&mut de) {
        Ok(value)
    } else {
        Err(ToolError::invalid_request(
            "trailing bytes after the MsgPack value",
        ))
    }
}

/// Whether `de` has read all of its input.
pub(crate) fn at_end(de: &mut SliceDeserializer<'_>) -> bool {
    // The slice reader does not expose what is left, so try to start a
    // second value: only "no marker to read" means the input has ended.
    // The probe refuses whatever value it is shown without reading into it:
    // skipping the value instead would take a lone `0x81` (a map missing its
    // entries) for the end, since reading its first key also finds nothing.
    matches!(
        serde::Deserializer::deserialize_any(de, NoValue),
        Err(rmp_serde::decode::Error::InvalidMarkerRead(e))
            if e.kind() == std::io::ErrorKind::UnexpectedEof
    )
}

/// The MsgPack reader of [`deserializer`].
pub(crate) type SliceDeserializer<'de> =
    rmp_serde::Deserializer<rmp_serde::decode::ReadRefReader<'de, [u8]>>;

/// A MsgPack reader over `bytes` that borrows strings and bytes from them
/// (so no length prefix is trusted before the data is there) and stops at
/// `limits.max_depth`.
pub(crate) fn deserializer(bytes: &[u8], limits: Limits) -> SliceDeserializer<'_> {
    let mut de = rmp_serde::Deserializer::from_read_ref(bytes);
    // rmp-serde refuses a container that brings its count to the limit, so
    // its limit is one more than the deepest nesting accepted (and a limit
    // of 0 would wrap).
    de.set_max_depth(limits.max_depth.saturating_add(1));
    de
}

/// A visitor that accepts no value at all: every `visit_*` is serde's
/// default "invalid type" error.
struct NoValue;

impl serde::de::Visitor<'_> for NoValue {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the end of the input")
    }
}

fn invalid_msgpack(e: &rmp_serde::decode::Error) -> ToolError {
    use rmp_serde::decode::Error as E;
    let message = match e {
        E::InvalidMarkerRead(_) | E::InvalidDataRead(_) => {
            "truncated MsgPack: the input ends inside a value".to_owned()
        }
        E::DepthLimitExceeded => "MsgPack nested deeper than the limit".to_owned(),
        other => other.to_string(),
    };
    ToolError::invalid_request(message)
}

/// Encodes as JSON.
///
/// # Errors
/// `INTERNAL` when the value cannot be encoded (a non-finite float).
pub fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, ToolError> {
    serde_json::to_vec(value).map_err(|e| ToolError::internal(format!("cannot encode JSON: {e}")))
}

/// Transcodes a JSON document to MsgPack without building a tree, so the
/// typed decode that follows is the MsgPack one. `bytes` fields travel as
/// their base64 strings and decode as bytes.
///
/// # Errors
/// `INVALID_REQUEST` for malformed JSON or input over the limits.
pub fn json_to_msgpack(json: &[u8], limits: Limits) -> Result<Vec<u8>, ToolError> {
    limits.check_size(json.len())?;
    let mut de = serde_json::Deserializer::from_slice(json);
    let mut out = Vec::with_capacity(json.len());
    let mut ser = rmp_serde::Serializer::new(&mut out);
    serde_transcode::transcode(&mut de, &mut ser)
        .map_err(|e| ToolError::invalid_request(format!("invalid JSON: {e}")))?;
    de.end()
        .map_err(|e| ToolError::invalid_request(format!("invalid JSON: {e}")))?;
    Ok(out)
}

/// Decodes JSON by transcoding it to MsgPack first (see [`json_to_msgpack`]).
///
/// # Errors
/// As [`json_to_msgpack`] and [`from_msgpack`].
pub fn from_json<T: DeserializeOwned>(json: &[u8], limits: Limits) -> Result<T, ToolError> {
    let msgpack = json_to_msgpack(json, limits)?;
    from_msgpack(&msgpack, limits.max_bytes(usize::MAX))
}

fn truncated() -> ToolError {
    ToolError::invalid_request("truncated MsgPack: the input ends inside a value")
}

/// Reads one `str`, telling a truncated input from a value of another type.
fn read_str(
    bytes: &[u8],
    not_a_string: impl FnOnce() -> String,
) -> Result<(&str, &[u8]), ToolError> {
    use rmp::decode::DecodeStringError as E;
    rmp::decode::read_str_from_slice(bytes).map_err(|e| match e {
        E::InvalidMarkerRead(_) | E::InvalidDataRead(_) | E::BufferSizeTooSmall(_) => truncated(),
        E::InvalidUtf8(..) => ToolError::invalid_request("a string is not valid UTF-8"),
        _ => ToolError::invalid_request(not_a_string()),
    })
}

/// The tool (and action) a MsgPack request names, read without decoding the
/// rest: a request is a map whose first key is `tool`, and for action tools
/// whose second key is `action`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peek<'a> {
    /// The tool name.
    pub tool: &'a str,
    /// The action name, when the second key is `action`.
    pub action: Option<&'a str>,
}

/// Reads the tool and action names at the head of a MsgPack request.
///
/// # Errors
/// `INVALID_REQUEST` when the input is not a map that starts with `tool`.
pub fn peek_call(bytes: &[u8]) -> Result<Peek<'_>, ToolError> {
    const SHAPE: &str = "a request is a MsgPack map whose first key is `tool`";
    let mut rd = bytes;
    let len = rmp::decode::read_map_len(&mut rd).map_err(|e| match e {
        rmp::decode::ValueReadError::InvalidMarkerRead(_) => truncated(),
        _ => ToolError::invalid_request(format!("not a map: {SHAPE}")),
    })?;
    if len == 0 {
        return Err(ToolError::invalid_request(format!("empty map: {SHAPE}")));
    }
    let (key, rest) = read_str(rd, || format!("first key is not a string: {SHAPE}"))?;
    if key != crate::wire::TOOL_TAG {
        return Err(ToolError::invalid_request(format!(
            "first key is `{key}`: {SHAPE}"
        )));
    }
    let (tool, rest) = read_str(rest, || "the value of `tool` is not a string".to_owned())?;
    let action = match rmp::decode::read_str_from_slice(rest) {
        Ok((crate::wire::ACTION_TAG, rest)) if len >= 2 => {
            Some(read_str(rest, || "the value of `action` is not a string".to_owned())?.0)
        }
        _ => None,
    };
    Ok(Peek { tool, action })
}
