//! The generated MCP App of a tool with `@app` and no file: one
//! self-contained page (`app.html`) filled with the tool's MCP entry. Used
//! by the schema backend, which carries every app's HTML in the MCP schema.

use serde_json::{Map, Value as Json, json};

use crate::model::{Model, Timing, Tool, ToolKind};

/// The page. It holds [`PLACEHOLDER`] once, inside `<script
/// type="application/json" id="toolwright-tool">`.
const TEMPLATE: &str = include_str!("app.html");

/// What [`page`] replaces with the tool's JSON.
const PLACEHOLDER: &str = "__TOOLWRIGHT_TOOL__";

/// The page for `tool`, whose `tools/list` entry is `listed`: the
/// template with `{"name", "title"?, "description"?, "inputSchema",
/// "outputSchema"?, "errors"?: [{"code", "name", "description"?}],
/// "timing"}` in place of its placeholder.
pub(crate) fn page(model: &Model, tool: &Tool, listed: &Json) -> String {
    let mut object = Map::new();
    for key in [
        "name",
        "title",
        "description",
        "inputSchema",
        "outputSchema",
    ] {
        if let Some(value) = listed.get(key) {
            object.insert(key.into(), value.clone());
        }
    }
    let errors: Vec<Json> = model
        .error_variants(tool)
        .iter()
        .map(|variant| {
            let mut error = Map::new();
            error.insert("code".into(), json!(variant.code));
            error.insert("name".into(), json!(variant.name));
            if let Some(docs) = &variant.docs {
                error.insert("description".into(), json!(docs));
            }
            Json::Object(error)
        })
        .collect();
    if !errors.is_empty() {
        object.insert("errors".into(), Json::Array(errors));
    }
    object.insert("timing".into(), json!(timing(tool).as_str()));
    TEMPLATE.replacen(PLACEHOLDER, &script_json(&Json::Object(object)), 1)
}

/// The tool's timing; an action tool's is its slowest action's, which
/// says the most a call of it may wait.
fn timing(tool: &Tool) -> Timing {
    match &tool.kind {
        ToolKind::Single(endpoint) => endpoint.timing,
        ToolKind::Actions(actions) => actions
            .iter()
            .map(|a| a.endpoint.timing)
            .max()
            .unwrap_or(Timing::Sync),
    }
}

/// `value` as JSON text that cannot end its `<script>` element early:
/// every `<` is written `\u003c`, which a JSON parser reads back as `<`.
fn script_json(value: &Json) -> String {
    value.to_string().replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_holds_the_placeholder_once_in_its_script() {
        assert_eq!(TEMPLATE.matches(PLACEHOLDER).count(), 1);
        let script = r#"<script type="application/json" id="toolwright-tool">"#;
        let start = TEMPLATE.find(script).expect("the tool's script element") + script.len();
        let end = start + TEMPLATE[start..].find("</script>").expect("its end");
        assert_eq!(&TEMPLATE[start..end], PLACEHOLDER);
    }

    #[test]
    fn no_string_can_close_the_script() {
        let text = script_json(&json!({"description": "a </script><b>"}));
        assert!(!text.contains('<'));
        let back: Json = serde_json::from_str(&text).unwrap();
        assert_eq!(back["description"], "a </script><b>");
    }
}
