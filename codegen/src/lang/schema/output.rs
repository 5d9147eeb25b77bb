//! What a `tools/call` answers with, as the MCP server sends it: the
//! response without its `tool` key, `{}` for a tool without a response, a
//! job handle for calls that run on as jobs, or a tool error (`isError`).

use serde_json::{Map, Value as Json, json};

use crate::model::{Timing, TypeId};

use super::types::{Cx, DEFS_PREFIX};

/// The job handle's name: its file is `types/JobHandle.json`, its `$defs`
/// entry `JobHandle` (a reserved type name, so no declared type clashes).
pub(super) const JOB_HANDLE: &str = "JobHandle";

/// The tool error's name in `$defs` (a reserved type name).
pub(super) const TOOL_ERROR: &str = "ToolError";

/// The structured content of a result with `isError: true`.
fn tool_error() -> Json {
    json!({
        "type": "object",
        "description": "The call failed (`isError: true`): a stable error code, a message, and details when the error has fields.",
        "properties": {
            "code": {
                "type": "string",
                "description": "A built-in code such as `INVALID_REQUEST`, or one of the tool's error codes.",
            },
            "message": {
                "type": "string",
                "description": "What went wrong, for people.",
            },
            "details": {
                "description": "The error variant's fields, or what the runtime adds (the field at fault, the available actions).",
            },
        },
        "required": ["code", "message"],
        "additionalProperties": false,
    })
}

/// Lets a root output schema also describe a tool error. MCP clients may
/// check `structuredContent` against `outputSchema` even when `isError` is
/// set (the TypeScript SDK's `callTool` does), so the error is one more
/// alternative: `{"type": "object", "$defs": {…, "ToolError"}, "anyOf":
/// [<the schema>, …, {"$ref": "#/$defs/ToolError"}]}`.
pub(super) fn with_error(mut root: Map<String, Json>) -> Map<String, Json> {
    let mut defs = match root.remove("$defs") {
        Some(Json::Object(defs)) => defs,
        _ => Map::new(),
    };
    defs.insert(TOOL_ERROR.into(), tool_error());
    let error = json!({ "$ref": format!("{DEFS_PREFIX}{TOOL_ERROR}") });
    // A schema that is only a choice already gains one more branch;
    // anything else becomes the first branch of a new choice.
    let only_choice = root.len() == 2
        && root.get("type") == Some(&json!("object"))
        && matches!(root.get("anyOf"), Some(Json::Array(_)));
    let mut out = if only_choice {
        if let Some(Json::Array(branches)) = root.get_mut("anyOf") {
            branches.push(error);
        }
        root
    } else {
        let mut choice = Map::new();
        choice.insert("type".into(), json!("object"));
        choice.insert("anyOf".into(), json!([Json::Object(root), error]));
        choice
    };
    out.insert("$defs".into(), Json::Object(defs));
    out
}

/// The answer to a call that runs on as a job: `{"job_id", "tool",
/// "expected_timing"}`.
pub(super) fn job_handle() -> Map<String, Json> {
    let timings: Vec<&str> = Timing::NAMES
        .iter()
        .copied()
        .filter(|t| *t != Timing::Sync.as_str())
        .collect();
    let schema = json!({
        "type": "object",
        "description": "The call runs on as a job. Wait for its result with `job_poll`, check it with `job_status`, stop it with `job_cancel`.",
        "properties": {
            "job_id": {
                "type": "string",
                "description": "The job's ID, for the job tools.",
            },
            "tool": {
                "type": "string",
                "description": "The tool the job runs.",
            },
            "expected_timing": {
                "type": "string",
                "enum": timings,
                "description": "The tool's timing class: how long the job is expected to take.",
            },
        },
        "required": ["job_id", "tool", "expected_timing"],
    });
    match schema {
        Json::Object(map) => map,
        _ => Map::new(),
    }
}

/// The structured content of a finished call: the response's fields (but
/// its `@content` fields, which the MCP edge sends as content blocks), or
/// an empty object for a tool without a response.
pub(super) fn response(cx: &Cx<'_>, response: Option<TypeId>) -> Map<String, Json> {
    match response {
        Some(id) => {
            let def = cx.model.type_def(id);
            let mut schema = cx.type_schema(def);
            for field in def
                .kind
                .fields()
                .into_iter()
                .filter(|f| f.content.is_some())
            {
                if let Some(Json::Object(properties)) = schema.get_mut("properties") {
                    properties.remove(&field.name);
                }
                if let Some(Json::Array(required)) = schema.get_mut("required") {
                    required.retain(|name| name != field.name.as_str());
                }
            }
            schema
        }
        None => {
            let mut schema = Map::new();
            schema.insert("type".into(), json!("object"));
            schema
        }
    }
}

/// `finished` for a `sync` call; otherwise either it or a job handle,
/// since any other timing class may answer with a job. The handle is a
/// `$ref`: [`define_job_handle`] puts it in the root's `$defs`.
pub(super) fn with_timing(finished: Map<String, Json>, timing: Timing) -> Map<String, Json> {
    if timing == Timing::Sync {
        return finished;
    }
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    schema.insert(
        "anyOf".into(),
        json!([
            Json::Object(finished),
            { "$ref": format!("{DEFS_PREFIX}{JOB_HANDLE}") },
        ]),
    );
    schema
}

/// Adds the job handle to a root schema's `$defs` when any of `timings`
/// may answer with one.
pub(super) fn define_job_handle(
    root: &mut Map<String, Json>,
    mut timings: impl Iterator<Item = Timing>,
) {
    if !timings.any(|t| t != Timing::Sync) {
        return;
    }
    let defs = root
        .entry("$defs")
        .or_insert_with(|| Json::Object(Map::new()));
    if let Json::Object(defs) = defs {
        defs.insert(JOB_HANDLE.into(), Json::Object(job_handle()));
    }
}
