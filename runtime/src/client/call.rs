//! The items of a batch: a `ToolCall` in, a `ToolResult` out.

use serde::{Deserialize, Serialize};

use crate::{Json, ToolError};

/// One call of a batch: the tool's name, its arguments, and an id chosen by
/// the caller to find its result again.
///
/// On the wire: `{"id": "c1", "name": "add", "arguments": {"a": 1, "b": 2}}`;
/// `arguments` may be left out for a tool without arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolCall {
    /// The caller's id for this call; unique within a batch.
    pub id: String,
    /// The tool to call.
    pub name: String,
    /// The tool's arguments: a JSON object (MCP accepts nothing else).
    #[serde(default = "empty_object")]
    pub arguments: Json,
}

fn empty_object() -> Json {
    Json::Object(serde_json::Map::new())
}

impl ToolCall {
    /// A call of tool `name` with `arguments`, known to the caller as `id`.
    pub fn new(id: impl Into<String>, name: impl Into<String>, arguments: Json) -> Self {
        ToolCall {
            id: id.into(),
            name: name.into(),
            arguments,
        }
    }
}

/// The result of one call of a batch, carrying the call's id.
///
/// On the wire, as in the batch protocol: `{"call_id": "c1", "success": true,
/// "result": {...}}` or `{"call_id": "c2", "success": false, "error":
/// {"code": "NOT_FOUND", "message": "...", "details": {...}}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "WireResult", try_from = "WireResult")]
pub struct ToolResult {
    /// The id of the [`ToolCall`] this answers.
    pub call_id: String,
    /// The tool's result (for MCP, the call's `structuredContent`), or why
    /// the call failed.
    pub outcome: Result<Json, ToolError>,
}

impl ToolResult {
    /// Whether the call succeeded.
    pub fn is_success(&self) -> bool {
        self.outcome.is_ok()
    }

    /// The result of a successful call.
    pub fn result(&self) -> Option<&Json> {
        self.outcome.as_ref().ok()
    }

    /// The error of a failed call.
    pub fn error(&self) -> Option<&ToolError> {
        self.outcome.as_ref().err()
    }
}

/// `ToolResult` as it is written: a flag and one of two optional fields.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct WireResult {
    call_id: String,
    success: bool,
    // `null` is a valid result; `Some(Json::Null)` keeps it apart from an
    // absent field when writing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<Json>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<ToolError>,
}

impl From<ToolResult> for WireResult {
    fn from(value: ToolResult) -> Self {
        let (success, result, error) = match value.outcome {
            Ok(result) => (true, Some(result), None),
            Err(error) => (false, None, Some(error)),
        };
        WireResult {
            call_id: value.call_id,
            success,
            result,
            error,
        }
    }
}

impl TryFrom<WireResult> for ToolResult {
    type Error = String;

    fn try_from(wire: WireResult) -> Result<Self, Self::Error> {
        let outcome = match (wire.success, wire.result, wire.error) {
            (true, result, None) => Ok(result.unwrap_or(Json::Null)),
            (false, None, Some(error)) => Err(error),
            (true, _, Some(_)) => {
                return Err(format!(
                    "result `{}` has `success: true` and an `error`",
                    wire.call_id
                ));
            }
            (false, Some(_), _) => {
                return Err(format!(
                    "result `{}` has `success: false` and a `result`",
                    wire.call_id
                ));
            }
            (false, None, None) => {
                return Err(format!(
                    "result `{}` has `success: false` but no `error`",
                    wire.call_id
                ));
            }
        };
        Ok(ToolResult {
            call_id: wire.call_id,
            outcome,
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn results_round_trip_in_the_batch_shape() {
        let ok = ToolResult {
            call_id: "c1".into(),
            outcome: Ok(json!({"result": 3})),
        };
        let ok_json = json!({"call_id": "c1", "success": true, "result": {"result": 3}});
        assert_eq!(serde_json::to_value(&ok).unwrap(), ok_json);
        assert_eq!(serde_json::from_value::<ToolResult>(ok_json).unwrap(), ok);

        let failed = ToolResult {
            call_id: "c2".into(),
            outcome: Err(ToolError::timeout("too slow")),
        };
        let failed_json = json!({
            "call_id": "c2",
            "success": false,
            "error": {"code": "TIMEOUT", "message": "too slow"},
        });
        assert_eq!(serde_json::to_value(&failed).unwrap(), failed_json);
        assert_eq!(
            serde_json::from_value::<ToolResult>(failed_json).unwrap(),
            failed
        );
    }

    #[test]
    fn a_null_result_is_a_result() {
        let null = ToolResult {
            call_id: "c".into(),
            outcome: Ok(Json::Null),
        };
        let written = serde_json::to_value(&null).unwrap();
        assert_eq!(
            written,
            json!({"call_id": "c", "success": true, "result": null})
        );
        assert_eq!(serde_json::from_value::<ToolResult>(written).unwrap(), null);
    }

    #[test]
    fn contradictory_results_are_rejected() {
        for bad in [
            json!({"call_id": "c", "success": false}),
            json!({"call_id": "c", "success": false, "result": 1,
                   "error": {"code": "X", "message": "m"}}),
            json!({"call_id": "c", "success": true, "error": {"code": "X", "message": "m"}}),
            json!({"call_id": "c", "success": true, "extra": 1}),
        ] {
            let error = serde_json::from_value::<ToolResult>(bad.clone()).unwrap_err();
            assert!(error.to_string().contains('`'), "{bad}: {error}");
        }
    }

    #[test]
    fn calls_default_to_empty_arguments_and_reject_unknown_keys() {
        let call: ToolCall = serde_json::from_value(json!({"id": "a", "name": "ping"})).unwrap();
        assert_eq!(call, ToolCall::new("a", "ping", json!({})));
        let error = serde_json::from_value::<ToolCall>(json!({"id": "a", "name": "t", "args": {}}))
            .unwrap_err();
        assert!(error.to_string().contains("args"), "{error}");
    }
}
