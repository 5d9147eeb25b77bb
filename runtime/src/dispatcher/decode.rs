//! Decoding a request, and on failure saying where: the decoder's message
//! prefixed with the path of the field it failed in (`items[2]`,
//! `options.mode`).
//!
//! The path is found by decoding a second time with path tracking, only
//! when the first decode failed: the common case pays nothing for it.

use rmp::Marker;
use serde::de::DeserializeOwned;

use crate::ToolError;
use crate::codec::{self, Limits};

/// Decodes a MsgPack request within `limits`.
///
/// # Errors
/// `INVALID_REQUEST` naming the field that failed, when it is not the top
/// level, and what was wrong with it.
pub(super) fn request<T: DeserializeOwned>(bytes: &[u8], limits: Limits) -> Result<T, ToolError> {
    codec::from_msgpack(bytes, limits).map_err(|e| locate::<T>(bytes, limits, e))
}

/// `error`, said better when a second, path-tracking decode pins it down.
fn locate<T: DeserializeOwned>(bytes: &[u8], limits: Limits, error: ToolError) -> ToolError {
    let mut de = codec::deserializer(bytes, limits);
    let Err(traced) = serde_path_to_error::deserialize::<_, T>(&mut de) else {
        // The value decodes: what failed was around it (trailing bytes).
        return error;
    };
    let message = match traced.inner() {
        rmp_serde::decode::Error::TypeMismatch(marker) => {
            format!("wrong type: found {}", describe(*marker))
        }
        _ => error.message,
    };
    let path = traced.path().to_string();
    // "unknown field `c`" names it already.
    if path == "." || message.contains(&format!("`{path}`")) {
        ToolError::invalid_request(message)
    } else {
        ToolError::invalid_request(format!("field `{path}`: {message}"))
    }
}

/// What a MsgPack marker introduces, for messages.
fn describe(marker: Marker) -> &'static str {
    match marker {
        Marker::FixPos(_)
        | Marker::FixNeg(_)
        | Marker::U8
        | Marker::U16
        | Marker::U32
        | Marker::U64
        | Marker::I8
        | Marker::I16
        | Marker::I32
        | Marker::I64 => "an integer",
        Marker::F32 | Marker::F64 => "a float",
        Marker::Null => "nil",
        Marker::True | Marker::False => "a boolean",
        Marker::FixStr(_) | Marker::Str8 | Marker::Str16 | Marker::Str32 => "a string",
        Marker::Bin8 | Marker::Bin16 | Marker::Bin32 => "bytes",
        Marker::FixArray(_) | Marker::Array16 | Marker::Array32 => "an array",
        Marker::FixMap(_) | Marker::Map16 | Marker::Map32 => "a map",
        Marker::FixExt1
        | Marker::FixExt2
        | Marker::FixExt4
        | Marker::FixExt8
        | Marker::FixExt16
        | Marker::Ext8
        | Marker::Ext16
        | Marker::Ext32 => "an extension value",
        Marker::Reserved => "the reserved byte 0xc1",
    }
}
