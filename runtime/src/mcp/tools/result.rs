//! Turning the dispatcher's answers into `tools/call` results: the response
//! fields as `structuredContent` with the same JSON as text, its
//! `@content` fields as content blocks after that text, a job handle that
//! says how to poll, and typed errors with `isError: true`.

use rmcp::model::{CallToolResult, ContentBlock};
use serde::Serialize;
use serde_json::json;

use crate::edge::Answer;
use crate::jobs::JobInfo;
use crate::{ContentKind, Json, ResponseContent, ResponseEnvelope, ToolError, ToolTiming};

/// The result of a call that ended: `Success` or `Error`. A job handle or
/// a stream envelope reaching here is answered as an `INTERNAL` error, since
/// the caller decides those before.
pub(in crate::mcp) fn from_envelope<R: Serialize>(
    envelope: ResponseEnvelope<R>,
    content: &'static [ResponseContent],
) -> CallToolResult {
    match envelope {
        ResponseEnvelope::Success(response) => success(&response, content),
        ResponseEnvelope::Error(e) => error(&e),
        ResponseEnvelope::JobStarted {
            job_id,
            tool,
            expected_timing,
        } => job_handle(&job_id, &tool, expected_timing),
        _ => error(&ToolError::internal("the call ended without an answer")),
    }
}

/// `structuredContent`: the response's fields without its `tool` tag; those
/// that `content` lists for its tool are content blocks instead.
pub(in crate::mcp) fn success<R: Serialize>(
    response: &R,
    content: &'static [ResponseContent],
) -> CallToolResult {
    let mut value = serde_json::to_value(response);
    let tool = value.as_mut().ok().and_then(crate::wire::untag);
    match value {
        Ok(Json::Object(mut fields)) => {
            let action = fields.get(crate::wire::ACTION_TAG).and_then(Json::as_str);
            let listed = tool
                .as_ref()
                .and_then(Json::as_str)
                .and_then(|tool| ResponseContent::find(content, tool, action));
            let Some(listed) = listed else {
                return structured(Json::Object(fields));
            };
            let mut blocks = Vec::new();
            for &(name, kind) in listed.fields {
                match fields.remove(name) {
                    Some(Json::Array(values)) => {
                        blocks.extend(values.into_iter().map(|v| block(kind, v)));
                    }
                    Some(Json::Null) | None => {}
                    Some(value) => blocks.push(block(kind, value)),
                }
            }
            let blocks: Result<Vec<ContentBlock>, ToolError> = blocks.into_iter().collect();
            match blocks {
                Ok(blocks) => {
                    let rest_is_empty = fields.is_empty();
                    let mut result = structured(Json::Object(fields));
                    // `{}` as text says nothing beside the blocks.
                    if rest_is_empty && !blocks.is_empty() {
                        result.content.clear();
                    }
                    result.content.extend(blocks);
                    result
                }
                Err(e) => error(&e),
            }
        }
        // A catalogue response is always a map; anything else is passed on
        // as it is rather than lost.
        Ok(other) => structured(other),
        Err(e) => error(&ToolError::internal(format!(
            "cannot encode the response as JSON: {e}"
        ))),
    }
}

/// The content block of one `@content` value, from its JSON: a string for
/// text; `{data, mime_type}` for media; `{uri, mime_type?, text?, blob?}`
/// for a resource; `{uri, name, …}` for a link.
fn block(kind: ContentKind, value: Json) -> Result<ContentBlock, ToolError> {
    let text = |key: &str| value.get(key).cloned().unwrap_or(Json::Null);
    let block = match kind {
        ContentKind::Text => json!({"type": "text", "text": value}),
        ContentKind::Image | ContentKind::Audio => json!({
            "type": if kind == ContentKind::Image { "image" } else { "audio" },
            "data": text("data"),
            "mimeType": text("mime_type"),
        }),
        ContentKind::Resource => {
            let mut resource = json!({"uri": text("uri")});
            let optional = [
                ("mime_type", "mimeType"),
                ("text", "text"),
                ("blob", "blob"),
            ];
            copy_present(&value, &mut resource, &optional);
            json!({"type": "resource", "resource": resource})
        }
        ContentKind::Link => {
            let mut link =
                json!({"type": "resource_link", "uri": text("uri"), "name": text("name")});
            let optional = [
                ("title", "title"),
                ("description", "description"),
                ("mime_type", "mimeType"),
            ];
            copy_present(&value, &mut link, &optional);
            link
        }
    };
    serde_json::from_value(block)
        .map_err(|e| ToolError::internal(format!("a `@content` value is not a content block: {e}")))
}

/// Copies each optional field of `from` that has a value into `into`,
/// under its MCP name: `(field, wire)` pairs.
fn copy_present(from: &Json, into: &mut Json, fields: &[(&str, &str)]) {
    for (field, wire) in fields {
        if let Some(v) = from.get(field).filter(|v| !v.is_null()) {
            into[*wire] = v.clone();
        }
    }
}

/// A successful result carrying `value` as structured content and as text.
pub(in crate::mcp) fn structured(value: Json) -> CallToolResult {
    let text = value.to_string();
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(value);
    result
}

/// `isError: true` with `{code, message, details}`.
pub(in crate::mcp) fn error(e: &ToolError) -> CallToolResult {
    let mut value = json!({ "code": e.code, "message": e.message });
    if let Some(details) = &e.details {
        value["details"] = details.clone();
    }
    let mut result = CallToolResult::error(vec![ContentBlock::text(format!(
        "{}: {}",
        e.code, e.message
    ))]);
    result.structured_content = Some(value);
    result
}

/// The answer for a call that runs on as a job: its handle, and a text
/// telling the model which job tools follow it.
pub(in crate::mcp) fn job_handle(job_id: &str, tool: &str, timing: ToolTiming) -> CallToolResult {
    let value = crate::edge::job_handle(job_id, tool, timing);
    let text = format!(
        "`{tool}` runs as job `{job_id}` ({timing}). Wait for its result with \
         job_poll {{\"job_ids\": [\"{job_id}\"]}}, check it with job_status, stop it with job_cancel.",
        timing = timing.as_str(),
    );
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(value);
    result
}

/// The result of a job that has ended, from what the job store keeps: its
/// response, or its error.
pub(in crate::mcp) fn from_job(
    info: &JobInfo,
    content: &'static [ResponseContent],
) -> CallToolResult {
    match (&info.result, &info.error_code) {
        (Some(response), _) => success(response, content),
        (None, Some(code)) => error(&ToolError::new(
            code.clone(),
            info.error.clone().unwrap_or_default(),
        )),
        (None, None) => error(&ToolError::internal("the job ended without an answer")),
    }
}

/// An answer the edge gave itself (an action tool's `help` or `schema`, or
/// the error for a wrong `action`).
pub(in crate::mcp) fn from_answer(answer: Result<Answer, ToolError>) -> CallToolResult {
    match answer {
        Ok(Answer { value, text }) => {
            let mut result = structured(value);
            result.content = vec![ContentBlock::text(text)];
            result
        }
        Err(e) => error(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static CONTENT: &[ResponseContent] = &[
        ResponseContent {
            tool: "render",
            action: None,
            fields: &[
                ("note", ContentKind::Text),
                ("pages", ContentKind::Image),
                ("take", ContentKind::Audio),
                ("doc", ContentKind::Resource),
                ("more", ContentKind::Link),
            ],
        },
        ResponseContent {
            tool: "media",
            action: Some("play"),
            fields: &[("take", ContentKind::Audio)],
        },
    ];

    #[test]
    fn the_job_handle_text_shows_a_job_poll_request_the_server_takes() {
        let result = job_handle("job_7", "render", ToolTiming::AsyncLong);
        let text = blocks(&result)[0]["text"].as_str().unwrap().to_owned();
        let (_, rest) = text.split_once("job_poll ").unwrap();
        let (arguments, _) = rest.split_once(", check").unwrap();
        let request: crate::jobs::JobPollRequest = serde_json::from_str(arguments).unwrap();
        assert_eq!(request.job_ids, ["job_7"]);
    }

    fn blocks(result: &CallToolResult) -> Json {
        serde_json::to_value(&result.content).unwrap()
    }

    #[test]
    fn content_fields_become_blocks_after_the_rest() {
        let response = json!({
            "tool": "render",
            "title": "Reel",
            "note": "two pages",
            "pages": [
                {"data": "AAE=", "mime_type": "image/png"},
                {"data": "AgM=", "mime_type": "image/png"},
            ],
            "take": null,
            "doc": {"uri": "cas://1", "mime_type": null, "text": null, "blob": "BA=="},
            "more": {"uri": "cas://2", "name": "full", "title": null, "description": "all of it"},
        });
        let result = success(&response, CONTENT);
        assert_eq!(result.structured_content, Some(json!({"title": "Reel"})));
        assert_eq!(
            blocks(&result),
            json!([
                {"type": "text", "text": "{\"title\":\"Reel\"}"},
                {"type": "text", "text": "two pages"},
                {"type": "image", "data": "AAE=", "mimeType": "image/png"},
                {"type": "image", "data": "AgM=", "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": "cas://1", "blob": "BA=="}},
                {"type": "resource_link", "uri": "cas://2", "name": "full", "description": "all of it"},
            ])
        );
    }

    #[test]
    fn only_the_listed_tool_and_action_have_content() {
        let take = json!({"data": "AAE=", "mime_type": "audio/wav"});
        let other = success(&json!({"tool": "other", "take": take}), CONTENT);
        assert_eq!(other.structured_content, Some(json!({"take": take})));
        let stop = success(
            &json!({"tool": "media", "action": "stop", "take": take}),
            CONTENT,
        );
        assert_eq!(
            stop.structured_content,
            Some(json!({"action": "stop", "take": take}))
        );
        let play = success(
            &json!({"tool": "media", "action": "play", "take": take}),
            CONTENT,
        );
        assert_eq!(play.structured_content, Some(json!({"action": "play"})));
        assert_eq!(blocks(&play)[1]["type"], "audio");
    }

    #[test]
    fn only_content_leaves_no_json_text() {
        let response = json!({"tool": "render", "note": "hello"});
        let result = success(&response, CONTENT);
        assert_eq!(result.structured_content, Some(json!({})));
        assert_eq!(blocks(&result), json!([{"type": "text", "text": "hello"}]));
    }
}
