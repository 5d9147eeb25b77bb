//! HIP-0300's unified envelope (seed 003), an opt-in result shape
//! ([`McpServer::envelope`](super::McpServer::envelope)): every
//! `tools/call` result's `structuredContent` becomes
//! `{ok, data, error, meta: {tool, action?, trace_id, backend, paging?}}`,
//! and each tool's `outputSchema` says so. `meta.paging` is the `paging`
//! of a `@paged` call's page.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool};
use serde_json::json;

use crate::Json;

/// The `$defs` entry of the envelope's `meta`.
const META: &str = "EnvelopeMeta";

/// The `$defs` entry of the error in a result (`output.rs` in codegen
/// names it so).
const TOOL_ERROR: &str = "ToolError";

/// What the envelope says of a call beside its answer.
pub(in crate::mcp) struct Meta<'a> {
    pub(in crate::mcp) tool: &'a str,
    pub(in crate::mcp) action: Option<&'a str>,
    pub(in crate::mcp) backend: &'a str,
    /// The call is `@paged`: its page's `paging` goes in `meta` too.
    pub(in crate::mcp) paged: bool,
}

/// Makes the `trace_id`s of calls: unique in the process, and not
/// guessable from one another (a keyed hash of a counter).
#[derive(Debug)]
pub(in crate::mcp) struct Traces {
    next: AtomicU64,
    keys: RandomState,
}

impl Default for Traces {
    fn default() -> Self {
        Traces {
            next: AtomicU64::new(1),
            keys: RandomState::new(),
        }
    }
}

impl Traces {
    /// The next trace id: `tr_` and 16 hex digits.
    pub(in crate::mcp) fn next(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        format!("tr_{:016x}", self.keys.hash_one(n))
    }
}

/// `result` in the envelope. A success's text block that mirrors its
/// structured content mirrors the envelope instead; an error keeps its
/// `CODE: message` text and `isError`.
pub(in crate::mcp) fn wrap(
    mut result: CallToolResult,
    meta: &Meta<'_>,
    trace_id: String,
) -> CallToolResult {
    let failed = result.is_error == Some(true);
    let inner = result.structured_content.take().unwrap_or(Json::Null);
    let mirrored = !failed && {
        let inner_text = inner.to_string();
        result
            .content
            .first()
            .and_then(|block| block.as_text())
            .is_some_and(|text| text.text == inner_text)
    };
    let mut about = json!({
        "tool": meta.tool,
        "trace_id": trace_id,
        "backend": meta.backend,
    });
    if let Some(action) = meta.action {
        about["action"] = json!(action);
    }
    if meta.paged
        && !failed
        && let Some(paging) = inner.get("paging")
    {
        about["paging"] = paging.clone();
    }
    let envelope = if failed {
        json!({"ok": false, "data": null, "error": inner, "meta": about})
    } else {
        json!({"ok": true, "data": inner, "error": null, "meta": about})
    };
    if mirrored {
        result.content[0] = ContentBlock::text(envelope.to_string());
    }
    result.structured_content = Some(envelope);
    result
}

/// `tool` with an `outputSchema` for enveloped results: `data` is what the
/// tool's own schema admitted but its error, or `null`; `error` is the
/// tool error, or `null`.
pub(in crate::mcp) fn wrap_schema(mut tool: Tool) -> Tool {
    let Some(output) = tool.output_schema.take() else {
        return tool;
    };
    let mut output = (*output).clone();
    let mut defs = match output.remove("$defs") {
        Some(Json::Object(defs)) => defs,
        _ => JsonObject::new(),
    };
    let error_ref = json!({ "$ref": format!("#/$defs/{TOOL_ERROR}") });
    // The generated schema is `{type, anyOf: [<answers>…, <error>]}`, or
    // the one answer when it admits no error.
    let answers: Vec<Json> = match output.get("anyOf") {
        Some(Json::Array(branches)) if output.len() == 2 => branches
            .iter()
            .filter(|branch| **branch != error_ref)
            .cloned()
            .collect(),
        _ => vec![Json::Object(output)],
    };
    let mut data: Vec<Json> = answers;
    data.push(json!({"type": "null"}));
    defs.insert(META.to_owned(), meta_schema());
    let error = if defs.contains_key(TOOL_ERROR) {
        json!({"anyOf": [error_ref, {"type": "null"}]})
    } else {
        json!({"type": "null"})
    };
    let schema = json!({
        "type": "object",
        "description": "HIP-0300's envelope: `ok` with the answer in `data`, or not with the error in `error`; `meta` says which call it was.",
        "properties": {
            "ok": {"type": "boolean", "description": "Whether the call succeeded."},
            "data": {"anyOf": data, "description": "The answer, when `ok`; `null` otherwise."},
            "error": error,
            "meta": {"$ref": format!("#/$defs/{META}")},
        },
        "required": ["ok", "data", "error", "meta"],
        "additionalProperties": false,
        "$defs": defs,
    });
    if let Json::Object(schema) = schema {
        tool.output_schema = Some(std::sync::Arc::new(schema));
    }
    tool
}

/// The schema of the envelope's `meta`.
fn meta_schema() -> Json {
    json!({
        "type": "object",
        "description": "Which call the result answers.",
        "properties": {
            "tool": {"type": "string", "description": "The tool called."},
            "action": {"type": "string", "description": "The action called, for an action tool."},
            "trace_id": {"type": "string", "description": "This call's id, unique in the server's process, for logs and reports."},
            "backend": {"type": "string", "enum": ["local", "mcp"], "description": "Where the tool ran: this process, or a backend behind a gateway."},
            "paging": {
                "type": "object",
                "description": "Where the page of a paged call ends, as in its `data.paging`.",
                "properties": {
                    "cursor": {"type": "string", "description": "Pass it as the next call's `cursor`, with the same arguments, for the next page."},
                    "more": {"type": "boolean", "description": "True when another page follows."},
                },
                "required": ["more"],
                "additionalProperties": false,
            },
        },
        "required": ["tool", "trace_id", "backend"],
        "additionalProperties": false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta() -> Meta<'static> {
        Meta {
            tool: "add",
            action: None,
            backend: "local",
            paged: false,
        }
    }

    #[test]
    fn a_success_is_data_and_its_text_mirrors_the_envelope() {
        let value = json!({"result": 3});
        let mut result = CallToolResult::success(vec![ContentBlock::text(value.to_string())]);
        result.structured_content = Some(value);
        let wrapped = wrap(result, &meta(), "tr_1".into());
        let envelope = wrapped.structured_content.clone().expect("structured");
        assert_eq!(
            envelope,
            json!({"ok": true, "data": {"result": 3}, "error": null,
                   "meta": {"tool": "add", "trace_id": "tr_1", "backend": "local"}})
        );
        let text = wrapped.content[0].as_text().map(|t| t.text.clone());
        assert_eq!(text, Some(envelope.to_string()));
    }

    #[test]
    fn an_error_is_error_and_keeps_its_text() {
        let mut result = CallToolResult::error(vec![ContentBlock::text("OVERFLOW: too big")]);
        result.structured_content = Some(json!({"code": "OVERFLOW", "message": "too big"}));
        let meta = Meta {
            action: Some("run"),
            ..meta()
        };
        let wrapped = wrap(result, &meta, "tr_2".into());
        let envelope = wrapped.structured_content.clone().expect("structured");
        assert_eq!(envelope["ok"], false);
        assert_eq!(envelope["data"], Json::Null);
        assert_eq!(envelope["error"]["code"], "OVERFLOW");
        assert_eq!(envelope["meta"]["action"], "run");
        assert_eq!(wrapped.is_error, Some(true));
        let text = wrapped.content[0].as_text().map(|t| t.text.clone());
        assert_eq!(text.as_deref(), Some("OVERFLOW: too big"));
    }

    #[test]
    fn a_page_says_where_it_ends_in_meta_too() {
        let value = json!({"hashes": ["ab"], "paging": {"cursor": "AQx", "more": true}});
        let mut result = CallToolResult::success(vec![]);
        result.structured_content = Some(value);
        let meta = Meta {
            tool: "cas_list",
            paged: true,
            ..meta()
        };
        let envelope = wrap(result, &meta, "tr_3".into()).structured_content;
        let envelope = envelope.expect("structured");
        assert_eq!(
            envelope["meta"]["paging"],
            json!({"cursor": "AQx", "more": true})
        );
        assert_eq!(envelope["data"]["paging"], envelope["meta"]["paging"]);
    }

    #[test]
    fn the_schema_puts_answers_in_data_and_the_error_in_error() {
        let output = json!({
            "type": "object",
            "anyOf": [
                {"type": "object", "properties": {"result": {"type": "integer"}}},
                {"$ref": "#/$defs/ToolError"},
            ],
            "$defs": {"ToolError": {"type": "object"}},
        });
        let tool = Tool::new("add", "Adds.", std::sync::Arc::new(JsonObject::new()))
            .with_raw_output_schema(std::sync::Arc::new(
                output.as_object().cloned().unwrap_or_default(),
            ));
        let wrapped = wrap_schema(tool);
        let schema = Json::Object((*wrapped.output_schema.expect("a schema")).clone());
        assert_eq!(
            schema["properties"]["data"]["anyOf"],
            json!([{"type": "object", "properties": {"result": {"type": "integer"}}},
                   {"type": "null"}])
        );
        assert_eq!(
            schema["properties"]["error"],
            json!({"anyOf": [{"$ref": "#/$defs/ToolError"}, {"type": "null"}]})
        );
        assert!(schema["$defs"]["ToolError"].is_object());
        assert!(schema["$defs"][META].is_object());
    }

    #[test]
    fn trace_ids_differ() {
        let traces = Traces::default();
        let (a, b) = (traces.next(), traces.next());
        assert_ne!(a, b);
        assert!(a.starts_with("tr_") && a.len() == 19, "{a}");
    }
}
