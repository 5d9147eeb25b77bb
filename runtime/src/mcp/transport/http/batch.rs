//! JSON-RPC batches, which rmcp does not read. The 2025-03-26 revision
//! allowed them and 2025-06-18 removed them, so a batch is answered per
//! JSON-RPC 2.0 for a peer on 2025-03-26 or earlier (one that sends no
//! `MCP-Protocol-Version`, which the spec says to take as 2025-03-26) and
//! refused with `-32600` for later revisions.
//!
//! Each message of a batch is handed to rmcp as a request of its own, with
//! the batch's headers, one after the other; the answers are gathered into
//! one JSON array.

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::guard::{Guard, reply};
use crate::mcp::revision::Revision;
use crate::mcp::tasks::v2025_11_25::intercept;
use crate::mcp::transport::jsonrpc::{self, Checked};
use crate::port::CallPort;

/// Most bytes read from rmcp's answer to one message of a batch.
const MAX_ANSWER_BYTES: usize = 16 * 1024 * 1024;

/// Answers a batch.
pub(super) async fn answer<P: CallPort>(
    guard: &Guard<P>,
    parts: &Parts,
    messages: Vec<Value>,
) -> Response {
    let version = parts
        .headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok());
    if version.is_some_and(|v| Revision::LAST_WITH_BATCHES.is_before(v)) {
        let message = format!(
            "JSON-RPC batches are not part of MCP {}; send one message per request",
            version.unwrap_or_default()
        );
        let body = jsonrpc::error(Value::Null, jsonrpc::INVALID_REQUEST, &message);
        return reply(StatusCode::BAD_REQUEST, &body);
    }
    if messages.is_empty() {
        let body = jsonrpc::error(Value::Null, jsonrpc::INVALID_REQUEST, "an empty batch");
        return reply(StatusCode::BAD_REQUEST, &body);
    }
    let mut answers = Vec::new();
    for mut message in messages {
        intercept::reroute(&mut message);
        let message = &message;
        match jsonrpc::check(message) {
            Checked::Forward => {
                if let Some(answer) = one(guard, parts, message).await {
                    answers.push(answer);
                }
            }
            Checked::Ignore => {}
            Checked::Reject(error) => answers.push(error),
        }
    }
    if answers.is_empty() {
        // Only notifications: JSON-RPC 2.0 returns nothing.
        return StatusCode::ACCEPTED.into_response();
    }
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        Value::Array(answers).to_string(),
    )
        .into_response()
}

/// Hands one message to rmcp and returns its answer, if it has one.
async fn one<P: CallPort>(guard: &Guard<P>, parts: &Parts, message: &Value) -> Option<Value> {
    let id = message.get("id").cloned();
    let mut request = axum::http::Request::new(Body::from(message.to_string()));
    *request.method_mut() = parts.method.clone();
    *request.uri_mut() = parts.uri.clone();
    *request.version_mut() = parts.version;
    *request.headers_mut() = parts.headers.clone();
    request.headers_mut().remove(header::CONTENT_LENGTH);
    let response = guard.forward(request).await;
    let status = response.status();
    // Notifications and responses are acknowledged without a body.
    let id = id.filter(|_| message.get("method").is_some())?;
    let bytes = match axum::body::to_bytes(response.into_body(), MAX_ANSWER_BYTES).await {
        Ok(bytes) => bytes,
        Err(e) => return Some(failed(id, &format!("cannot read the answer: {e}"))),
    };
    let text = String::from_utf8_lossy(&bytes);
    // rmcp answers in JSON or as an event stream whose `data:` lines are
    // messages; the answer is the one with the request's id.
    let answer = std::iter::once(text.as_ref())
        .chain(text.lines().filter_map(|line| line.strip_prefix("data:")))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|m| {
            m.get("id") == Some(&id) && (m.get("result").is_some() || m.get("error").is_some())
        });
    Some(answer.unwrap_or_else(|| failed(id, &format!("HTTP {status}: {}", text.trim()))))
}

/// The error standing for a message rmcp refused outright (an unknown
/// session, say).
fn failed(id: Value, why: &str) -> Value {
    jsonrpc::error(id, jsonrpc::INVALID_REQUEST, why)
}
