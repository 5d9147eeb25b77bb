//! Anthropic tool use: `{"name", "description", "input_schema"}`, and
//! `input_examples` when the tool declares examples. The Messages API
//! takes a JSON Schema object as the input schema, `$defs` and `$ref`
//! included, so the MCP input schema goes as it is; only the keys are
//! renamed. The examples are the requests of the tool's declared
//! examples, each of which the checker proved against that schema's types.

use serde_json::{Map, Value as Json, json};

pub(super) fn tool(tool: &Json) -> Json {
    let mut out = Map::new();
    out.insert("name".into(), tool["name"].clone());
    if let Some(description) = super::description(tool) {
        out.insert("description".into(), json!(description));
    }
    out.insert("input_schema".into(), tool["inputSchema"].clone());
    if let Some(examples) = tool["_meta"].get(crate::lang::schema::INPUT_EXAMPLES_META) {
        out.insert("input_examples".into(), examples.clone());
    }
    Json::Object(out)
}
