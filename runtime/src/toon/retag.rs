//! Reading `{"toolName": name, "args": {...}}` into a request (and a
//! `TOOL_RESULT`'s `data` into a response) without building a tree: the
//! `args` map goes to the request's own decoder with the tag `"tool":
//! name` put back in front of it. Writing is in `splice.rs`.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, StrDeserializer};
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor,
};

use super::payload::ToolResult;
use crate::ToolError;

/// The tag key of requests and responses.
const TAG: &str = crate::wire::TOOL_TAG;

/// A `TOOL_CALL` payload, read into the request `R`.
pub(crate) struct CallPayload<R>(pub(crate) R);

impl<'de, R: DeserializeOwned> de::Deserialize<'de> for CallPayload<R> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(CallVisitor(PhantomData))
    }
}

struct CallVisitor<R>(PhantomData<R>);

impl<'de, R: DeserializeOwned> Visitor<'de> for CallVisitor<R> {
    type Value = CallPayload<R>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(r#"a tool call: {"toolName": str, "args": {...}}"#)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut tool: Option<String> = None;
        let mut request = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "toolName" => set(&mut tool, "toolName", map.next_value()?)?,
                "args" => {
                    let name = name_before(&tool, "args")?;
                    set(
                        &mut request,
                        "args",
                        map.next_value_seed(Retag::<R>::new(name))?,
                    )?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        name_before::<A::Error>(&tool, "args")?;
        request
            .map(CallPayload)
            .ok_or_else(|| de::Error::missing_field("args"))
    }
}

/// A `TOOL_RESULT` payload, read into a [`ToolResult`].
pub(crate) struct ResultPayload<R>(pub(crate) ToolResult<R>);

impl<'de, R: DeserializeOwned> de::Deserialize<'de> for ResultPayload<R> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(ResultVisitor(PhantomData))
    }
}

struct ResultVisitor<R>(PhantomData<R>);

impl<'de, R: DeserializeOwned> Visitor<'de> for ResultVisitor<R> {
    type Value = ResultPayload<R>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            r#"a tool result: {"success": bool, "toolName": str, "data" or "error", "duration": u64}"#,
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut success: Option<bool> = None;
        let mut tool: Option<String> = None;
        let mut data = None;
        let mut error: Option<ToolError> = None;
        let mut duration: Option<u64> = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "success" => set(&mut success, "success", map.next_value()?)?,
                "toolName" => set(&mut tool, "toolName", map.next_value()?)?,
                "data" => {
                    let name = name_before(&tool, "data")?;
                    set(
                        &mut data,
                        "data",
                        map.next_value_seed(Retag::<R>::new(name))?,
                    )?;
                }
                "error" => set(&mut error, "error", map.next_value()?)?,
                "duration" => set(&mut duration, "duration", map.next_value()?)?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let success = success.ok_or_else(|| de::Error::missing_field("success"))?;
        let tool = tool.ok_or_else(|| de::Error::missing_field("toolName"))?;
        let duration_ms = duration.ok_or_else(|| de::Error::missing_field("duration"))?;
        let outcome = match (success, data, error) {
            (true, Some(data), None) => Ok(data),
            (false, None, Some(error)) => Err(error),
            (true, _, Some(_)) => {
                return Err(de::Error::custom("a successful tool result has an `error`"));
            }
            (true, None, None) => return Err(de::Error::missing_field("data")),
            (false, Some(_), _) => {
                return Err(de::Error::custom("a failed tool result has `data`"));
            }
            (false, None, None) => return Err(de::Error::missing_field("error")),
        };
        Ok(ResultPayload(ToolResult {
            tool,
            outcome,
            duration_ms,
        }))
    }
}

fn set<T, E: de::Error>(slot: &mut Option<T>, key: &'static str, value: T) -> Result<(), E> {
    if slot.replace(value).is_some() {
        return Err(E::duplicate_field(key));
    }
    Ok(())
}

/// The tool name, which must come before the fields that need it.
fn name_before<'a, E: de::Error>(tool: &'a Option<String>, key: &str) -> Result<&'a str, E> {
    tool.as_deref().ok_or_else(|| {
        E::custom(format_args!(
            "`toolName` must come before `{key}`, which is read as that tool's fields"
        ))
    })
}

/// Reads a map of fields as `R`, as if it started with `"tool": name`.
struct Retag<'n, R> {
    name: &'n str,
    target: PhantomData<R>,
}

impl<'n, R> Retag<'n, R> {
    fn new(name: &'n str) -> Self {
        Retag {
            name,
            target: PhantomData,
        }
    }
}

impl<'de, R: DeserializeOwned> DeserializeSeed<'de> for Retag<'_, R> {
    type Value = R;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<R, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, R: DeserializeOwned> Visitor<'de> for Retag<'_, R> {
    type Value = R;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the fields of tool `{}`: a map", self.name)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<R, A::Error> {
        R::deserialize(MapAccessDeserializer::new(WithTag {
            name: self.name,
            next: Next::Key,
            map,
        }))
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    Key,
    Value,
    Rest,
}

/// A map with the entry `"tool": name` in front of `map`'s entries.
struct WithTag<'n, A> {
    name: &'n str,
    next: Next,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for WithTag<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if self.next == Next::Key {
            self.next = Next::Value;
            return seed.deserialize(StrDeserializer::new(TAG)).map(Some);
        }
        self.map.next_key_seed(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        if self.next == Next::Value {
            self.next = Next::Rest;
            return seed.deserialize(StrDeserializer::new(self.name));
        }
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        let tag = usize::from(self.next == Next::Key);
        self.map.size_hint().map(|n| n + tag)
    }
}
