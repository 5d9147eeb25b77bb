//! Tools as MCP `Tool` objects: name, title, description, annotations, and
//! self-contained input and output schemas.

use serde_json::{Map, Value as Json, json};

use super::defs::{rooted, with_defs};
use super::dialect::DIALECT;
use super::input::request;
use super::types::{Cx, describe};
use super::{SCOPES_META, actions, apps, output, reach};
use crate::model::{Endpoint, Tool, ToolKind, TypeId};

/// The `_meta` key that names a tool's typed errors:
/// `{"type": "<IDL error type>", "codes": ["NOT_FOUND", …]}`.
const ERRORS_META: &str = "toolwright/errors";

/// The `_meta` key that lists the requests of a tool's declared examples
/// (an action's name included), as a model may be shown them: what
/// Anthropic's `input_examples` takes. Left out when none is declared.
pub(crate) const INPUT_EXAMPLES_META: &str = "toolwright/inputExamples";

/// One tool as MCP lists it, and for an action tool its actions' own
/// schemas (`{"<action>": {"description", "inputSchema", "outputSchema"}}`).
pub(super) fn tool(cx: &Cx<'_>, tool: &Tool) -> (Json, Option<Json>) {
    let (mut input, output, actions) = match &tool.kind {
        ToolKind::Single(endpoint) => {
            let (input, output) = single(cx, endpoint);
            (input, output, None)
        }
        ToolKind::Actions(list) => {
            let schemas = actions::schemas(cx, list);
            (schemas.input, schemas.output, Some(schemas.actions))
        }
    };
    if tool.deprecated.is_some() {
        input.insert("deprecated".into(), json!(true));
    }
    // 2020-12 is MCP's default dialect, but `$defs` is that dialect's own
    // keyword (draft-07 has `definitions`): a schema that uses it says so,
    // for validators that default to an older draft.
    if input.contains_key("$defs") {
        input.insert("$schema".into(), json!(DIALECT));
    }
    let mut object = Map::new();
    object.insert("name".into(), json!(tool.name));
    if let Some(title) = &tool.title {
        object.insert("title".into(), json!(title));
    }
    if let Some(description) = tool_description(tool) {
        object.insert("description".into(), json!(description));
    }
    object.insert("inputSchema".into(), Json::Object(input));
    object.insert(
        "outputSchema".into(),
        Json::Object(output::with_error(output)),
    );
    object.insert("annotations".into(), annotations(tool));
    let mut meta = Map::new();
    if let Some(errors) = tool.errors {
        meta.insert(ERRORS_META.into(), errors_pointer(cx, tool, errors));
    }
    if !tool.scopes.is_empty() {
        meta.insert(
            SCOPES_META.into(),
            json!(tool.scope_names().collect::<Vec<_>>()),
        );
    }
    if let Some(ui) = apps::tool_meta(tool) {
        meta.insert(apps::UI_META.into(), ui);
    }
    let examples = input_examples(tool);
    if !examples.is_empty() {
        meta.insert(INPUT_EXAMPLES_META.into(), Json::Array(examples));
    }
    if !meta.is_empty() {
        object.insert("_meta".into(), Json::Object(meta));
    }
    (Json::Object(object), actions)
}

/// The request of each declared example of the tool or its actions, in
/// declaration order, each as a call sends it.
fn input_examples(tool: &Tool) -> Vec<Json> {
    tool.examples_with_actions()
        .into_iter()
        .map(|(action, e)| e.call(action.map(|a| a.name.as_str())))
        .collect()
}

/// What `tools/list` says of a tool's errors: their type and codes. The
/// schema itself ([`error_schema`]) is a few hundred tokens per tool, and
/// `tools/list` repeats it for every tool of a category, so the listing
/// only points to it.
fn errors_pointer(cx: &Cx<'_>, tool: &Tool, errors: TypeId) -> Json {
    let codes: Vec<&str> = cx
        .model
        .error_variants(tool)
        .iter()
        .filter_map(|v| v.code.as_deref())
        .collect();
    json!({ "type": cx.model.type_def(errors).name, "codes": codes })
}

/// The JSON Schema of `details` in a tool's typed errors
/// (`{"<variant>": {<fields>}}`; docs/wire.md), self-contained.
pub(super) fn error_schema(cx: &Cx<'_>, errors: TypeId) -> Json {
    Json::Object(rooted(
        cx.type_schema(cx.model.type_def(errors)),
        cx,
        Some(errors),
    ))
}

/// The tool's docs; a deprecated tool says so first, where a model reads
/// it before choosing the tool.
fn tool_description(tool: &Tool) -> Option<String> {
    match &tool.deprecated {
        Some(deprecation) => {
            let note = describe(None, Some(deprecation));
            match (note, &tool.docs) {
                (Some(note), Some(docs)) => Some(format!("{note}\n\n{docs}")),
                (note, None) => note,
                (None, docs) => docs.clone(),
            }
        }
        None => tool.docs.clone(),
    }
}

/// MCP's hints, each stated: MCP's defaults (destructive, open world)
/// are not what a tool without the attributes means.
fn annotations(tool: &Tool) -> Json {
    let a = tool.annotations;
    let mut object = Map::new();
    if let Some(title) = &tool.title {
        object.insert("title".into(), json!(title));
    }
    object.insert("readOnlyHint".into(), json!(a.read_only));
    object.insert("destructiveHint".into(), json!(a.destructive));
    object.insert("idempotentHint".into(), json!(a.idempotent));
    object.insert("openWorldHint".into(), json!(a.open_world));
    Json::Object(object)
}

/// Input and output schemas of a plain tool.
fn single(cx: &Cx<'_>, endpoint: &Endpoint) -> (Map<String, Json>, Map<String, Json>) {
    let input = rooted(request(cx, endpoint.request), cx, endpoint.request);
    let answered =
        reach::answered_from(cx.model, &endpoint.response.into_iter().collect::<Vec<_>>());
    let mut output = with_defs(
        output::with_timing(output::response(cx, endpoint.response), endpoint.timing),
        cx,
        &answered,
    );
    output::define_job_handle(&mut output, std::iter::once(endpoint.timing));
    (input, output)
}
