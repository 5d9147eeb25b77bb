//! `Bytes`: the IDL's `bytes`, MsgPack `bin` inside and base64 in JSON.

use std::fmt;
use std::ops::{Deref, DerefMut};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// The IDL's `bytes`: MsgPack `bin` in binary formats, a standard base64
/// string in human-readable ones (JSON).
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bytes(pub Vec<u8>);

impl Bytes {
    /// The bytes.
    pub fn into_vec(self) -> Vec<u8> {
        self.0
    }
}

impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Long payloads would drown a log line; show the length and a prefix.
        const SHOWN: usize = 32;
        write!(f, "Bytes({} bytes", self.0.len())?;
        if !self.0.is_empty() {
            f.write_str(": ")?;
            for b in self.0.iter().take(SHOWN) {
                write!(f, "{b:02x}")?;
            }
            if self.0.len() > SHOWN {
                f.write_str("…")?;
            }
        }
        f.write_str(")")
    }
}

impl Deref for Bytes {
    type Target = Vec<u8>;
    fn deref(&self) -> &Vec<u8> {
        &self.0
    }
}

impl DerefMut for Bytes {
    fn deref_mut(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(v: Vec<u8>) -> Self {
        Bytes(v)
    }
}

impl From<&[u8]> for Bytes {
    fn from(v: &[u8]) -> Self {
        Bytes(v.to_vec())
    }
}

impl From<Bytes> for Vec<u8> {
    fn from(b: Bytes) -> Self {
        b.0
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_str(&STANDARD.encode(&self.0))
        } else {
            s.serialize_bytes(&self.0)
        }
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if d.is_human_readable() {
            d.deserialize_str(BytesVisitor)
        } else {
            d.deserialize_bytes(BytesVisitor)
        }
    }
}

struct BytesVisitor;

impl<'de> Visitor<'de> for BytesVisitor {
    type Value = Bytes;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bytes (MsgPack bin, or a base64 string in JSON)")
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
        Ok(Bytes(v.to_vec()))
    }

    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Bytes, E> {
        Ok(Bytes(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Bytes, E> {
        STANDARD
            .decode(v)
            .map(Bytes)
            .map_err(|e| E::custom(format_args!("invalid base64: {e}")))
    }

    // Some MsgPack writers (older JavaScript ones) send `bytes` as an array of
    // small integers; accept it, bounded by what the input really holds.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Bytes, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(b) = seq.next_element::<u8>()? {
            out.push(b);
        }
        Ok(Bytes(out))
    }
}

/// A base64 string (`contentEncoding: base64`), as the IDL's own schema
/// states `bytes`: what JSON carries.
#[cfg(feature = "schemars")]
impl schemars::JsonSchema for Bytes {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Bytes".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "toolwright::Bytes".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "contentEncoding": "base64",
        })
    }
}
