//! The payloads of the message types, as Rust values.

use serde::{Deserialize, Serialize};

use crate::ToolError;

/// The payload of an `INSTRUCTION`: `{"instruction": str}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Instruction {
    /// The task, for the subagent.
    pub instruction: String,
}

/// The payload of a `STATUS`: `{"status": str, "progress"?: f64}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Status {
    /// What the sender is doing.
    pub status: String,
    /// How far along it is, from 0 to 1, when it knows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<f64>,
}

/// The payload of an `ERROR`: `{"code": str, "message": str}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorMessage {
    /// Stable, machine-readable code.
    pub code: String,
    /// What went wrong, for people.
    pub message: String,
}

/// The payload of a `HEARTBEAT`: `{}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heartbeat {}

/// What a `TOOL_RESULT` frame carries: which tool ran, how it ended, and
/// how long it took. `R` is a catalogue's `ToolResponse`.
///
/// On the wire a success is `{"success": true, "toolName": str, "data":
/// {...}, "duration": u64}`, where `data` holds the response's fields
/// without its `tool` tag, and a failure is `{"success": false, "toolName":
/// str, "error": {"code", "message", "details"?}, "duration": u64}`.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult<R> {
    /// The tool that ran; on success, the tool the response is of.
    pub tool: String,
    /// The response, or why the call failed.
    pub outcome: Result<R, ToolError>,
    /// How long the call took, in milliseconds (`duration` on the wire).
    pub duration_ms: u64,
}

/// A failed `TOOL_RESULT` as written.
#[derive(Serialize)]
pub(crate) struct ToolFailure<'a> {
    pub(crate) success: bool,
    #[serde(rename = "toolName")]
    pub(crate) tool_name: &'a str,
    pub(crate) error: &'a ToolError,
    pub(crate) duration: u64,
}
