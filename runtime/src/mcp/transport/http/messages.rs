//! One HTTP request at the guard: refused when it breaks the access rules
//! or the body limit, answered with its JSON-RPC error when malformed, a
//! batch answered member by member, the 2025-11-25 tasks methods rerouted,
//! and the rest handed to rmcp.

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use memchr::memmem::Finder;
use serde_json::Value;
use std::sync::{Arc, LazyLock};

use super::batch;
use super::guard::{Guard, reply};
use crate::http::body::Unread;
use crate::mcp::revision::Revision;
use crate::mcp::tasks::v2025_11_25::intercept;
use crate::mcp::transport::jsonrpc::{self, Checked};
use crate::port::CallPort;

/// Answers one HTTP request.
pub(super) async fn handle<P: CallPort>(
    guard: Arc<Guard<P>>,
    mut request: axum::http::Request<Body>,
) -> Response {
    match guard.access.admit(request.headers()).await {
        // rmcp hands the request's parts to the server with each message:
        // the principal travels in their extensions.
        Ok(Some(principal)) => {
            request.extensions_mut().insert(principal);
        }
        Ok(None) => {}
        Err(refused) => return refused.into_response(),
    }
    // Only JSON POSTs carry messages; rmcp answers the rest (GET streams,
    // DELETE sessions, wrong content types) itself.
    if request.method() != Method::POST || !is_json(request.headers()) {
        return guard.forward(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match read_body(&parts.headers, body, guard.max_body_bytes).await {
        Ok(bytes) => bytes,
        Err(response) => return response,
    };
    if let Some(response) = removed(&parts.headers, &bytes) {
        return response;
    }
    if plain(&bytes) {
        let response = guard
            .forward(axum::http::Request::from_parts(
                parts,
                Body::from(bytes.clone()),
            ))
            .await;
        // rmcp answers a body it cannot read with a plain-text 415; the
        // checks say what is wrong with it.
        if response.status() != StatusCode::UNSUPPORTED_MEDIA_TYPE {
            return response;
        }
        return match unread(&bytes) {
            Some(error) => reply(StatusCode::BAD_REQUEST, &error),
            None => response,
        };
    }
    let mut message: Value = match serde_json::from_slice(&bytes) {
        Ok(message) => message,
        Err(e) => return reply(StatusCode::BAD_REQUEST, &parse_error(&e)),
    };
    if let Value::Array(messages) = message {
        return batch::answer(&guard, &parts, messages).await;
    }
    let rerouted = intercept::may_reroute(&bytes) && intercept::reroute(&mut message);
    match jsonrpc::check(&message) {
        Checked::Forward => {
            let body = if rerouted {
                Body::from(message.to_string())
            } else {
                Body::from(bytes)
            };
            let initialize = message.get("method").and_then(Value::as_str) == Some("initialize");
            let response = guard
                .forward(axum::http::Request::from_parts(parts, body))
                .await;
            if initialize {
                patch_initialize(response).await
            } else {
                response
            }
        }
        Checked::Ignore => StatusCode::ACCEPTED.into_response(),
        Checked::Reject(error) => reply(StatusCode::BAD_REQUEST, &error),
    }
}

/// A cheap test on a POST body: true when rmcp may read it first, because
/// nothing in it is rerouted, it is neither a batch nor an `initialize`
/// (whose answer is patched), and every `params` holds an object or an
/// array. A body rmcp then cannot read is checked after (see [`unread`]);
/// one that rmcp reads is one the checks forward. Anything else is checked
/// before rmcp sees it.
fn plain(bytes: &[u8]) -> bool {
    // Built once, as each search of a short body costs less than building
    // its searcher.
    static INITIALIZE: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"initialize\""));
    static ERROR: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"error\""));
    static PARAMS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"params\""));
    bytes.trim_ascii_start().first() == Some(&b'{')
        && !intercept::may_reroute(bytes)
        && INITIALIZE.find(bytes).is_none()
        // An error without an id: rmcp reads it, the checks do not.
        && ERROR.find(bytes).is_none()
        && PARAMS.find_iter(bytes).all(|at| {
            let rest = bytes[at + 8..].trim_ascii_start();
            rest.strip_prefix(b":").is_some_and(|value| {
                matches!(value.trim_ascii_start().first(), Some(b'{' | b'['))
            })
        })
}

/// Methods MCP 2026-07-28 removed (SEP-2575): `initialize` (each request
/// names its revision and capabilities), `logging/setLevel` (a request
/// opts into logs in its `_meta`) and resource subscriptions.
const REMOVED: [&str; 4] = [
    "initialize",
    "logging/setLevel",
    "resources/subscribe",
    "resources/unsubscribe",
];

/// A request of the stateless revision (2026-07-28) for a method it removed is answered
/// `404` with `-32601` (method not found), as SEP-2575 says. rmcp knows
/// the methods from older revisions and would answer that the params do
/// not fit. A cheap byte search keeps other requests from being parsed
/// here.
fn removed(headers: &HeaderMap, bytes: &[u8]) -> Option<Response> {
    use memchr::memmem;
    let stateless = headers
        .get("mcp-protocol-version")
        .is_some_and(|v| v.as_bytes() == Revision::STATELESS.as_str().as_bytes());
    let named = |method: &&str| {
        memmem::find(bytes, method.as_bytes()).is_some_and(|at| {
            at > 0 && bytes[at - 1] == b'"' && bytes.get(at + method.len()) == Some(&b'"')
        })
    };
    if !stateless || !REMOVED.iter().any(named) {
        return None;
    }
    let message: Value = serde_json::from_slice(bytes).ok()?;
    let method = message.get("method")?.as_str()?;
    // A notification has no answer; rmcp drops it.
    let id = message.get("id")?.clone();
    REMOVED.contains(&method).then(|| {
        let text = format!("`{method}` is not a method of MCP {}", Revision::STATELESS);
        let error = jsonrpc::error(id, jsonrpc::METHOD_NOT_FOUND, &text);
        reply(StatusCode::NOT_FOUND, &error)
    })
}

/// The JSON-RPC error for a body rmcp could not read, or `None` when the
/// checks find nothing wrong with it (rmcp's answer then stands).
fn unread(bytes: &[u8]) -> Option<Value> {
    match serde_json::from_slice::<Value>(bytes) {
        Err(e) => Some(parse_error(&e)),
        Ok(message) => match jsonrpc::check(&message) {
            Checked::Reject(error) => Some(error),
            Checked::Forward | Checked::Ignore => None,
        },
    }
}

fn parse_error(e: &serde_json::Error) -> Value {
    jsonrpc::error(
        Value::Null,
        jsonrpc::PARSE_ERROR,
        &format!("invalid JSON: {e}"),
    )
}

/// Most bytes read from rmcp's answer to `initialize`.
const MAX_INITIALIZE_BYTES: usize = 1024 * 1024;

/// Adds the `tasks` capability to rmcp's answer to `initialize`, which
/// comes as JSON or as an event stream of one message.
async fn patch_initialize(response: Response) -> Response {
    let (mut parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_INITIALIZE_BYTES).await else {
        let body = jsonrpc::error(
            Value::Null,
            jsonrpc::INTERNAL_ERROR,
            "the answer to initialize could not be read",
        );
        return reply(StatusCode::INTERNAL_SERVER_ERROR, &body);
    };
    let text = String::from_utf8_lossy(&bytes);
    let mut patched = String::with_capacity(text.len() + 96);
    for line in text.split_inclusive('\n') {
        let (data, prefix) = match line.strip_prefix("data:") {
            Some(data) => (data, "data: "),
            None => (line, ""),
        };
        match serde_json::from_str::<Value>(data.trim()) {
            Ok(mut message) if message.get("result").is_some() => {
                intercept::patch_initialize(&mut message["result"]);
                patched.push_str(prefix);
                patched.push_str(&message.to_string());
                if line.ends_with('\n') {
                    patched.push('\n');
                }
            }
            _ => patched.push_str(line),
        }
    }
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(patched))
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// The body, read only up to `limit`: a declared or actual length over it
/// is answered 413 before more than `limit` bytes are held.
async fn read_body(headers: &HeaderMap, body: Body, limit: usize) -> Result<Bytes, Response> {
    crate::http::body::read(headers, body, limit)
        .await
        .map_err(|unread| {
            let (status, message) = match unread {
                Unread::TooLarge => (
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!("Payload Too Large: the request body exceeds {limit} bytes"),
                ),
                Unread::Broken => (
                    StatusCode::BAD_REQUEST,
                    "the request body was cut off".to_owned(),
                ),
            };
            let body = jsonrpc::error(Value::Null, jsonrpc::INVALID_REQUEST, &message);
            let mut response = reply(status, &body);
            // Whatever of the body is left unread, the connection is not
            // reused for another request.
            response.headers_mut().insert(
                header::CONNECTION,
                header::HeaderValue::from_static("close"),
            );
            response
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_bodies_are_single_messages_with_structured_params() {
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}}"#;
        assert!(plain(call));
        assert!(plain(br#" {"jsonrpc": "2.0", "id": 2, "method": "ping"}"#));
        assert!(plain(
            br#"{"jsonrpc":"2.0","id":1,"method":"x","params" : [1]}"#
        ));
    }

    #[test]
    fn everything_else_is_checked_first() {
        for body in [
            &br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#[..],
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","params":3}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"ping","params": null}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"x"}}"#,
            br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#,
            br#"{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}"#,
            b"7",
        ] {
            assert!(!plain(body), "{}", String::from_utf8_lossy(body));
        }
    }

    #[test]
    fn methods_2026_07_28_removed_are_not_found_on_it() {
        let request = |method: &str| {
            format!(r#"{{"jsonrpc":"2.0","id":5,"method":"{method}","params":{{}}}}"#)
        };
        let mut stateless = HeaderMap::new();
        stateless.insert("mcp-protocol-version", "2026-07-28".parse().unwrap());
        for method in REMOVED {
            let response = removed(&stateless, request(method).as_bytes());
            assert_eq!(
                response.map(|r| r.status()),
                Some(StatusCode::NOT_FOUND),
                "{method}"
            );
        }
        // Other methods, older revisions and notifications go on to rmcp.
        assert!(removed(&stateless, request("tools/list").as_bytes()).is_none());
        assert!(removed(&stateless, request("initialized").as_bytes()).is_none());
        let mut older = HeaderMap::new();
        older.insert("mcp-protocol-version", "2025-11-25".parse().unwrap());
        assert!(removed(&older, request("logging/setLevel").as_bytes()).is_none());
        let notification = br#"{"jsonrpc":"2.0","method":"initialize"}"#;
        assert!(removed(&stateless, notification).is_none());
    }

    #[test]
    fn what_rmcp_cannot_read_gets_its_error() {
        let code = |body: &[u8]| unread(body).and_then(|e| e["error"]["code"].as_i64());
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":1,"#),
            Some(jsonrpc::PARSE_ERROR)
        );
        assert_eq!(
            code(br#"{"id":1,"method":"ping"}"#),
            Some(jsonrpc::INVALID_REQUEST)
        );
        assert_eq!(code(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), None);
    }
}
