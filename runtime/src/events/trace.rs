//! `CallTrace`: one call between its `tool_start` and its `tool_complete`.

use std::time::Instant;

use serde::Serialize;

use super::{ToolComplete, ToolEvent, ToolEvents, ToolStart, follow, time};
use crate::port::CallPort;
use crate::{Json, ResponseEnvelope, ToolError};

/// Longest `tool_input` or `tool_result` an event carries. A longer one is
/// replaced by `{"truncated_bytes": N}`, so a subscriber's buffer holds at
/// most this much per event however large the calls are.
pub const MAX_EVENT_TEXT: usize = 64 * 1024;

/// A call whose `tool_start` has been sent; [`end`](CallTrace::end) sends
/// its `tool_complete`.
#[derive(Debug)]
pub struct CallTrace {
    hub: ToolEvents,
    call_id: String,
    tool_name: String,
    action: Option<String>,
    started: Instant,
}

impl CallTrace {
    pub(super) fn start(hub: ToolEvents, request: &[u8]) -> Self {
        let (tool_name, action, input) = split_request(request);
        let trace = CallTrace {
            call_id: hub.call_id(),
            tool_name,
            action,
            started: Instant::now(),
            hub,
        };
        trace.hub.send(ToolEvent::ToolStart(ToolStart {
            call_id: trace.call_id.clone(),
            tool_name: trace.tool_name.clone(),
            action: trace.action.clone(),
            tool_input: bounded(input),
            source: trace.hub.source(),
            timestamp: time::now_iso(),
        }));
        trace
    }

    /// The call's id, as its events carry it.
    pub fn call_id(&self) -> &str {
        &self.call_id
    }

    /// Sends `tool_complete` for a call answered with `envelope`. A call
    /// that runs on as a job completes when the job ends: `port` is asked
    /// for it in the background.
    pub fn end<P: CallPort, R: Serialize>(self, port: &P, envelope: &ResponseEnvelope<R>) {
        match envelope {
            ResponseEnvelope::Success(response) => {
                let text = match serde_json::to_value(response) {
                    Ok(Json::Object(mut fields)) => {
                        fields.remove("tool");
                        Json::Object(fields).to_string()
                    }
                    Ok(other) => other.to_string(),
                    Err(e) => {
                        return self.failed(
                            None,
                            &ToolError::internal(format!("the response has no JSON form: {e}")),
                        );
                    }
                };
                self.complete(None, text, None);
            }
            ResponseEnvelope::Error(e) => self.failed(None, e),
            ResponseEnvelope::JobStarted { job_id, .. } => {
                follow::job(port.clone(), self, job_id.clone());
            }
            _ => self.failed(
                None,
                &ToolError::internal("the call ended without an answer"),
            ),
        }
    }

    pub(super) fn failed(self, job_id: Option<String>, e: &ToolError) {
        let mut value = serde_json::json!({ "code": e.code, "message": e.message });
        if let Some(details) = &e.details {
            value["details"] = details.clone();
        }
        self.complete(job_id, value.to_string(), Some(e.code.to_string()));
    }

    pub(super) fn complete(self, job_id: Option<String>, result: String, error: Option<String>) {
        let duration = self.started.elapsed();
        self.hub.send(ToolEvent::ToolComplete(ToolComplete {
            call_id: self.call_id,
            job_id,
            tool_name: self.tool_name,
            action: self.action,
            tool_result: bounded(result),
            success: error.is_none(),
            error_code: error,
            duration_ms: duration.as_secs_f64() * 1000.0,
            source: self.hub.source(),
            timestamp: time::now_iso(),
        }));
    }
}

/// The tool, the action and the arguments (as JSON text) of a request.
/// Bytes that do not decode still make an event: the tool is `""` and the
/// input `null`, and the call's answer says what is wrong.
fn split_request(request: &[u8]) -> (String, Option<String>, String) {
    let Ok(Json::Object(mut fields)) = crate::edge::msgpack_to_json(request) else {
        return (String::new(), None, "null".to_owned());
    };
    let tool = match fields.remove("tool") {
        Some(Json::String(tool)) => tool,
        _ => String::new(),
    };
    let action = match fields.remove("action") {
        Some(Json::String(action)) => Some(action),
        Some(other) => {
            // Not a string: not an action, so it stays an argument.
            fields.insert("action".to_owned(), other);
            None
        }
        None => None,
    };
    (tool, action, Json::Object(fields).to_string())
}

fn bounded(text: String) -> String {
    if text.len() <= MAX_EVENT_TEXT {
        text
    } else {
        format!("{{\"truncated_bytes\":{}}}", text.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec;

    #[test]
    fn a_request_splits_into_tool_action_and_arguments() {
        let request = codec::json_to_msgpack(
            br#"{"tool":"fs","action":"write","path":"a","n":2}"#,
            codec::Limits::default(),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let (tool, action, input) = split_request(&request);
        assert_eq!(tool, "fs");
        assert_eq!(action.as_deref(), Some("write"));
        assert_eq!(input, r#"{"n":2,"path":"a"}"#);
    }

    #[test]
    fn garbage_is_an_event_with_no_tool() {
        assert_eq!(split_request(&[0xc1]), (String::new(), None, "null".into()));
    }

    #[test]
    fn long_texts_are_replaced_by_their_length() {
        let long = "x".repeat(MAX_EVENT_TEXT + 1);
        assert_eq!(
            bounded(long),
            format!("{{\"truncated_bytes\":{}}}", MAX_EVENT_TEXT + 1)
        );
        assert_eq!(bounded("{}".into()), "{}");
    }
}
