//! What one line (or one member of a batch) is. The common message is
//! parsed once, straight into rmcp's type; the rest takes the slow path
//! through a JSON tree: the checks that give malformed input its JSON-RPC
//! error, and the rerouting of the 2025-11-25 tasks methods.

use std::sync::LazyLock;

use memchr::memmem::Finder;
use rmcp::model::{ClientJsonRpcMessage, ClientNotification, ClientRequest, JsonRpcMessage};
use serde_json::Value;

use crate::mcp::tasks::v2025_11_25::intercept;
use crate::mcp::transport::jsonrpc::{self, Checked};

/// What a line holds.
// A value returned and matched at once, never stored: boxing the message
// would cost an allocation per line on the fast path.
#[expect(clippy::large_enum_variant)]
#[derive(Debug)]
pub(super) enum Parsed {
    /// A message for rmcp.
    Message(ClientJsonRpcMessage),
    /// A JSON-RPC batch: its members, unchecked.
    Batch(Vec<Value>),
    /// Malformed: answer with this error object.
    Error(Value),
    /// A notification rmcp cannot read: nothing to do.
    Nothing,
}

/// Reads one line, without its surrounding whitespace.
pub(super) fn line(text: &[u8]) -> Parsed {
    if let Some(message) = fast(text) {
        return Parsed::Message(message);
    }
    match serde_json::from_slice::<Value>(text) {
        Err(e) => Parsed::Error(jsonrpc::error(
            Value::Null,
            jsonrpc::PARSE_ERROR,
            &format!("invalid JSON: {e}"),
        )),
        Ok(Value::Array(members)) => Parsed::Batch(members),
        Ok(message) => checked(message),
    }
}

/// The slow path for one message: checked as HTTP checks it, rerouted,
/// then read as rmcp's type.
pub(super) fn checked(mut message: Value) -> Parsed {
    match jsonrpc::check(&message) {
        Checked::Forward => {}
        Checked::Ignore => return Parsed::Nothing,
        Checked::Reject(error) => return Parsed::Error(error),
    }
    intercept::reroute(&mut message);
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    match serde_json::from_value(message) {
        Ok(message) => Parsed::Message(message),
        // `check` has read it as rmcp's type already; kept so that a
        // disagreement is an error answered, never a panic.
        Err(e) => Parsed::Error(jsonrpc::error(
            id,
            jsonrpc::INVALID_REQUEST,
            &format!("not an MCP message: {e}"),
        )),
    }
}

/// The fast path: the line read straight into rmcp's type, when nothing
/// could be rerouted and what it reads as is what `check` would forward.
fn fast(text: &[u8]) -> Option<ClientJsonRpcMessage> {
    if text.first() == Some(&b'[') || intercept::may_reroute(text) || null_params(text) {
        return None;
    }
    let message = serde_json::from_slice(text).ok()?;
    plain(&message).then_some(message)
}

/// A cheap test on the bytes: true when some key `"params"` may have the
/// value `null`, which rmcp reads as no params where `check` refuses it.
fn null_params(text: &[u8]) -> bool {
    // Built once: a searcher's set-up costs more than a short line's scan.
    static PARAMS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"params\""));
    PARAMS.find_iter(text).any(|at| {
        let rest = text[at + PARAMS.needle().len()..].trim_ascii_start();
        rest.strip_prefix(b":")
            .is_some_and(|value| value.trim_ascii_start().starts_with(b"null"))
    })
}

/// True when `check` forwards the message as read. A custom method may be
/// a standard one whose params did not fit (a params error), and an error
/// without an id may have had one of the wrong type: the slow path decides.
fn plain(message: &ClientJsonRpcMessage) -> bool {
    match message {
        JsonRpcMessage::Request(r) => !matches!(r.request, ClientRequest::CustomRequest(_)),
        JsonRpcMessage::Notification(n) => {
            !matches!(n.notification, ClientNotification::CustomNotification(_))
        }
        JsonRpcMessage::Response(_) => true,
        JsonRpcMessage::Error(e) => e.id.is_some(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The lines both paths must agree on: well-formed, malformed, and
    /// the shapes in between.
    fn samples() -> Vec<Value> {
        vec![
            json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": "a", "method": "ping", "params": {}}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": 3}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": null}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": []}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": null}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized", "params": null}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {}, "params": null}),
            json!({"jsonrpc": "2.0", "id": null, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": true, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": [1], "method": "ping"}),
            json!({"jsonrpc": "1.0", "id": 1, "method": "ping"}),
            json!({"id": 2, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": 1, "method": 5}),
            json!({"jsonrpc": "2.0", "id": 1}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "result": {}}),
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": 3}}),
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                   "params": {"name": "add", "arguments": {"a": 1}}}),
            json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                   "params": {"name": "add", "arguments": 7}}),
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/mix"}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized", "params": 1}),
            json!({"jsonrpc": "2.0", "id": null, "method": "notifications/initialized"}),
            json!({"jsonrpc": "2.0", "method": "notifications/progress",
                   "params": {"progress": "x"}}),
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                   "params": {"requestId": 1}}),
            json!({"jsonrpc": "2.0", "method": "no/such"}),
            json!({"jsonrpc": "2.0", "id": 4, "result": {}}),
            json!({"jsonrpc": "2.0", "result": {}}),
            json!({"jsonrpc": "2.0", "id": null, "result": {}}),
            json!({"jsonrpc": "2.0", "id": 4, "error": {"code": 1, "message": "no"}}),
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": 1, "message": "no"}}),
            json!({"jsonrpc": "2.0", "error": {"code": 1, "message": "no"}}),
            json!({"jsonrpc": "2.0", "id": 4, "result": {}, "error": {"code": 1, "message": "no"}}),
            json!(7),
            json!("ping"),
        ]
    }

    #[test]
    fn the_fast_path_takes_only_what_the_checks_forward() {
        let wrong: Vec<String> = samples()
            .into_iter()
            .filter(|sample| {
                fast(sample.to_string().as_bytes()).is_some()
                    && !matches!(jsonrpc::check(sample), Checked::Forward)
            })
            .map(|sample| sample.to_string())
            .collect();
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn null_params_are_found_whatever_the_spacing() {
        assert!(null_params(br#"{"params":null}"#));
        assert!(null_params(b"{\"params\" :\n null, \"id\": 1}"));
        assert!(!null_params(br#"{"params": {"a": null}}"#));
        assert!(!null_params(br#"{"params""#));
    }

    #[test]
    fn both_paths_read_a_plain_call_alike() {
        let call = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 1}}});
        let Some(fast) = fast(call.to_string().as_bytes()) else {
            panic!("a plain call takes the fast path");
        };
        let Parsed::Message(slow) = checked(call) else {
            panic!("a plain call is forwarded");
        };
        let as_json = |m: &ClientJsonRpcMessage| serde_json::to_value(m).expect("serializes");
        assert_eq!(as_json(&fast), as_json(&slow));
    }

    #[test]
    fn malformed_lines_get_their_errors() {
        let code = |text: &str| match line(text.as_bytes()) {
            Parsed::Error(error) => error["error"]["code"].as_i64(),
            _ => None,
        };
        assert_eq!(code("{\"jsonrpc\": \"2.0\", \"id\": 1,"), Some(-32700));
        assert_eq!(code(r#"{"id": 2, "method": "ping"}"#), Some(-32600));
        assert_eq!(
            code(
                r#"{"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {"capabilities": 3}}"#
            ),
            Some(-32602)
        );
        // Other params that do not fit reach rmcp as a custom request,
        // which the server answers -32602 (tests/mcp_stdio.rs), or as a
        // custom notification, which it ignores.
        let call = r#"{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": 3}}"#;
        assert!(matches!(
            line(call.as_bytes()),
            Parsed::Message(JsonRpcMessage::Request(r)) if matches!(r.request, ClientRequest::CustomRequest(_))
        ));
        let note = r#"{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": "x"}}"#;
        assert!(matches!(
            line(note.as_bytes()),
            Parsed::Message(JsonRpcMessage::Notification(_))
        ));
        let init = r#"{"jsonrpc": "2.0", "method": "initialize", "params": 5}"#;
        assert_eq!(code(init), Some(-32600));
        assert!(matches!(line(b"[]"), Parsed::Batch(members) if members.is_empty()));
    }

    #[test]
    fn task_methods_are_rerouted() {
        let list = r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}"#;
        let Parsed::Message(JsonRpcMessage::Request(request)) = line(list.as_bytes()) else {
            panic!("a request");
        };
        let ClientRequest::CustomRequest(custom) = request.request else {
            panic!("rerouted to a custom method");
        };
        assert_eq!(custom.method, "toolwright/tools/list");
    }
}
