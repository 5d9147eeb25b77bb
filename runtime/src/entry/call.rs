//! An entry's request as the dispatcher hands it to the service: its kind
//! and name read, its arguments still bytes until the handler's own type
//! decodes them.

use std::fmt;
use std::ops::Range;

use serde::de::DeserializeOwned;
use serde::de::value::MapAccessDeserializer;

use crate::codec::{self, Limits};
use crate::dispatcher::RestOfMap;
use crate::{CallContext, ToolError, Validate, codes};

/// What an entry's request asks for: the first key of its map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// `{"resource": name, …template variables}`: read a resource.
    Resource,
    /// `{"prompt": name, …arguments}`: get a prompt.
    Prompt,
    /// `{"complete": name, "argument", "value", "context"}`: complete an
    /// argument of the resource or prompt `name`.
    Complete,
}

impl EntryKind {
    /// Every kind.
    pub const ALL: [EntryKind; 3] = [EntryKind::Resource, EntryKind::Prompt, EntryKind::Complete];

    /// The key that names it: `resource`, `prompt`, `complete`.
    pub const fn tag(self) -> &'static str {
        match self {
            EntryKind::Resource => "resource",
            EntryKind::Prompt => "prompt",
            EntryKind::Complete => "complete",
        }
    }

    /// The kind a request's first key names.
    pub fn from_tag(tag: &str) -> Option<Self> {
        EntryKind::ALL.into_iter().find(|kind| kind.tag() == tag)
    }

    /// Whether a MsgPack request is an entry's (its first key names a
    /// kind) rather than a tool call's.
    pub fn of_request(request: &[u8]) -> Option<Self> {
        let mut rd = request;
        rmp::decode::read_map_len(&mut rd).ok()?;
        let (key, _) = rmp::decode::read_str_from_slice(rd).ok()?;
        EntryKind::from_tag(key)
    }
}

impl fmt::Display for EntryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

/// One entry's request, its head read: given to
/// [`Service::entry`](crate::Service::entry), which decodes the arguments
/// as its handler's type with [`arguments`](Self::arguments).
#[derive(Clone, Debug)]
pub struct EntryCall {
    bytes: Vec<u8>,
    kind: EntryKind,
    /// Where the entry's name is in `bytes` (checked UTF-8).
    name: Range<usize>,
    /// Where the arguments start, and how many there are.
    rest: usize,
    left: u32,
    limits: Limits,
}

impl EntryCall {
    /// Reads the head of `bytes`: a map whose first key is a kind's tag,
    /// its value the entry's name.
    ///
    /// # Errors
    /// `INVALID_REQUEST` when it is over the size limit or is not such a
    /// map.
    pub fn parse(bytes: Vec<u8>, limits: Limits) -> Result<Self, ToolError> {
        limits.check_size(bytes.len())?;
        let malformed = || {
            ToolError::invalid_request(
                "an entry's request is a map whose first key is `resource`, `prompt` or \
                 `complete`, naming the entry",
            )
        };
        let (kind, name, rest, left) = {
            let mut rd = &bytes[..];
            let len = rmp::decode::read_map_len(&mut rd).map_err(|_| malformed())?;
            let (key, rd) = rmp::decode::read_str_from_slice(rd).map_err(|_| malformed())?;
            let kind = EntryKind::from_tag(key).ok_or_else(malformed)?;
            let (name, rd) = rmp::decode::read_str_from_slice(rd).map_err(|_| malformed())?;
            // The name's bytes end where the arguments begin.
            let rest = bytes.len() - rd.len();
            let left = len.checked_sub(1).ok_or_else(malformed)?;
            (kind, rest - name.len()..rest, rest, left)
        };
        Ok(EntryCall {
            bytes,
            kind,
            name,
            rest,
            left,
            limits,
        })
    }

    /// What it asks for.
    pub fn kind(&self) -> EntryKind {
        self.kind
    }

    /// The resource or prompt it names.
    pub fn name(&self) -> &str {
        // Checked when the head was read.
        std::str::from_utf8(&self.bytes[self.name.clone()]).unwrap_or_default()
    }

    /// The arguments, decoded from the rest of the map and checked against
    /// their constraints.
    ///
    /// # Errors
    /// `INVALID_REQUEST` when they do not decode as `T` (a missing or
    /// unknown field, a wrong type, trailing bytes) or break a constraint.
    pub fn arguments<T: DeserializeOwned + Validate>(&self) -> Result<T, ToolError> {
        let value = self.decode(|rest| T::deserialize(MapAccessDeserializer::new(rest)))?;
        value.validate()?;
        Ok(value)
    }

    /// Checks that it has no arguments, for an entry that takes none.
    ///
    /// # Errors
    /// `INVALID_REQUEST` naming the first argument given.
    pub fn no_arguments(&self) -> Result<(), ToolError> {
        self.decode(|rest| crate::tagged::unit(rest))
    }

    /// The error for a request naming no entry of the catalogue:
    /// `UNKNOWN_ENTRY`, with the kind and the name in its details.
    pub fn unknown(&self) -> ToolError {
        let name = self.name();
        let message = match self.kind {
            EntryKind::Resource => format!("no resource is called `{name}`"),
            EntryKind::Prompt => format!("no prompt is called `{name}`"),
            EntryKind::Complete => {
                format!("no resource or prompt `{name}` completes that argument")
            }
        };
        ToolError::new(codes::UNKNOWN_ENTRY, message)
            .with_details(serde_json::json!({ self.kind.tag(): name }))
    }

    fn decode<T>(
        &self,
        read: impl FnOnce(&mut RestOfMap<'_, '_>) -> Result<T, rmp_serde::decode::Error>,
    ) -> Result<T, ToolError> {
        // The head's map is one level of the nesting limit.
        let limits = self
            .limits
            .max_depth(self.limits.max_depth.saturating_sub(1));
        let mut de = codec::deserializer(&self.bytes[self.rest..], limits);
        let mut rest = RestOfMap::new(&mut de, self.left);
        let value = read(&mut rest).map_err(|e| {
            ToolError::invalid_request(format!("{} `{}`: {e}", self.kind, self.name()))
        })?;
        if !rest.finished() {
            return Err(ToolError::invalid_request(format!(
                "{} `{}`: trailing bytes after the request",
                self.kind,
                self.name()
            )));
        }
        Ok(value)
    }
}

/// `Ok` when the call's principal (if any) holds every scope of `needed`,
/// which `name` declares. Used by `#[tools]`, before an entry's handler.
///
/// # Errors
/// `FORBIDDEN`, as for a tool.
pub fn permit(cx: &CallContext, name: &str, needed: &[&str]) -> Result<(), ToolError> {
    match cx.principal() {
        Some(principal) => principal.may_use(name, needed),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Serialize};

    use super::*;
    use crate::entry::CompletionRequest;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Args {
        hash: String,
        #[serde(default)]
        page: u32,
    }

    impl Validate for Args {}

    /// `value` as MsgPack with its kind's key first, as the wire has it
    /// (`json!` sorts keys).
    fn request(value: &serde_json::Value) -> Vec<u8> {
        let text = match value.as_object() {
            Some(object) => {
                let head = ["resource", "prompt", "complete", "tool"]
                    .into_iter()
                    .find(|key| object.contains_key(*key));
                let mut fields: Vec<String> = Vec::new();
                if let Some(head) = head {
                    fields.push(format!("{}:{}", serde_json::json!(head), object[head]));
                }
                for (key, field) in object.iter().filter(|(k, _)| Some(k.as_str()) != head) {
                    fields.push(format!("{}:{field}", serde_json::json!(key)));
                }
                format!("{{{}}}", fields.join(","))
            }
            None => value.to_string(),
        };
        codec::json_to_msgpack(text.as_bytes(), Limits::default()).unwrap()
    }

    fn parse(value: &serde_json::Value) -> Result<EntryCall, ToolError> {
        EntryCall::parse(request(value), Limits::default())
    }

    #[test]
    fn the_head_names_the_kind_and_the_entry_and_the_rest_decodes_as_asked() {
        let call =
            parse(&serde_json::json!({"resource": "cas_object", "hash": "9f", "page": 2})).unwrap();
        assert_eq!(
            (call.kind(), call.name()),
            (EntryKind::Resource, "cas_object")
        );
        let args: Args = call.arguments().unwrap();
        assert_eq!(
            args,
            Args {
                hash: "9f".into(),
                page: 2
            }
        );

        let call = parse(&serde_json::json!({"prompt": "summarise"})).unwrap();
        assert_eq!(call.kind(), EntryKind::Prompt);
        assert!(call.no_arguments().is_ok());

        let call = parse(&serde_json::json!({
            "complete": "compose", "argument": "mood", "value": "ha", "context": {"key": "c"}
        }))
        .unwrap();
        let asked: CompletionRequest = call.arguments().unwrap();
        assert_eq!(asked.context, BTreeMap::from([("key".into(), "c".into())]));
    }

    #[test]
    fn bad_requests_are_invalid_with_a_reason_never_a_panic() {
        let cases = [
            (serde_json::json!({"tool": "add"}), "first key"),
            (serde_json::json!([1]), "first key"),
            (serde_json::json!({"resource": 7}), "first key"),
        ];
        for (value, said) in cases {
            let e = parse(&value).unwrap_err();
            assert_eq!(e.code, codes::INVALID_REQUEST);
            assert!(e.message.contains(said), "{}", e.message);
        }
        let call = parse(&serde_json::json!({"resource": "r", "hash": 1})).unwrap();
        let e = call.arguments::<Args>().unwrap_err();
        assert!(e.message.starts_with("resource `r`: "), "{}", e.message);
        let call = parse(&serde_json::json!({"prompt": "p", "x": 1})).unwrap();
        let e = call.no_arguments().unwrap_err();
        assert!(e.message.contains("unexpected field `x`"), "{}", e.message);
        // Every prefix of a request is refused cleanly.
        let bytes = request(&serde_json::json!({"resource": "r", "hash": "ab", "page": 1}));
        for cut in 0..bytes.len() {
            let parsed = EntryCall::parse(bytes[..cut].to_vec(), Limits::default());
            if let Ok(call) = parsed {
                assert!(call.arguments::<Args>().is_err());
            }
        }
        // A map that says it has no entries has no head.
        assert!(EntryCall::parse(vec![0x80, 0xa1, b'r'], Limits::default()).is_err());
    }

    #[test]
    fn an_unknown_entry_is_named_in_its_error() {
        let call = parse(&serde_json::json!({"prompt": "nope"})).unwrap();
        let e = call.unknown();
        assert_eq!(e.code, codes::UNKNOWN_ENTRY);
        assert_eq!(e.details, Some(serde_json::json!({"prompt": "nope"})));
        assert_eq!(
            EntryKind::of_request(&request(&serde_json::json!({"tool": "a"}))),
            None
        );
        assert_eq!(
            EntryKind::of_request(&request(&serde_json::json!({"complete": "a"}))),
            Some(EntryKind::Complete)
        );
    }
}
