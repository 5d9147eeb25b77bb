//! Resources, prompts and completions: what an MCP client reads by URI,
//! gets by name and completes as it types, answered by the handlers that
//! `#[tools]` binds with `#[resource]`, `#[prompt]` and `#[complete]`.
//!
//! They travel as tool calls do (docs/wire.md, "Entries"): a MsgPack map
//! whose first key names the kind and whose value names the entry, the
//! entry's arguments after it —
//!
//! ```text
//! {"resource": "cas_object", "hash": "9f…"}
//! {"prompt": "compose", "key": "c_major", "mood": "happy"}
//! {"complete": "compose", "argument": "mood", "value": "ha", "context": {}}
//! ```
//!
//! — and are answered with an ordinary [`ResponseEnvelope`](crate::ResponseEnvelope)
//! whose `success` is an [`EntryAnswer`], the same for every catalogue, so
//! a relay (the HOOT01 gateway) carries them without knowing any.

mod answer;
mod call;
mod completion;
mod prompt;
mod updates;

pub use answer::{BlobContents, EntryAnswer, ResourceBody, ResourceContents, TextContents};
pub use call::{EntryCall, EntryKind};
pub use completion::{COMPLETION_VALUES_MAX, Completion, CompletionRequest};
pub use prompt::{PromptContent, PromptMessage, PromptMessages, Role};
pub use updates::ResourceUpdates;

#[doc(hidden)]
pub use answer::{answer, blob, json, text};
#[doc(hidden)]
pub use call::permit;
#[doc(hidden)]
pub use completion::IntoCompletion;
