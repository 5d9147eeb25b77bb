//! A prompt's answer: the messages a `#[prompt]` handler returns.

use serde::{Deserialize, Serialize};

use super::ResourceBody;
use crate::Bytes;

/// What `prompts/get` returns: an optional description and the messages.
///
/// ```
/// use toolwright::entry::PromptMessages;
///
/// let prompt = PromptMessages::new()
///     .described("A tune in C major")
///     .user("Write a happy tune in C major.")
///     .assistant("X:1\nK:C\n");
/// assert_eq!(prompt.messages.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PromptMessages {
    /// What this rendering of the prompt is, when it says more than the
    /// prompt's own description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages, in order.
    pub messages: Vec<PromptMessage>,
}

impl PromptMessages {
    /// No messages yet.
    pub fn new() -> Self {
        PromptMessages::default()
    }

    /// With a description.
    #[must_use]
    pub fn described(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// With a message from the user appended.
    #[must_use]
    pub fn user(self, content: impl Into<PromptContent>) -> Self {
        self.with(Role::User, content)
    }

    /// With a message from the assistant appended.
    #[must_use]
    pub fn assistant(self, content: impl Into<PromptContent>) -> Self {
        self.with(Role::Assistant, content)
    }

    fn with(mut self, role: Role, content: impl Into<PromptContent>) -> Self {
        self.messages.push(PromptMessage {
            role,
            content: content.into(),
        });
        self
    }
}

impl From<Vec<PromptMessage>> for PromptMessages {
    fn from(messages: Vec<PromptMessage>) -> Self {
        PromptMessages {
            description: None,
            messages,
        }
    }
}

/// One message of a prompt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said.
    pub content: PromptContent,
}

/// Who says a prompt's message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The user.
    User,
    /// The assistant.
    Assistant,
}

/// What a prompt's message holds: text, an image, audio, or a resource's
/// contents embedded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromptContent {
    /// Text.
    Text(String),
    /// An image.
    Image {
        /// The image's bytes.
        data: Bytes,
        /// Its MIME type (`image/png`).
        mime_type: String,
    },
    /// Audio.
    Audio {
        /// The audio's bytes.
        data: Bytes,
        /// Its MIME type (`audio/wav`).
        mime_type: String,
    },
    /// A resource's contents, embedded.
    Resource {
        /// The resource's URI.
        uri: String,
        /// Its MIME type, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// Its contents.
        body: ResourceBody,
    },
}

impl From<String> for PromptContent {
    fn from(text: String) -> Self {
        PromptContent::Text(text)
    }
}

impl From<&str> for PromptContent {
    fn from(text: &str) -> Self {
        PromptContent::Text(text.to_owned())
    }
}
