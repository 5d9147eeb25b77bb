//! What a running handler may ask of the client that called it: take a log
//! message, follow its progress, ask the client's model for a completion
//! (sampling), ask the client's user for input (elicitation).
//!
//! The transport in front of a call provides a [`Caller`] when its client
//! can be reached that way (the MCP server does, for the session a call
//! came from); a handler reaches it through its
//! [`Context`](crate::Context). Without one, logs and progress go nowhere
//! and sampling and elicitation are [`UNSUPPORTED`](crate::codes::UNSUPPORTED)
//! errors in the handler: nothing waits for an answer that cannot come.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{Json, ToolError};

/// A boxed future a [`Caller`] answers with.
pub type CallerFuture<T> = Pin<Box<dyn Future<Output = Result<T, ToolError>> + Send + 'static>>;

/// The client side of a call, as its transport reaches it. Implemented by
/// transports; handlers use [`Context`](crate::Context).
pub trait Caller: std::fmt::Debug + Send + Sync + 'static {
    /// Sends a log message, when the client takes messages of `level`.
    fn log(&self, level: LogLevel, logger: Option<&str>, data: Json);

    /// Reports the call's progress, between 0 and 1, while the client
    /// waits for its answer.
    fn progress(&self, fraction: f32);

    /// Asks the client's model for a completion. `key` names the question
    /// where the transport answers questions by name (MCP 2026-07-28's
    /// `input_required` results); the transport picks one when it is
    /// `None`.
    ///
    /// # Errors
    /// `UNSUPPORTED` when the client cannot sample; `INPUT_REQUIRED` when the
    /// question has gone to the client and the call will be run again with
    /// its answer; the client's refusal, or `UNAVAILABLE` when it went away.
    fn sample(&self, key: Option<&str>, request: SamplingRequest) -> CallerFuture<Sampled>;

    /// Asks the client's user for input shaped by `schema` (a flat JSON
    /// Schema object of strings, numbers, booleans and enums), with
    /// `message` saying why. `key` as for [`sample`](Self::sample).
    ///
    /// # Errors
    /// As [`sample`](Self::sample).
    fn elicit(
        &self,
        key: Option<&str>,
        message: String,
        schema: Json,
    ) -> CallerFuture<Elicited<Json>>;

    /// Asks the client for its roots: the directories or files it works
    /// in. `key` as for [`sample`](Self::sample).
    ///
    /// # Errors
    /// As [`sample`](Self::sample); `UNSUPPORTED` by default.
    fn roots(&self, key: Option<&str>) -> CallerFuture<Vec<Root>> {
        let _ = key;
        Box::pin(async { Err(unsupported("its roots")) })
    }

    /// The call runs as job `job_id`: told once, when the job is created
    /// and before its handler starts, so that what the handler asks can be
    /// tied to the job (an MCP task's questions). Nothing by default.
    fn started(&self, job_id: &str) {
        let _ = job_id;
    }

    /// Closes the stream the call's answer would go on, telling the client
    /// to reconnect after `retry` (MCP's SSE polling), so that a long call
    /// does not hold a connection open. The answer waits until the client
    /// has resumed the stream. `false`, and nothing closed, where the
    /// transport has no such stream (the default).
    fn close_stream(&self, retry: Duration) -> CallerFuture<bool> {
        let _ = retry;
        Box::pin(async { Ok(false) })
    }
}

/// A struct a handler asks its client's user to fill in: an IDL struct
/// marked `@form`, for which the generated code implements it.
pub trait Form: serde::de::DeserializeOwned {
    /// The requested schema (JSON text): a flat object of strings,
    /// booleans, numbers and enums, with the IDL's defaults, bounds and
    /// descriptions.
    const SCHEMA: &'static str;
}

/// The severity of a log message: syslog's (RFC 5424), as MCP uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Detailed information for debugging.
    Debug,
    /// What is going on.
    Info,
    /// Normal but worth noticing.
    Notice,
    /// Something may be wrong.
    Warning,
    /// Something failed.
    Error,
    /// A part of the system failed.
    Critical,
    /// Action must be taken at once.
    Alert,
    /// The system is unusable.
    Emergency,
}

/// Who said a message of a [`SamplingRequest`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user.
    User,
    /// The model.
    Assistant,
}

/// One message of a [`SamplingRequest`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SamplingMessage {
    /// Who says it.
    pub role: Role,
    /// What they say.
    pub text: String,
}

/// A request for a completion from the client's model.
///
/// ```
/// use toolwright::caller::SamplingRequest;
///
/// let request = SamplingRequest::new("Name this tune in three words.", 50)
///     .system_prompt("You name folk tunes.");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SamplingRequest {
    /// The conversation so far, oldest first.
    pub messages: Vec<SamplingMessage>,
    /// A system prompt the client may use.
    pub system_prompt: Option<String>,
    /// The most tokens the completion may take.
    pub max_tokens: u32,
}

impl SamplingRequest {
    /// A request for a completion of one user message.
    pub fn new(prompt: impl Into<String>, max_tokens: u32) -> Self {
        SamplingRequest {
            messages: vec![SamplingMessage {
                role: Role::User,
                text: prompt.into(),
            }],
            system_prompt: None,
            max_tokens,
        }
    }

    /// Adds a message to the conversation.
    #[must_use]
    pub fn message(mut self, role: Role, text: impl Into<String>) -> Self {
        self.messages.push(SamplingMessage {
            role,
            text: text.into(),
        });
        self
    }

    /// Sets the system prompt.
    #[must_use]
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(prompt.into());
        self
    }
}

/// The client model's completion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Sampled {
    /// Its text (empty when the model answered with something else, an
    /// image say).
    pub text: String,
    /// The model that answered.
    pub model: String,
    /// Why it stopped (`endTurn`, `maxTokens`, …), when the client says.
    pub stop_reason: Option<String>,
}

impl Sampled {
    /// A completion.
    pub fn new(text: impl Into<String>, model: impl Into<String>) -> Self {
        Sampled {
            text: text.into(),
            model: model.into(),
            stop_reason: None,
        }
    }
}

/// One of the client's roots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Root {
    /// Where it is (`file:///home/ada/tunes`).
    pub uri: String,
    /// What the client calls it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Root {
    /// A root at `uri`.
    pub fn new(uri: impl Into<String>) -> Self {
        Root {
            uri: uri.into(),
            name: None,
        }
    }
}

/// What the client's user did with an elicitation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Elicited<T> {
    /// They gave the input asked for.
    Accepted(T),
    /// They chose not to give it; the handler goes on without it.
    Declined,
    /// They dismissed the question without choosing.
    Cancelled,
}

impl<T> Elicited<T> {
    /// The input, when it was given.
    pub fn accepted(self) -> Option<T> {
        match self {
            Elicited::Accepted(value) => Some(value),
            Elicited::Declined | Elicited::Cancelled => None,
        }
    }
}

/// `UNSUPPORTED`: the call's client cannot be asked for `what`.
pub(crate) fn unsupported(what: &str) -> ToolError {
    ToolError::new(
        crate::codes::UNSUPPORTED,
        format!("the client of this call cannot be asked for {what}"),
    )
}
