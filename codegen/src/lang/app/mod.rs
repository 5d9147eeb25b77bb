//! The generated MCP App of a tool with `@app` and no file: one
//! self-contained page (`app.html`, its script in `form.js`, `result.js`
//! and `host.js`) filled with the tool's MCP entry. Used by the schema
//! backend, which carries every app's HTML in the MCP schema.

use serde_json::{Map, Value as Json, json};

use crate::model::{Model, Timing, Tool, ToolKind};

/// The page. It holds [`PLACEHOLDER`] once, inside `<script
/// type="application/json" id="toolwright-tool">`, and [`SCRIPT`] once,
/// where its script goes.
const TEMPLATE: &str = include_str!("app.html");

/// The page's script, in three parts kept apart for their readers, joined
/// in this order into one scope.
const SCRIPT_PARTS: [&str; 3] = [
    include_str!("form.js"),
    include_str!("result.js"),
    include_str!("host.js"),
];

/// What [`page`] replaces with the tool's JSON.
const PLACEHOLDER: &str = "__TOOLWRIGHT_TOOL__";

/// What [`page`] replaces with the script.
const SCRIPT: &str = "__TOOLWRIGHT_SCRIPT__";

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
    fill(&script_json(&Json::Object(object)))
}

/// The template with `tool` and the script in place of their
/// placeholders, each found in the template itself (so no text of the
/// tool's can be taken for one).
fn fill(tool: &str) -> String {
    let script = SCRIPT_PARTS.join("\n");
    let mut out = String::with_capacity(TEMPLATE.len() + tool.len() + script.len());
    let mut rest = TEMPLATE;
    let mut marks = [(PLACEHOLDER, tool), (SCRIPT, script.as_str())];
    marks.sort_by_key(|(mark, _)| TEMPLATE.find(mark));
    for (mark, with) in marks {
        let Some(at) = rest.find(mark) else {
            continue;
        };
        out.push_str(&rest[..at]);
        out.push_str(with);
        rest = &rest[at + mark.len()..];
    }
    out.push_str(rest);
    out
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
        assert_eq!(TEMPLATE.matches(SCRIPT).count(), 1);
        for part in SCRIPT_PARTS {
            assert!(!part.contains("</script"), "a part would end the script");
            assert!(!part.contains(PLACEHOLDER) && !part.contains(SCRIPT));
        }
        let page = fill("{}");
        assert!(!page.contains(PLACEHOLDER) && !page.contains(SCRIPT));
        assert!(page.contains(SCRIPT_PARTS[2]));
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
