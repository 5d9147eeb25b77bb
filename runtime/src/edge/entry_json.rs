//! An entry's request and answer for the JSON doors that serve resources,
//! prompts and completion (MCP, the web routes): the request through the
//! port, a prompt's messages and a completion in the JSON MCP's results
//! carry (`GetPromptResult`, `CompleteResult`'s `completion`), and what
//! completing an argument takes — an enum's values at once, or the
//! `@complete` handler's request.

#[cfg(feature = "web")]
use base64::Engine as _;
#[cfg(feature = "web")]
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value as Json, json};

use super::{Completions, Entry, JsonObject};
use crate::entry::Completion;
#[cfg(feature = "web")]
use crate::entry::{PromptContent, PromptMessages, ResourceBody, Role};
#[cfg(feature = "web")]
use crate::{
    ResponseEnvelope, ToolError,
    entry::{EntryAnswer, EntryKind},
    port::{CallOptions, CallPort},
};

/// Sends `{kind: entry, …arguments}` to `port`. A principal that lacks a
/// scope of the entry's is refused here, before the port (which checks
/// again, where the handler runs).
///
/// # Errors
/// `FORBIDDEN` for a missing scope; `INTERNAL` or `INVALID_REQUEST` when
/// the request cannot be encoded or is over the port's size limit.
// MCP asks through its own loop, which relays what the handler says to
// the client while it runs.
#[cfg(feature = "web")]
pub(crate) async fn ask<P: CallPort>(
    port: &P,
    kind: EntryKind,
    entry: &Entry,
    arguments: &JsonObject,
    options: CallOptions,
) -> Result<ResponseEnvelope<EntryAnswer>, ToolError> {
    if let Some(principal) = &options.principal {
        entry.permits(principal)?;
    }
    let request = super::request_msgpack_tagged(kind.tag(), &entry.name, arguments, port.limits())?;
    Ok(port.entry(request, options).await)
}

/// What completing an argument of an entry takes.
pub(crate) enum Completing {
    /// Answered from the schema (an enum's values), or nothing completes
    /// the argument: no call.
    Done(Completion),
    /// The entry's `@complete` handler answers: this request, with
    /// [`EntryKind::Complete`].
    Ask(JsonObject),
}

/// How `argument` of `entry` completes from `value`, the user's other
/// arguments being `context`.
pub(crate) fn completing(
    entry: &Entry,
    argument: &str,
    value: &str,
    context: &JsonObject,
) -> Completing {
    match entry.completions(argument) {
        Completions::Values(values) => Completing::Done(Completion::matching(values, value)),
        Completions::None => Completing::Done(Completion::default()),
        Completions::Handler => {
            let mut asked = JsonObject::new();
            asked.insert("argument".into(), json!(argument));
            asked.insert("value".into(), json!(value));
            asked.insert("context".into(), Json::Object(context.clone()));
            Completing::Ask(asked)
        }
    }
}

/// A completion as MCP's `completion` object: `{"values", "total"?,
/// "hasMore"}`, at most 100 values.
pub(crate) fn completion_json(completion: Completion) -> Json {
    let Completion {
        values,
        total,
        has_more,
    } = completion.capped();
    let mut out = json!({ "values": values, "hasMore": has_more });
    if let Some(total) = total {
        out["total"] = json!(total.min(u64::from(u32::MAX)));
    }
    out
}

/// An argument's value as MCP sends prompt and completion arguments: a
/// string as it is, anything else as its JSON text.
pub(crate) fn argument_text(value: Json) -> String {
    match value {
        Json::String(text) => text,
        other => other.to_string(),
    }
}

/// A prompt's messages as MCP's `GetPromptResult`: `{"description"?,
/// "messages": [{"role", "content"}]}`; `description` when the handler
/// gave none.
// The web routes answer a prompt as JSON; MCP builds rmcp's types.
#[cfg(feature = "web")]
pub(crate) fn prompt_json(prompt: &PromptMessages, description: Option<&str>) -> Json {
    let messages: Vec<Json> = prompt
        .messages
        .iter()
        .map(|m| {
            let role = match m.role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            json!({ "role": role, "content": content_json(&m.content) })
        })
        .collect();
    let mut out = json!({ "messages": messages });
    if let Some(description) = prompt.description.as_deref().or(description) {
        out["description"] = json!(description);
    }
    out
}

/// A resource's body as MCP's contents carry it: `{"text"}` or `{"blob"}`
/// (base64).
#[cfg(feature = "web")]
fn body_json(body: &ResourceBody) -> JsonObject {
    let mut out = JsonObject::new();
    match body {
        ResourceBody::Text(text) => out.insert("text".into(), json!(text)),
        ResourceBody::Blob(bytes) => out.insert("blob".into(), json!(STANDARD.encode(&bytes.0))),
    };
    out
}

#[cfg(feature = "web")]
fn content_json(content: &PromptContent) -> Json {
    match content {
        PromptContent::Text(text) => json!({ "type": "text", "text": text }),
        PromptContent::Image { data, mime_type } => {
            json!({ "type": "image", "data": STANDARD.encode(&data.0), "mimeType": mime_type })
        }
        PromptContent::Audio { data, mime_type } => {
            json!({ "type": "audio", "data": STANDARD.encode(&data.0), "mimeType": mime_type })
        }
        PromptContent::Resource {
            uri,
            mime_type,
            body,
        } => {
            let mut resource = body_json(body);
            resource.insert("uri".into(), json!(uri));
            if let Some(mime) = mime_type {
                resource.insert("mimeType".into(), json!(mime));
            }
            json!({ "type": "resource", "resource": resource })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "web")]
    #[test]
    fn prompts_carry_every_kind_of_content() {
        let messages = PromptMessages::new()
            .user("hi")
            .assistant(PromptContent::Image {
                data: vec![1_u8].into(),
                mime_type: "image/png".into(),
            })
            .user(PromptContent::Resource {
                uri: "cas://licence".into(),
                mime_type: None,
                body: ResourceBody::Text("MIT".into()),
            });
        let value = prompt_json(&messages, Some("Ask."));
        assert_eq!(
            value,
            json!({"description": "Ask.", "messages": [
                {"role": "user", "content": {"type": "text", "text": "hi"}},
                {"role": "assistant", "content": {"type": "image", "data": "AQ==", "mimeType": "image/png"}},
                {"role": "user", "content": {"type": "resource", "resource": {"uri": "cas://licence", "text": "MIT"}}}
            ]})
        );
        let own = prompt_json(&PromptMessages::new().described("Mine."), Some("Ask."));
        assert_eq!(own, json!({"description": "Mine.", "messages": []}));
    }

    #[test]
    fn a_completion_is_capped_and_counts_what_it_cut() {
        let many: Completion = (0..150).map(|i| format!("v{i}")).collect();
        let value = completion_json(many);
        assert_eq!(value["values"].as_array().map(Vec::len), Some(100));
        assert_eq!(
            (&value["total"], &value["hasMore"]),
            (&json!(150), &json!(true))
        );
        assert_eq!(
            completion_json(Completion::default()),
            json!({"values": [], "hasMore": false})
        );
    }
}
