//! What an entry's handler answers with, as the wire carries it.

use serde::{Deserialize, Serialize};

use super::{Completion, PromptMessages};
use crate::{Bytes, ToolError};

/// The `success` of an entry's envelope. Externally tagged, like every
/// envelope: `{"contents": {"body": {"text": "…"}}}`,
/// `{"prompt": {"messages": […]}}`,
/// `{"completion": {"values": […], "has_more": false}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryAnswer {
    /// A resource's contents; the URI read is the reader's to add (a door
    /// knows what it asked for).
    Contents(ResourceContents),
    /// A prompt's messages.
    Prompt(PromptMessages),
    /// The values an argument may take.
    Completion(Completion),
}

/// What a resource read gives: its body, and a MIME type when this read's
/// differs from the one the IDL declares (a content store's objects, each
/// stored with its own).
///
/// ```
/// use toolwright::entry::ResourceContents;
///
/// let png = ResourceContents::blob(vec![137, 80, 78, 71]).with_mime("image/png");
/// assert_eq!(png.mime_type.as_deref(), Some("image/png"));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResourceContents {
    /// The contents.
    pub body: ResourceBody,
    /// This read's MIME type; `None` for the declared one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
}

impl ResourceContents {
    /// Text, of the declared MIME type.
    pub fn text(text: impl Into<String>) -> Self {
        ResourceContents {
            body: ResourceBody::Text(text.into()),
            mime_type: None,
        }
    }

    /// Bytes, of the declared MIME type.
    pub fn blob(bytes: impl Into<Bytes>) -> Self {
        ResourceContents {
            body: ResourceBody::Blob(bytes.into()),
            mime_type: None,
        }
    }

    /// With a MIME type of its own.
    #[must_use]
    pub fn with_mime(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }
}

/// A resource's body: text, or bytes (MsgPack `bin`, base64 in JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceBody {
    /// Text, as `contents text` and typed contents (JSON) are carried.
    Text(String),
    /// Bytes, as `contents bytes` are carried.
    Blob(Bytes),
}

impl From<PromptMessages> for EntryAnswer {
    fn from(messages: PromptMessages) -> Self {
        EntryAnswer::Prompt(messages)
    }
}

impl From<Completion> for EntryAnswer {
    fn from(completion: Completion) -> Self {
        EntryAnswer::Completion(completion)
    }
}

/// `future`, its output fixed: what `#[tools]` writes `Service::entry`'s
/// body through, so that `?` in it converts to [`ToolError`].
pub fn answer<F>(future: F) -> F
where
    F: std::future::Future<Output = Result<EntryAnswer, ToolError>>,
{
    future
}

/// What a `contents text` resource's handler may return: text
/// (`String`, `&str`, …) or [`ResourceContents`].
pub trait TextContents {
    /// As contents.
    fn into_contents(self) -> ResourceContents;
}

impl<T: Into<String>> TextContents for T {
    fn into_contents(self) -> ResourceContents {
        ResourceContents::text(self)
    }
}

impl TextContents for ResourceContents {
    fn into_contents(self) -> ResourceContents {
        self
    }
}

/// What a `contents bytes` resource's handler may return: bytes
/// (`Vec<u8>`, [`Bytes`], `&[u8]`) or [`ResourceContents`].
pub trait BlobContents {
    /// As contents.
    fn into_contents(self) -> ResourceContents;
}

impl<T: Into<Bytes>> BlobContents for T {
    fn into_contents(self) -> ResourceContents {
        ResourceContents::blob(self)
    }
}

impl BlobContents for ResourceContents {
    fn into_contents(self) -> ResourceContents {
        self
    }
}

/// The answer of a `contents text` resource. Used by `#[tools]`.
pub fn text(value: impl TextContents) -> EntryAnswer {
    EntryAnswer::Contents(value.into_contents())
}

/// The answer of a `contents bytes` resource. Used by `#[tools]`.
pub fn blob(value: impl BlobContents) -> EntryAnswer {
    EntryAnswer::Contents(value.into_contents())
}

/// The answer of a resource whose contents are a declared type: its JSON
/// text. Used by `#[tools]`.
///
/// # Errors
/// `INTERNAL` when the value does not serialize (a map with non-string
/// keys).
pub fn json<T: Serialize>(value: &T) -> Result<EntryAnswer, ToolError> {
    serde_json::to_string(value)
        .map(|text| EntryAnswer::Contents(ResourceContents::text(text)))
        .map_err(|e| ToolError::internal(format!("the contents do not serialize: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec;

    #[test]
    fn answers_round_trip_through_msgpack_with_bytes_as_bin() {
        let answers = [
            text("hello"),
            blob(vec![0_u8, 159, 255]),
            json(&serde_json::json!({"names": ["moss"]})).unwrap(),
            EntryAnswer::from(Completion::from(vec!["happy".to_owned()])),
            EntryAnswer::from(PromptMessages::new().user("Write a tune")),
        ];
        for answer in answers {
            let bytes = codec::to_msgpack(&answer).unwrap();
            let back: EntryAnswer = codec::from_msgpack(&bytes, codec::Limits::default()).unwrap();
            assert_eq!(back, answer);
        }
        let bytes = codec::to_msgpack(&blob(vec![1_u8, 2])).unwrap();
        // {"contents": {"body": {"blob": bin8 [1, 2]}}}
        assert!(bytes.ends_with(&[0xc4, 2, 1, 2]), "{bytes:02x?}");
        let typed = blob(ResourceContents::blob(vec![1_u8]).with_mime("image/png"));
        let bytes = codec::to_msgpack(&typed).unwrap();
        let back: EntryAnswer = codec::from_msgpack(&bytes, codec::Limits::default()).unwrap();
        assert_eq!(back, typed);
    }
}
