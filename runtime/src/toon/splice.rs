//! Writing a request's or response's `tool` tag as `toolName`, without
//! building a tree of the value.
//!
//! The wire writes a catalogue's `ToolRequest` as `{"tool": name,
//! ...fields}`; a `TOOL_CALL` carries `{"toolName": name, "args":
//! {...fields}}`. The value is encoded once, and the fields after its tag
//! are copied into the payload as they are.

use serde::Serialize;

use super::{EncodeError, Version};

/// The tag key of requests and responses.
const TAG: &str = crate::wire::TOOL_TAG;

/// A value written as `{"tool": name, ...fields}`, split after its tag.
pub(crate) struct Tagged {
    /// The tool name.
    pub(crate) name: String,
    /// The whole value, as written.
    bytes: Vec<u8>,
    /// Where the name is written in `bytes` (JSON: the string with quotes).
    name_at: (usize, usize),
    /// Where the fields after the tag start (JSON: at the `,` or `}`).
    rest: usize,
    /// MsgPack: how many fields follow the tag.
    fields: u32,
}

fn untagged(what: &str) -> EncodeError {
    EncodeError::new(format!(
        "a tool request or response is written as a map whose first key is `tool`; {what}"
    ))
}

impl Tagged {
    /// Writes `value` in `version`'s encoding and finds its tag.
    pub(crate) fn write<T: Serialize + ?Sized>(
        version: Version,
        value: &T,
    ) -> Result<Tagged, EncodeError> {
        match version {
            Version::V1 => {
                let bytes = serde_json::to_vec(value)
                    .map_err(|e| EncodeError::new(format!("cannot write JSON: {e}")))?;
                Self::split_json(bytes)
            }
            Version::V2 => {
                let bytes = rmp_serde::to_vec_named(value)
                    .map_err(|e| EncodeError::new(format!("cannot write MsgPack: {e}")))?;
                Self::split_msgpack(bytes)
            }
        }
    }

    fn split_json(bytes: Vec<u8>) -> Result<Tagged, EncodeError> {
        const OPEN: &[u8] = br#"{"tool":"#;
        if !bytes.starts_with(OPEN) {
            return Err(untagged("this value does not start with it"));
        }
        let mut names = serde_json::Deserializer::from_slice(&bytes[OPEN.len()..]).into_iter();
        let name: String = match names.next() {
            Some(Ok(name)) => name,
            _ => return Err(untagged("its value is not a string")),
        };
        let rest = OPEN.len() + names.byte_offset();
        if !matches!(bytes.get(rest), Some(b',' | b'}')) {
            return Err(untagged("the tag is not followed by a field or the end"));
        }
        Ok(Tagged {
            name,
            name_at: (OPEN.len(), rest),
            rest,
            fields: 0,
            bytes,
        })
    }

    fn split_msgpack(bytes: Vec<u8>) -> Result<Tagged, EncodeError> {
        let mut rd = &bytes[..];
        let len = rmp::decode::read_map_len(&mut rd).map_err(|_| untagged("this is not a map"))?;
        if len == 0 {
            return Err(untagged("this map is empty"));
        }
        let (key, rd) = rmp::decode::read_str_from_slice(rd)
            .map_err(|_| untagged("this map's first key is not a string"))?;
        if key != TAG {
            return Err(untagged("this map does not start with it"));
        }
        let name_start = bytes.len() - rd.len();
        let (name, rd) = rmp::decode::read_str_from_slice(rd)
            .map_err(|_| untagged("its value is not a string"))?;
        let rest = bytes.len() - rd.len();
        Ok(Tagged {
            name: name.to_owned(),
            name_at: (name_start, rest),
            rest,
            fields: len - 1,
            bytes,
        })
    }

    fn name_bytes(&self) -> &[u8] {
        &self.bytes[self.name_at.0..self.name_at.1]
    }

    /// Appends the fields after the tag as a map of their own.
    fn write_fields(&self, out: &mut Vec<u8>, version: Version) {
        let rest = &self.bytes[self.rest..];
        match version {
            Version::V1 => match rest.split_first() {
                Some((b',', fields)) => {
                    out.push(b'{');
                    out.extend_from_slice(fields);
                }
                _ => out.extend_from_slice(b"{}"),
            },
            Version::V2 => {
                write_map_len(out, self.fields);
                out.extend_from_slice(rest);
            }
        }
    }
}

// Writing MsgPack into a `Vec` cannot fail, so these write the markers
// themselves, with the smallest encodings as `rmp` chooses them.

fn write_map_len(out: &mut Vec<u8>, len: u32) {
    match len {
        0..=15 => out.push(0x80 | len as u8),
        16..=0xffff => {
            out.push(0xde);
            out.extend_from_slice(&(len as u16).to_be_bytes());
        }
        _ => {
            out.push(0xdf);
            out.extend_from_slice(&len.to_be_bytes());
        }
    }
}

/// A short ASCII key (at most 31 bytes): a fixstr.
fn write_key(out: &mut Vec<u8>, key: &str) {
    out.push(0xa0 | key.len() as u8);
    out.extend_from_slice(key.as_bytes());
}

fn write_uint(out: &mut Vec<u8>, n: u64) {
    match n {
        0..=0x7f => out.push(n as u8),
        0x80..=0xff => out.extend_from_slice(&[0xcc, n as u8]),
        0x100..=0xffff => {
            out.push(0xcd);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        0x1_0000..=0xffff_ffff => {
            out.push(0xce);
            out.extend_from_slice(&(n as u32).to_be_bytes());
        }
        _ => {
            out.push(0xcf);
            out.extend_from_slice(&n.to_be_bytes());
        }
    }
}

/// The payload of a `TOOL_CALL`: `{"toolName": name, "args": {...}}`.
pub(crate) fn tool_call(version: Version, tagged: &Tagged) -> Vec<u8> {
    let mut out = Vec::with_capacity(tagged.bytes.len() + 16);
    match version {
        Version::V1 => {
            out.extend_from_slice(br#"{"toolName":"#);
            out.extend_from_slice(tagged.name_bytes());
            out.extend_from_slice(br#","args":"#);
            tagged.write_fields(&mut out, version);
            out.push(b'}');
        }
        Version::V2 => {
            write_map_len(&mut out, 2);
            write_key(&mut out, "toolName");
            out.extend_from_slice(tagged.name_bytes());
            write_key(&mut out, "args");
            tagged.write_fields(&mut out, version);
        }
    }
    out
}

/// The payload of a successful `TOOL_RESULT`: `{"success": true,
/// "toolName": name, "data": {...}, "duration": ms}`.
pub(crate) fn tool_success(version: Version, tagged: &Tagged, duration: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(tagged.bytes.len() + 48);
    match version {
        Version::V1 => {
            out.extend_from_slice(br#"{"success":true,"toolName":"#);
            out.extend_from_slice(tagged.name_bytes());
            out.extend_from_slice(br#","data":"#);
            tagged.write_fields(&mut out, version);
            out.extend_from_slice(format!(r#","duration":{duration}}}"#).as_bytes());
        }
        Version::V2 => {
            write_map_len(&mut out, 4);
            write_key(&mut out, "success");
            out.push(0xc3);
            write_key(&mut out, "toolName");
            out.extend_from_slice(tagged.name_bytes());
            write_key(&mut out, "data");
            tagged.write_fields(&mut out, version);
            write_key(&mut out, "duration");
            write_uint(&mut out, duration);
        }
    }
    out
}
