//! Decoding `{"tool": name, ...fields}` maps without buffering.
//!
//! Serde's internally tagged enums buffer the whole map into a tree before
//! they look at the tag, because the tag may come anywhere. Toolwright's wire
//! puts the tag first, so the generated `Deserialize` of `ToolRequest`,
//! `ToolResponse` and the action enums reads the tag, picks the variant, and
//! hands the rest of the same map to that variant's struct decoder.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, Visitor};

/// An enum whose variants are told apart by a tag key that comes first in
/// its map. Implemented by generated code.
pub trait Tagged: Sized {
    /// The tag key: `"tool"` or `"action"`.
    const TAG: &'static str;
    /// What the enum is, for messages ("a tool request").
    const EXPECTING: &'static str;
    /// Every tag value.
    const VARIANTS: &'static [&'static str];

    /// Decodes the variant `name` from the rest of the map.
    ///
    /// # Errors
    /// An unknown variant, or the variant's own decoding errors.
    fn variant<'de, A: MapAccess<'de>>(name: &str, rest: A) -> Result<Self, A::Error>;
}

/// Deserializes a [`Tagged`] enum.
///
/// # Errors
/// When the input is not a map, its first key is not `T::TAG`, or the
/// variant fails to decode.
pub fn deserialize<'de, D: Deserializer<'de>, T: Tagged>(d: D) -> Result<T, D::Error> {
    d.deserialize_map(TaggedVisitor(PhantomData))
}

/// Decodes a variant's struct from the rest of the map.
///
/// # Errors
/// The struct's decoding errors.
pub fn rest<'de, T: Deserialize<'de>, A: MapAccess<'de>>(map: A) -> Result<T, A::Error> {
    T::deserialize(MapAccessDeserializer::new(map))
}

/// Checks that a variant without fields has nothing left in its map.
///
/// # Errors
/// When the map holds another key.
pub fn unit<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    match map.next_key::<Cow<'de, str>>()? {
        None => Ok(()),
        Some(key) => Err(de::Error::custom(format_args!(
            "unexpected field `{key}`: this takes no arguments"
        ))),
    }
}

/// The error for a tag value that names no variant.
pub fn unknown<E: de::Error, T: Tagged>(name: &str) -> E {
    E::unknown_variant(name, T::VARIANTS)
}

struct TaggedVisitor<T>(PhantomData<T>);

impl<'de, T: Tagged> Visitor<'de> for TaggedVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: a map whose first key is `{}`", T::EXPECTING, T::TAG)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let key: Cow<'de, str> = match map.next_key_seed(StrSeed)? {
            Some(key) => key,
            None => return Err(de::Error::missing_field(T::TAG)),
        };
        if key != T::TAG {
            return Err(de::Error::custom(format_args!(
                "expected `{}` as the first key of {}, found `{key}`",
                T::TAG,
                T::EXPECTING
            )));
        }
        let name: Cow<'de, str> = map.next_value_seed(StrSeed)?;
        T::variant(&name, map)
    }
}

/// A string, borrowed from the input when the format allows it.
struct StrSeed;

impl<'de> DeserializeSeed<'de> for StrSeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(StrVisitor)
    }
}

struct StrVisitor;

impl<'de> Visitor<'de> for StrVisitor {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}
