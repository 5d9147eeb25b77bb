//! A handler's questions to its client, under a key: what
//! [`Context::ask`](crate::Context::ask) gives, and what the context's own
//! `sample`, `elicit`, `elicit_form` and `roots` go through (with the key
//! left to the transport).

use serde::de::DeserializeOwned;

use crate::caller::{self, Elicited, Form, Root, Sampled, SamplingRequest};
use crate::context::CallContext;
use crate::{Json, ToolError};

/// One question to the call's client.
///
/// The key names the question where the client answers questions by name:
/// on MCP 2026-07-28 a question goes to the client in the call's answer
/// (an `input_required` result, keyed), and the call runs again with the
/// client's answers; a question asked again under the same key gets its
/// answer at once. Without a key the transport numbers questions in the
/// order they are asked, which is stable as long as the handler asks the
/// same questions in the same order each time.
#[derive(Debug)]
#[must_use = "a question is asked by one of its methods"]
pub struct Ask<'a> {
    cx: &'a CallContext,
    key: Option<&'a str>,
}

impl<'a> Ask<'a> {
    pub(crate) fn new(cx: &'a CallContext, key: Option<&'a str>) -> Self {
        Ask { cx, key }
    }

    /// Asks the client's model for a completion (MCP sampling).
    ///
    /// # Errors
    /// `UNSUPPORTED` when the client cannot sample (no `sampling`
    /// capability, or a transport that cannot carry the question);
    /// `INPUT_REQUIRED` when the question has gone to the client in the
    /// call's answer (return it: the call runs again with the answer); the
    /// client's own refusal otherwise.
    pub async fn sample(self, request: SamplingRequest) -> Result<Sampled, ToolError> {
        match self.cx.caller() {
            Some(caller) => caller.sample(self.key, request).await,
            None => Err(caller::unsupported("a completion (sampling)")),
        }
    }

    /// Asks the client's user for input (MCP elicitation): `schema` is the
    /// flat JSON Schema object of what to ask, `message` says why. The
    /// answer, when given, is decoded as `T`.
    ///
    /// # Errors
    /// As [`sample`](Self::sample), and `INVALID_REQUEST` when the input
    /// given does not decode as `T`.
    pub async fn elicit<T: DeserializeOwned>(
        self,
        message: impl Into<String>,
        schema: Json,
    ) -> Result<Elicited<T>, ToolError> {
        let Some(caller) = self.cx.caller() else {
            return Err(caller::unsupported("input (elicitation)"));
        };
        Ok(
            match caller.elicit(self.key, message.into(), schema).await? {
                Elicited::Accepted(value) => {
                    Elicited::Accepted(serde_json::from_value(value).map_err(|e| {
                        ToolError::invalid_request(format!("the input given does not decode: {e}"))
                    })?)
                }
                Elicited::Declined => Elicited::Declined,
                Elicited::Cancelled => Elicited::Cancelled,
            },
        )
    }

    /// Asks the client's user to fill in the `@form` struct `T`, whose
    /// requested schema the generated code carries (MCP elicitation).
    ///
    /// # Errors
    /// As [`elicit`](Self::elicit).
    pub async fn elicit_form<T: Form>(
        self,
        message: impl Into<String>,
    ) -> Result<Elicited<T>, ToolError> {
        let schema = serde_json::from_str(T::SCHEMA)
            .map_err(|e| ToolError::internal(format!("a form's schema does not parse: {e}")))?;
        self.elicit(message, schema).await
    }

    /// Asks the client for its roots (MCP `roots/list`): the directories
    /// or files it works in.
    ///
    /// # Errors
    /// As [`sample`](Self::sample).
    pub async fn roots(self) -> Result<Vec<Root>, ToolError> {
        match self.cx.caller() {
            Some(caller) => caller.roots(self.key).await,
            None => Err(caller::unsupported("its roots")),
        }
    }
}
