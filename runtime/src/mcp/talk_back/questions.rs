//! The questions a handler asks its client — a completion (sampling), input
//! (elicitation), its roots — and how each is declared, asked and answered.

use rmcp::model::ClientCapabilities;
use rmcp::service::ServiceError;
use serde_json::json;

use crate::caller::{self, Elicited, Root, Sampled, SamplingRequest};
use crate::{Json, ToolError, codes};

/// A kind of question, and how a client says it takes it.
pub(in crate::mcp) struct Question {
    /// The prefix of the keys of unkeyed questions of this kind.
    pub(super) kind: &'static str,
    pub(super) method: &'static str,
    pub(super) capability: &'static str,
    pub(super) declared: fn(&ClientCapabilities) -> bool,
    /// What the handler asks for, in messages.
    pub(super) what: &'static str,
}

pub(in crate::mcp) const SAMPLING: Question = Question {
    kind: "sampling",
    method: "sampling/createMessage",
    capability: "sampling",
    declared: |c| c.sampling.is_some(),
    what: "a completion (sampling)",
};

pub(in crate::mcp) const ELICITATION: Question = Question {
    kind: "elicitation",
    method: "elicitation/create",
    capability: "elicitation",
    declared: |c| c.elicitation.is_some(),
    what: "input (elicitation)",
};

pub(in crate::mcp) const ROOTS: Question = Question {
    kind: "roots",
    method: "roots/list",
    capability: "roots",
    declared: |c| c.roots.is_some(),
    what: "its roots",
};

/// The handler's error for a question whose capability the client did not
/// declare.
pub(in crate::mcp) fn not_declared(question: &Question) -> ToolError {
    caller::unsupported(&format!(
        "{}: it did not declare the `{}` capability",
        question.what, question.capability
    ))
}

/// The handler's error for an answer the client gave in a shape its
/// question does not take.
pub(in crate::mcp) fn malformed(key: &str, what: &str, e: impl std::fmt::Display) -> ToolError {
    ToolError::invalid_request(format!(
        "the client's answer under `{key}` is not the answer to a request for {what}: {e}"
    ))
}

/// A completion from `sampling/createMessage`'s result.
pub(in crate::mcp) fn sampled(key: &str, answer: &Json) -> Result<Sampled, ToolError> {
    let model = answer["model"]
        .as_str()
        .ok_or_else(|| malformed(key, SAMPLING.what, "it names no `model`"))?;
    if answer.get("content").is_none() {
        return Err(malformed(key, SAMPLING.what, "it has no `content`"));
    }
    let mut sampled = Sampled::new(text_of(&answer["content"]), model);
    sampled.stop_reason = answer["stopReason"].as_str().map(str::to_owned);
    Ok(sampled)
}

/// What the user did, from `elicitation/create`'s result.
pub(in crate::mcp) fn elicited(key: &str, answer: &Json) -> Result<Elicited<Json>, ToolError> {
    match answer["action"].as_str() {
        Some("accept") => Ok(Elicited::Accepted(
            answer.get("content").cloned().unwrap_or_else(|| json!({})),
        )),
        Some("decline") => Ok(Elicited::Declined),
        Some("cancel") => Ok(Elicited::Cancelled),
        _ => Err(malformed(
            key,
            ELICITATION.what,
            "its `action` is not `accept`, `decline` or `cancel`",
        )),
    }
}

/// The roots, from `roots/list`'s result.
pub(in crate::mcp) fn listed_roots(key: &str, answer: &Json) -> Result<Vec<Root>, ToolError> {
    serde_json::from_value(answer["roots"].clone()).map_err(|e| malformed(key, ROOTS.what, e))
}

/// `sampling/createMessage`'s parameters for `request`, text messages only.
pub(in crate::mcp) fn sampling_params(request: &SamplingRequest) -> Json {
    let messages: Vec<Json> = request
        .messages
        .iter()
        .map(|m| json!({"role": m.role, "content": {"type": "text", "text": m.text}}))
        .collect();
    let mut params = json!({"messages": messages, "maxTokens": request.max_tokens});
    if let Some(prompt) = &request.system_prompt {
        params["systemPrompt"] = json!(prompt);
    }
    params
}

/// The text of a sampled message's content: one block or several.
pub(in crate::mcp) fn text_of(content: &Json) -> String {
    let blocks = match content {
        Json::Array(blocks) => blocks.iter().collect(),
        block => vec![block],
    };
    blocks
        .into_iter()
        .filter(|b| b["type"] == "text")
        .filter_map(|b| b["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The handler's error for a question the client did not answer.
pub(in crate::mcp) fn refused(what: &str, e: ServiceError) -> ToolError {
    match e {
        ServiceError::McpError(e) if e.code.0 == -32601 => {
            caller::unsupported(&format!("{what}: {}", e.message))
        }
        ServiceError::McpError(e) => ToolError::new(
            codes::UNAVAILABLE,
            format!(
                "the client answered the {what} request with an error: {}",
                e.message
            ),
        ),
        ServiceError::Timeout { .. } => ToolError::timeout(format!(
            "the client did not answer the {what} request in time"
        )),
        other => ToolError::new(
            codes::UNAVAILABLE,
            format!("the {what} request did not reach the client: {other}"),
        ),
    }
}
