//! Checking one JSON-RPC 2.0 message before rmcp sees it, so that each kind
//! of malformed input gets its JSON-RPC error: rmcp answers an HTTP body it
//! cannot read with a plain-text 415 and a stdio line with `-32600` and no
//! id. A standard method whose params do not fit is read by rmcp as a
//! custom one, which the server answers `-32602` (see [`is_standard`]);
//! only `initialize`, which rmcp must read as itself, is checked here.

use rmcp::model::InitializeRequestParams;
use serde::Deserialize as _;
use serde_json::{Value, json};

/// Invalid JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// Not a JSON-RPC message.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// No such method (or one the request's revision does not have).
pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
/// A known method with parameters of the wrong shape.
pub(crate) const INVALID_PARAMS: i64 = -32602;
/// The server failed.
pub(crate) const INTERNAL_ERROR: i64 = -32603;

/// What one message of a POST is.
pub(crate) enum Checked {
    /// Well-formed: hand it to rmcp.
    Forward,
    /// A well-formed notification rmcp cannot read: nothing to answer.
    Ignore,
    /// Malformed: answer with this error object.
    Reject(Value),
}

/// Checks one parsed message.
pub(crate) fn check(message: &Value) -> Checked {
    let Some(object) = message.as_object() else {
        return Checked::Reject(error(
            Value::Null,
            INVALID_REQUEST,
            "a JSON-RPC message is an object",
        ));
    };
    let id = object.get("id");
    let id_ok = matches!(id, None | Some(Value::Number(_) | Value::String(_)));
    // An id of the wrong type cannot be echoed back.
    let reply_id = if id_ok {
        id.cloned().unwrap_or(Value::Null)
    } else {
        Value::Null
    };
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return Checked::Reject(error(
            reply_id,
            INVALID_REQUEST,
            "`jsonrpc` must be \"2.0\"",
        ));
    }
    if !id_ok {
        return Checked::Reject(error(
            reply_id,
            INVALID_REQUEST,
            "`id` must be a string or a number",
        ));
    }
    match object.get("method") {
        Some(Value::String(_)) => {}
        Some(_) => {
            return Checked::Reject(error(
                reply_id,
                INVALID_REQUEST,
                "`method` must be a string",
            ));
        }
        None if id.is_some() && (object.contains_key("result") || object.contains_key("error")) => {
            // A response to a request of the server's.
            return Checked::Forward;
        }
        None => {
            return Checked::Reject(error(
                reply_id,
                INVALID_REQUEST,
                "a request needs a `method`",
            ));
        }
    }
    if let Some(params) = object.get("params")
        && !params.is_object()
        && !params.is_array()
    {
        return Checked::Reject(error(
            reply_id,
            INVALID_REQUEST,
            "`params` must be an object or an array",
        ));
    }
    let method = object.get("method").and_then(Value::as_str);
    // rmcp reads the session's first message as `initialize` or fails the
    // handshake: params that do not fit are refused here.
    let fits_initialize = || {
        object
            .get("params")
            .is_some_and(|params| InitializeRequestParams::deserialize(params).is_ok())
    };
    if method == Some("initialize") && !fits_initialize() {
        return match id {
            None => Checked::Ignore,
            Some(_) => Checked::Reject(error(
                reply_id,
                INVALID_PARAMS,
                "the params do not fit `initialize`",
            )),
        };
    }
    Checked::Forward
}

/// The methods a client sends in the revisions served, 2024-11-05 to
/// 2025-11-25, whose params rmcp reads: one of them reaching the server as
/// a custom request had params that did not fit. The `tasks/…` methods are
/// left out: they are rerouted to the server's own answers, which check
/// their params.
const STANDARD_METHODS: [&str; 17] = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "notifications/initialized",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/roots/list_changed",
];

pub(crate) fn is_standard(method: &str) -> bool {
    STANDARD_METHODS.contains(&method)
}

/// A JSON-RPC error response object.
pub(crate) fn error(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(message: Value) -> Option<i64> {
        match check(&message) {
            Checked::Reject(error) => error["error"]["code"].as_i64(),
            Checked::Forward | Checked::Ignore => None,
        }
    }

    #[test]
    fn well_formed_messages_are_forwarded() {
        let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        assert!(matches!(check(&ping), Checked::Forward));
        let custom = json!({"jsonrpc": "2.0", "id": "a", "method": "no/such", "params": {}});
        assert!(matches!(check(&custom), Checked::Forward));
        let response = json!({"jsonrpc": "2.0", "id": 4, "result": {}});
        assert!(matches!(check(&response), Checked::Forward));
    }

    #[test]
    fn malformed_messages_are_invalid_requests() {
        assert_eq!(code(json!(7)), Some(INVALID_REQUEST));
        assert_eq!(
            code(json!({"id": 1, "method": "ping"})),
            Some(INVALID_REQUEST)
        );
        assert_eq!(
            code(json!({"jsonrpc": "2.0", "id": [1], "method": "ping"})),
            Some(INVALID_REQUEST)
        );
        assert_eq!(
            code(json!({"jsonrpc": "2.0", "id": 1, "method": 5})),
            Some(INVALID_REQUEST)
        );
        assert_eq!(
            code(json!({"jsonrpc": "2.0", "id": 1})),
            Some(INVALID_REQUEST)
        );
        assert_eq!(
            code(json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": 3})),
            Some(INVALID_REQUEST)
        );
    }

    #[test]
    fn initialize_with_params_that_do_not_fit_is_invalid_params() {
        let init = json!({"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": {"protocolVersion": 5}});
        let Checked::Reject(error) = check(&init) else {
            panic!("accepted");
        };
        assert_eq!(error["error"]["code"], INVALID_PARAMS);
        assert_eq!(error["id"], 9);
        let note = json!({"jsonrpc": "2.0", "method": "initialize"});
        assert!(matches!(check(&note), Checked::Ignore));
    }

    #[test]
    fn other_params_are_left_to_the_server() {
        // rmcp reads these as custom requests, which the server answers
        // -32602 (runtime/tests/mcp_http.rs and mcp_stdio.rs show it).
        let call =
            json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": 5}});
        assert!(matches!(check(&call), Checked::Forward));
        assert!(is_standard("tools/call"));
        assert!(!is_standard("tasks/get"));
    }
}
