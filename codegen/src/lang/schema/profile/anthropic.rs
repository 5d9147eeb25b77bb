//! Anthropic tool use: `{"name", "description", "input_schema"}`. The
//! Messages API takes a JSON Schema object as the input schema, `$defs`
//! and `$ref` included, so the MCP input schema goes as it is; only the
//! keys are renamed.

use serde_json::{Map, Value as Json, json};

pub(super) fn tool(tool: &Json) -> Json {
    let mut out = Map::new();
    out.insert("name".into(), tool["name"].clone());
    if let Some(description) = super::description(tool) {
        out.insert("description".into(), json!(description));
    }
    out.insert("input_schema".into(), tool["inputSchema"].clone());
    Json::Object(out)
}
