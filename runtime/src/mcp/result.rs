//! Turning the dispatcher's answers into `tools/call` results: the response
//! fields as `structuredContent` with the same JSON as text, a job handle
//! that says how to poll, and typed errors with `isError: true`.

use rmcp::model::{CallToolResult, ContentBlock};
use serde::Serialize;
use serde_json::json;

use crate::edge::Answer;
use crate::{Json, ResponseEnvelope, ToolError, ToolTiming};

/// The result of a call that ended: `Success` or `Error`. A job handle or
/// a stream envelope reaching here is answered as an `INTERNAL` error, since
/// the caller decides those before.
pub(super) fn from_envelope<R: Serialize>(envelope: ResponseEnvelope<R>) -> CallToolResult {
    match envelope {
        ResponseEnvelope::Success(response) => success(&response),
        ResponseEnvelope::Error(e) => error(&e),
        ResponseEnvelope::JobStarted {
            job_id,
            tool,
            expected_timing,
        } => job_handle(&job_id, &tool, expected_timing),
        _ => error(&ToolError::internal("the call ended without an answer")),
    }
}

/// `structuredContent`: the response's fields without its `tool` tag.
pub(super) fn success<R: Serialize>(response: &R) -> CallToolResult {
    match serde_json::to_value(response) {
        Ok(Json::Object(mut fields)) => {
            fields.remove("tool");
            structured(Json::Object(fields))
        }
        // A catalogue response is always a map; anything else is passed on
        // as it is rather than lost.
        Ok(other) => structured(other),
        Err(e) => error(&ToolError::internal(format!(
            "cannot encode the response as JSON: {e}"
        ))),
    }
}

/// A successful result carrying `value` as structured content and as text.
pub(super) fn structured(value: Json) -> CallToolResult {
    let text = value.to_string();
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(value);
    result
}

/// `isError: true` with `{code, message, details}`.
pub(super) fn error(e: &ToolError) -> CallToolResult {
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
pub(super) fn job_handle(job_id: &str, tool: &str, timing: ToolTiming) -> CallToolResult {
    let value = json!({ "job_id": job_id, "tool": tool, "expected_timing": timing });
    let text = format!(
        "`{tool}` runs as job `{job_id}` ({timing}). Wait for its result with \
         job_poll {{\"job_id\": \"{job_id}\"}}, check it with job_status, stop it with job_cancel.",
        timing = timing.as_str(),
    );
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(value);
    result
}

/// An answer the edge gave itself (an action tool's `help` or `schema`, or
/// the error for a wrong `action`).
pub(super) fn from_answer(answer: Result<Answer, ToolError>) -> CallToolResult {
    match answer {
        Ok(Answer { value, text }) => {
            let mut result = structured(value);
            result.content = vec![ContentBlock::text(text)];
            result
        }
        Err(e) => error(&e),
    }
}
