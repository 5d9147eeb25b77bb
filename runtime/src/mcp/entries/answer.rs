//! An entry's answer from the port, as MCP's results: the contents of
//! `resources/read`, the messages of `prompts/get`, the values of
//! `completion/complete`; and an entry's error as a JSON-RPC error.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::ErrorData;
use rmcp::model::{
    CacheScope, CompleteResult, ContentBlock, GetPromptResult, PromptMessage, ReadResourceResult,
    ResourceContents,
};
use serde_json::{Value as Json, json};

use crate::edge::entry_json::completion_json;
use crate::edge::{App, Entry};
use crate::entry::{Completion, EntryAnswer, PromptContent, ResourceBody, Role};
use crate::{ResponseEnvelope, ToolError, codes};

/// `resources/read`'s result for `uri`, read from `entry`: in the read's
/// own MIME type when it has one, else the declared one, and kept as long
/// as its `@cache` says. Built as rmcp's types directly, not through
/// JSON: a blob is the largest thing a server answers, and a JSON value
/// read back into rmcp's untagged contents would copy it again.
pub(crate) fn contents(
    uri: &str,
    entry: &Entry,
    envelope: ResponseEnvelope<EntryAnswer>,
) -> Result<ReadResourceResult, ErrorData> {
    let contents = match envelope {
        ResponseEnvelope::Success(EntryAnswer::Contents(contents)) => contents,
        other => return Err(failure(other, "uri", uri)),
    };
    let mime = contents
        .mime_type
        .as_deref()
        .or(entry.mime.as_deref())
        .map(str::to_owned);
    let item = resource_contents(uri.to_owned(), mime, contents.body);
    let mut out = ReadResourceResult::new(vec![item]);
    if let Some(cache) = &entry.cache {
        out.ttl_ms = Some(cache.ttl_ms);
        out.cache_scope = Some(if cache.scope == "private" {
            CacheScope::Private
        } else {
            CacheScope::Public
        });
    }
    Ok(out)
}

/// `resources/read`'s result for a tool's app: its page, from the
/// catalogue, with the `_meta` it is listed with (its CSP). Built as
/// rmcp's types, as any read's is: the page is copied once.
pub(crate) fn app(uri: &str, app: &App) -> ReadResourceResult {
    ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
        uri: uri.to_owned(),
        mime_type: Some(app.mime.clone()),
        text: app.html.clone(),
        meta: app.meta.clone().map(Into::into),
    }])
}

/// A resource's body as MCP's contents: text, or bytes in base64.
fn resource_contents(
    uri: String,
    mime_type: Option<String>,
    body: ResourceBody,
) -> ResourceContents {
    match body {
        ResourceBody::Text(text) => ResourceContents::TextResourceContents {
            uri,
            mime_type,
            text,
            meta: None,
        },
        ResourceBody::Blob(bytes) => ResourceContents::BlobResourceContents {
            uri,
            mime_type,
            blob: STANDARD.encode(&bytes.0),
            meta: None,
        },
    }
}

/// `prompts/get`'s result; `description` when the handler gave none.
/// Built as rmcp's types directly, as a read's is.
pub(crate) fn prompt(
    name: &str,
    description: Option<&str>,
    envelope: ResponseEnvelope<EntryAnswer>,
) -> Result<GetPromptResult, ErrorData> {
    let prompt = match envelope {
        ResponseEnvelope::Success(EntryAnswer::Prompt(prompt)) => prompt,
        other => return Err(failure(other, "name", name)),
    };
    let messages = prompt
        .messages
        .into_iter()
        .map(|message| {
            let role = match message.role {
                Role::User => rmcp::model::Role::User,
                Role::Assistant => rmcp::model::Role::Assistant,
            };
            PromptMessage::new(role, content_block(message.content))
        })
        .collect();
    let mut out = GetPromptResult::new(messages);
    out.description = prompt
        .description
        .or_else(|| description.map(str::to_owned));
    Ok(out)
}

/// A prompt message's content as MCP's content block.
fn content_block(content: PromptContent) -> ContentBlock {
    match content {
        PromptContent::Text(text) => ContentBlock::text(text),
        PromptContent::Image { data, mime_type } => {
            ContentBlock::image(STANDARD.encode(&data.0), mime_type)
        }
        PromptContent::Audio { data, mime_type } => {
            ContentBlock::audio(STANDARD.encode(&data.0), mime_type)
        }
        PromptContent::Resource {
            uri,
            mime_type,
            body,
        } => ContentBlock::resource(resource_contents(uri, mime_type, body)),
    }
}

/// `completion/complete`'s result.
pub(crate) fn completion(completion: Completion) -> Result<CompleteResult, ErrorData> {
    result(json!({ "completion": completion_json(completion) }))
}

/// The completion in an entry's envelope.
pub(crate) fn completion_of(
    name: &str,
    envelope: ResponseEnvelope<EntryAnswer>,
) -> Result<CompleteResult, ErrorData> {
    match envelope {
        ResponseEnvelope::Success(EntryAnswer::Completion(c)) => completion(c),
        other => Err(failure(other, "ref", name)),
    }
}

/// An entry's error as JSON-RPC's: what the caller can mend (a URI or an
/// argument, an entry that does not exist, a typed error of the handler,
/// a scope it lacks) is `-32602`; the server's own failures are `-32603`.
/// Either way `data` names the entry (`{"uri": …}` or `{"name": …}`) and
/// carries the error's `code` and `details`.
pub(crate) fn error(e: ToolError, key: &str, value: &str) -> ErrorData {
    let mut data = json!({ key: value, "code": e.code });
    if let Some(details) = e.details {
        data["details"] = details;
    }
    let internal = matches!(
        &*e.code,
        codes::INTERNAL | codes::UNAVAILABLE | codes::BUSY | codes::TIMEOUT | codes::CANCELLED
    );
    if internal {
        ErrorData::internal_error(e.message, Some(data))
    } else {
        ErrorData::invalid_params(e.message, Some(data))
    }
}

fn failure(envelope: ResponseEnvelope<EntryAnswer>, key: &str, value: &str) -> ErrorData {
    match envelope {
        ResponseEnvelope::Error(e) => error(e, key, value),
        _ => error(
            ToolError::internal("the server answered with something other than what was asked"),
            key,
            value,
        ),
    }
}

/// An rmcp result from its JSON, `resultType` `complete` (which rmcp
/// leaves out for a client of a revision before 2026-07-28).
fn result<T: serde::de::DeserializeOwned>(mut value: Json) -> Result<T, ErrorData> {
    value["resultType"] = json!("complete");
    serde_json::from_value(value)
        .map_err(|e| ErrorData::internal_error(format!("cannot build the result: {e}"), None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::{PromptContent, PromptMessages, ResourceBody};

    #[test]
    fn contents_carry_the_uri_and_the_mime_type() {
        let entries = crate::edge::Entries::parse(
            &json!({
                "tools": [],
                "resourceTemplates": [{
                    "uriTemplate": "cas://objects/{hash}", "name": "object",
                    "mimeType": "application/octet-stream"
                }],
                "readers": {"object": {
                    "inputSchema": {"type": "object"}, "contents": "bytes",
                    "subscribable": false, "cache": {"ttlMs": 5000, "cacheScope": "public"}
                }}
            })
            .to_string(),
        )
        .unwrap();
        let Ok(found) = entries.resource("cas://objects/ab") else {
            panic!("the template matches");
        };
        let read = contents(
            "cas://objects/ab",
            found.entry,
            ResponseEnvelope::Success(crate::entry::blob(vec![1_u8, 2])),
        )
        .unwrap();
        let value = serde_json::to_value(&read).unwrap();
        assert_eq!(
            (value["ttlMs"].clone(), value["cacheScope"].clone()),
            (json!(5000), json!("public"))
        );
        assert_eq!(value["resultType"], "complete");
        assert_eq!(
            serde_json::to_value(&read.contents).unwrap(),
            json!([{"uri": "cas://objects/ab", "mimeType": "application/octet-stream", "blob": "AQI="}])
        );
    }

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
        let got = prompt(
            "compose",
            Some("Ask."),
            ResponseEnvelope::Success(messages.into()),
        )
        .unwrap();
        let value = serde_json::to_value(&got).unwrap();
        assert_eq!(value["description"], "Ask.");
        assert_eq!(
            value["messages"][0]["content"],
            json!({"type": "text", "text": "hi"})
        );
        assert_eq!(value["messages"][1]["content"]["mimeType"], "image/png");
        assert_eq!(value["messages"][2]["content"]["resource"]["text"], "MIT");
    }

    #[test]
    fn errors_the_caller_can_mend_are_invalid_params() {
        let typed = error(
            ToolError::new("NOT_FOUND", "no such object").with_details(json!({"hash": "ab"})),
            "uri",
            "cas://objects/ab",
        );
        assert_eq!(typed.code.0, -32602);
        assert_eq!(
            typed.data,
            Some(
                json!({"uri": "cas://objects/ab", "code": "NOT_FOUND", "details": {"hash": "ab"}})
            )
        );
        assert_eq!(
            error(ToolError::internal("boom"), "name", "p").code.0,
            -32603
        );
    }
}
