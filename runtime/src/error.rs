//! `ToolError`: the one error shape every caller sees, with a stable code.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::Json;

/// The built-in error codes. A tool's own `error` type adds its codes
/// (SCREAMING_SNAKE_CASE of the variant name) next to these.
pub mod codes {
    /// The request bytes or fields are malformed: truncated or garbage
    /// MsgPack, a missing or mistyped field, a value out of bounds.
    pub const INVALID_REQUEST: &str = "INVALID_REQUEST";
    /// No tool of the catalogue has this name.
    pub const UNKNOWN_TOOL: &str = "UNKNOWN_TOOL";
    /// The tool exists but has no action of this name.
    pub const UNKNOWN_ACTION: &str = "UNKNOWN_ACTION";
    /// The tool is declared but this server has no handler for it.
    pub const NOT_IMPLEMENTED: &str = "NOT_IMPLEMENTED";
    /// The call did not finish within its time budget.
    pub const TIMEOUT: &str = "TIMEOUT";
    /// The call was cancelled before it finished.
    pub const CANCELLED: &str = "CANCELLED";
    /// The server failed: a handler panicked, a response did not encode.
    pub const INTERNAL: &str = "INTERNAL";
    /// The server that would answer is unreachable, went away or is
    /// shutting down; the call may be retried (on another backend).
    pub const UNAVAILABLE: &str = "UNAVAILABLE";
    /// The server has as many calls in flight as it takes; retry later.
    pub const BUSY: &str = "BUSY";
    /// The handler asked the call's client for something it cannot give
    /// (sampling or elicitation from a client without the capability, or
    /// through a transport that cannot carry the question).
    pub const UNSUPPORTED: &str = "UNSUPPORTED";
    /// Seen only inside a handler: its question has gone to the client in
    /// the call's answer (MCP 2026-07-28's `input_required` result), and
    /// the call will be run again with the client's answer.
    pub const INPUT_REQUIRED: &str = "INPUT_REQUIRED";
    /// The `cursor` of a `@paged` call is not one the server issued for
    /// the same tool and arguments (changed, made up, from another server
    /// or from before a restart). Start again without one.
    pub const INVALID_CURSOR: &str = "INVALID_CURSOR";

    /// A HOOT01 backend does not serve the service (catalogue) a Request or
    /// Heartbeat named; its details say which it serves. Nothing ran.
    pub const UNKNOWN_SERVICE: &str = "UNKNOWN_SERVICE";

    /// The caller is known but may not make this call: its credentials
    /// lack a scope the tool declares (`@scopes`); its details name the
    /// missing ones (`scopes`) and all the tool needs (`required`). The
    /// handler never ran.
    pub const FORBIDDEN: &str = "FORBIDDEN";

    /// A resource read, prompt get or completion names no resource or
    /// prompt of the catalogue; its details name it (`{"resource": name}`).
    pub const UNKNOWN_ENTRY: &str = "UNKNOWN_ENTRY";

    /// Every built-in code.
    pub const ALL: [&str; 15] = [
        INVALID_REQUEST,
        UNKNOWN_TOOL,
        UNKNOWN_ACTION,
        NOT_IMPLEMENTED,
        TIMEOUT,
        CANCELLED,
        INTERNAL,
        UNAVAILABLE,
        BUSY,
        UNSUPPORTED,
        INPUT_REQUIRED,
        INVALID_CURSOR,
        UNKNOWN_SERVICE,
        FORBIDDEN,
        UNKNOWN_ENTRY,
    ];
}

/// A failed call: a stable machine-readable `code`, a message for people, and
/// optional structured details (the fields of a tool's typed error).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolError {
    /// Stable code: one of [`codes`] or a code of the tool's `error` type.
    pub code: Cow<'static, str>,
    /// What went wrong, for people.
    pub message: String,
    /// The typed error, when the tool declared one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub details: Option<Json>,
}

impl ToolError {
    /// An error with a code and a message.
    pub fn new(code: impl Into<Cow<'static, str>>, message: impl Into<String>) -> Self {
        ToolError {
            code: code.into(),
            message: message.into(),
            details: None,
        }
    }

    /// Adds structured details.
    #[must_use]
    pub fn with_details(mut self, details: Json) -> Self {
        self.details = Some(details);
        self
    }

    /// `INVALID_REQUEST`.
    pub fn invalid_request(message: impl Into<String>) -> Self {
        Self::new(codes::INVALID_REQUEST, message)
    }

    /// `UNKNOWN_TOOL`, with a suggestion when one name is close.
    pub fn unknown_tool(name: &str, suggestion: Option<&str>) -> Self {
        let message = did_you_mean(format!("no tool is named `{name}`"), suggestion);
        Self::new(codes::UNKNOWN_TOOL, message)
    }

    /// `UNKNOWN_ACTION`: `action` is not one of `available`, the actions
    /// of `tool` the caller's door takes. The message suggests the closest
    /// and lists them all; so do the details (`{"available": […]}`).
    pub fn unknown_action(tool: &str, action: &str, available: &[&str]) -> Self {
        let shown = shown(action);
        let suggestion = toolwright_suggest::closest(action, available.iter().copied());
        let head = did_you_mean(format!("tool `{tool}` has no action `{shown}`"), suggestion);
        // "…; did you mean `read`? Available …", or "…`x`. Available …".
        let stop = if suggestion.is_some() { "" } else { "." };
        let message = format!("{head}{stop} Available actions: {}.", available.join(", "));
        Self::new(codes::UNKNOWN_ACTION, message)
            .with_details(serde_json::json!({ "available": available }))
    }

    /// `NOT_IMPLEMENTED` for a declared tool without a handler.
    pub fn not_implemented(tool: &str) -> Self {
        Self::new(
            codes::NOT_IMPLEMENTED,
            format!("tool `{tool}` is declared but has no handler on this server"),
        )
    }

    /// `TIMEOUT`.
    pub fn timeout(message: impl Into<String>) -> Self {
        Self::new(codes::TIMEOUT, message)
    }

    /// `CANCELLED`.
    pub fn cancelled(message: impl Into<String>) -> Self {
        Self::new(codes::CANCELLED, message)
    }

    /// `INTERNAL`.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(codes::INTERNAL, message)
    }
}

/// `UNKNOWN_TOOL` for `name`, which catalogue `C` does not have, with the
/// closest of its tools' names when one is close: every door's wording.
pub(crate) fn unknown_tool_in<C: crate::Catalogue>(name: &str) -> ToolError {
    let names = C::TOOLS.iter().map(|t| t.name);
    ToolError::unknown_tool(&shown(name), toolwright_suggest::closest(name, names))
}

/// `name` cut to a length fit for an error message, on a char boundary:
/// names a caller sent are echoed back, and a long one would bury the
/// message.
pub(crate) fn shown(name: &str) -> String {
    const SHOWN: usize = 64;
    if name.len() <= SHOWN {
        return name.to_owned();
    }
    let mut end = SHOWN;
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &name[..end])
}

/// `message`, followed by "; did you mean `s`?" when there is a suggestion.
fn did_you_mean(mut message: String, suggestion: Option<&str>) -> String {
    if let Some(s) = suggestion {
        message.push_str(&format!("; did you mean `{s}`?"));
    }
    message
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ToolError {}

/// Turns a handler's error into the wire's [`ToolError`].
///
/// Generated `error` enums implement it (code from the variant, message from
/// its doc, details from its fields); `ToolError` itself passes through.
pub trait IntoToolError {
    /// The wire error.
    fn into_tool_error(self) -> ToolError;
}

impl IntoToolError for ToolError {
    fn into_tool_error(self) -> ToolError {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_names_are_cut_for_messages() {
        assert_eq!(shown("add"), "add");
        let long = "é".repeat(100);
        let cut = shown(&long);
        assert!(cut.len() <= 64 + '…'.len_utf8());
        assert!(cut.ends_with('…'));
    }
}
