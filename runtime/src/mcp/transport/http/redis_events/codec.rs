//! An SSE event as the fields of a Redis stream entry, and back.
//!
//! A message is kept as the JSON the client would have read. A result
//! comes back verbatim: parsing it into rmcp's typed results could pick
//! another variant of their untagged union (an empty result is also an
//! empty `DiscoverResult`) and write different JSON. Requests and
//! notifications are told apart by their method, and parse back as they
//! were.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CustomResult, JsonRpcMessage, JsonRpcResponse, JsonRpcVersion2_0, RequestId,
    ServerJsonRpcMessage, ServerResult,
};
use rmcp::transport::streamable_http_server::session::ServerSseMessage;
use serde_json::Value;

/// The field holding the message's JSON.
pub(super) const MESSAGE: &str = "message";
/// The field holding the `retry` hint, in milliseconds.
pub(super) const RETRY: &str = "retry";
/// The field naming the session the stream belongs to.
pub(super) const SESSION: &str = "session";

/// The fields an event is kept as (its id is the entry's).
pub(super) fn fields(
    event: &ServerSseMessage,
    session: Option<&str>,
) -> Result<Vec<(&'static str, String)>, serde_json::Error> {
    let mut fields = Vec::with_capacity(3);
    if let Some(message) = &event.message {
        fields.push((MESSAGE, serde_json::to_string(message.as_ref())?));
    }
    if let Some(retry) = event.retry {
        fields.push((RETRY, retry.as_millis().to_string()));
    }
    if let Some(session) = session {
        fields.push((SESSION, session.to_owned()));
    }
    Ok(fields)
}

/// The event kept as `fields` (name, value, name, value…), with `id`.
pub(super) fn event(id: String, fields: &[(String, String)]) -> Result<ServerSseMessage, String> {
    let mut event = ServerSseMessage::default();
    event.event_id = Some(id);
    for (name, value) in fields {
        match name.as_str() {
            MESSAGE => {
                let json: Value = serde_json::from_str(value)
                    .map_err(|e| format!("a stored message is not JSON: {e}"))?;
                event.message = Some(Arc::new(verbatim(json)?));
            }
            RETRY => {
                let millis = value
                    .parse()
                    .map_err(|e| format!("a stored retry is not a number: {e}"))?;
                event.retry = Some(Duration::from_millis(millis));
            }
            _ => {}
        }
    }
    Ok(event)
}

/// A message that writes out as `json` does.
fn verbatim(mut json: Value) -> Result<ServerJsonRpcMessage, String> {
    let result = json
        .as_object_mut()
        .and_then(|object| object.remove("result"));
    let Some(result) = result else {
        return serde_json::from_value(json)
            .map_err(|e| format!("a stored message does not decode: {e}"));
    };
    let id = json
        .get_mut("id")
        .map(Value::take)
        .ok_or("a stored result has no id")?;
    let id: RequestId = serde_json::from_value(id)
        .map_err(|e| format!("a stored result's id does not decode: {e}"))?;
    Ok(JsonRpcMessage::Response(JsonRpcResponse {
        jsonrpc: JsonRpcVersion2_0,
        id,
        result: ServerResult::CustomResult(CustomResult(result)),
    }))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use rmcp::model::ServerJsonRpcMessage;
    use rmcp::transport::streamable_http_server::session::ServerSseMessage;
    use serde_json::{Value, json};

    use super::{event, fields};

    fn kept(event_in: &ServerSseMessage) -> ServerSseMessage {
        let fields: Vec<(String, String)> = fields(event_in, Some("s-1"))
            .expect("encodes")
            .into_iter()
            .map(|(name, value)| (name.to_owned(), value))
            .collect();
        event("42".to_owned(), &fields).expect("decodes")
    }

    fn same_json(json: Value) {
        let message: ServerJsonRpcMessage = serde_json::from_value(json).expect("a message");
        let before = serde_json::to_value(&message).expect("encodes");
        let after = kept(&ServerSseMessage::from_message(message));
        assert_eq!(after.event_id.as_deref(), Some("42"));
        let after =
            serde_json::to_value(after.message.expect("a message").as_ref()).expect("encodes");
        assert_eq!(after, before);
    }

    #[test]
    fn messages_come_back_as_the_json_they_were() {
        same_json(json!({"jsonrpc": "2.0", "id": 7, "result": {
            "content": [{"type": "text", "text": "hi"}],
            "structuredContent": {"a": null}, "isError": false
        }}));
        same_json(json!({"jsonrpc": "2.0", "id": "x", "result": {}}));
        same_json(json!({"jsonrpc": "2.0", "id": 7, "error": {
            "code": -32602, "message": "no", "data": {"x": 1}
        }}));
        same_json(json!({"jsonrpc": "2.0", "method": "notifications/progress",
            "params": {"progressToken": "t", "progress": 2.0, "message": "m"}}));
        same_json(json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}));
        same_json(json!({"jsonrpc": "2.0", "id": 3, "method": "roots/list"}));
    }

    #[test]
    fn a_priming_event_keeps_its_retry() {
        let priming = kept(&ServerSseMessage::retry(Duration::from_millis(1500)));
        assert!(priming.message.is_none());
        assert_eq!(priming.retry, Some(Duration::from_millis(1500)));
    }

    #[test]
    fn what_is_not_a_message_is_an_error() {
        for stored in ["[]", "{}", "{\"result\": 1}", "nope"] {
            let fields = [("message".to_owned(), stored.to_owned())];
            assert!(event("1".to_owned(), &fields).is_err(), "{stored}");
        }
    }
}
