//! The catalogue as Markdown, for a repository: contents by category, then
//! a section per tool with its parameters, response, errors, stream,
//! actions and an example; then the resources and the prompts, each with
//! its URI, arguments, completions, scopes and errors.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

/// `catalogue.md` for the `GET /api/tools` document.
pub(super) fn render(document: &Value) -> String {
    let tools: Vec<&Value> = document["tools"].as_array().into_iter().flatten().collect();
    let mut by_category: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for tool in &tools {
        by_category
            .entry(text(tool, "category"))
            .or_default()
            .push(tool);
    }
    let mut out = format!(
        "<!-- {} -->\n\n# Tool catalogue\n\n",
        super::super::header::line("run `toolwright docs`")
    );
    let _ = writeln!(out, "{} tools.\n", tools.len());
    for (category, list) in &by_category {
        let _ = writeln!(
            out,
            "- **{category}**: {}",
            list.iter()
                .map(|t| {
                    let name = text(t, "name");
                    format!("[`{name}`](#{})", anchor(name))
                })
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    for (category, list) in &by_category {
        let _ = write!(out, "\n## {category}\n");
        for tool in list {
            tool_section(tool, &mut out);
        }
    }
    for (key, heading) in [("resources", "Resources"), ("prompts", "Prompts")] {
        let entries = document[key].as_array().filter(|e| !e.is_empty());
        if let Some(entries) = entries {
            let _ = write!(out, "\n## {heading}\n");
            for entry in entries {
                entry_section(entry, key == "resources", &mut out);
            }
        }
    }
    out
}

/// A resource's or a prompt's section.
fn entry_section(entry: &Value, resource: bool, out: &mut String) {
    let _ = write!(out, "\n### {}\n\n", text(entry, "name"));
    if let Some(title) = entry.get("title").and_then(Value::as_str) {
        let _ = writeln!(out, "**{}**\n", cell(title));
    }
    if let Some(reason) = entry.get("deprecated").and_then(Value::as_str) {
        let _ = writeln!(out, "> **Deprecated.** {}\n", cell(reason));
    }
    if let Some(description) = entry.get("description").and_then(Value::as_str) {
        let _ = writeln!(out, "{description}\n");
    }
    if resource {
        let mut facts = vec![
            format!("`{}`", text(entry, "uri")),
            format!("`{}`", text(entry, "mimeType")),
        ];
        if entry["subscribable"] == Value::Bool(true) {
            facts.push("subscribable".to_owned());
        }
        let _ = writeln!(out, "{}\n", facts.join(" · "));
    }
    scopes(out, entry);
    let heading = if resource { "Variable" } else { "Argument" };
    parameters(out, heading, &entry["arguments"]);
    let completions: Vec<String> = entry["completions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            let how = match c.get("values").and_then(Value::as_array) {
                Some(values) => {
                    let values: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
                    format!("from {}", values.join(", "))
                }
                None => "by its handler".to_owned(),
            };
            format!("`{}` {}", text(c, "argument"), cell(&how))
        })
        .collect();
    if !completions.is_empty() {
        let _ = writeln!(out, "Completes: {}.\n", completions.join("; "));
    }
    errors(out, entry);
}

fn scopes(out: &mut String, item: &Value) {
    if let Some(scopes) = item
        .get("scopes")
        .and_then(Value::as_array)
        .filter(|s| !s.is_empty())
    {
        let scopes: Vec<String> = scopes
            .iter()
            .filter_map(Value::as_str)
            .map(|s| format!("`{s}`"))
            .collect();
        let _ = writeln!(out, "Requires scopes: {}\n", scopes.join(", "));
    }
}

fn errors(out: &mut String, item: &Value) {
    if let Some(errors) = item
        .get("errors")
        .and_then(Value::as_array)
        .filter(|e| !e.is_empty())
    {
        let _ = writeln!(out, "| Error | When |\n|---|---|");
        for e in errors {
            let _ = writeln!(
                out,
                "| `{}` | {} |",
                text(e, "code"),
                cell(e.get("description").and_then(Value::as_str).unwrap_or(""))
            );
        }
        out.push('\n');
    }
}

fn tool_section(tool: &Value, out: &mut String) {
    let name = text(tool, "name");
    let _ = write!(out, "\n### {name}\n\n");
    let mut facts = vec![format!(
        "`{}`",
        tool.get("timing")
            .and_then(Value::as_str)
            .unwrap_or("actions")
    )];
    let annotations = &tool["annotations"];
    for (key, label) in [
        ("readOnlyHint", "read-only"),
        ("destructiveHint", "destructive"),
        ("idempotentHint", "idempotent"),
        ("openWorldHint", "open world"),
    ] {
        if annotations[key] == Value::Bool(true) {
            facts.push(label.to_owned());
        }
    }
    if tool["streams"] == Value::Bool(true) {
        facts.push("streams".to_owned());
    }
    if let Some(title) = tool.get("title").and_then(Value::as_str) {
        let _ = writeln!(out, "**{}**\n", cell(title));
    }
    if let Some(reason) = tool.get("deprecated").and_then(Value::as_str) {
        let _ = writeln!(out, "> **Deprecated.** {}\n", cell(reason));
    }
    if let Some(description) = tool.get("description").and_then(Value::as_str) {
        let _ = writeln!(out, "{description}\n");
    }
    let _ = writeln!(out, "{}\n", facts.join(" · "));
    scopes(out, tool);
    // An action tool's merged parameters (those with `actions`) repeat its
    // actions' own tables: at tool level only `action` is shown.
    let own: Value = tool["parameters"]
        .as_array()
        .map(|list| {
            list.iter()
                .filter(|p| p.get("actions").is_none())
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    parameters(out, "Parameters", &own);
    if tool.get("actions").is_none() {
        parameters(out, "Response", &tool["response"]);
    }
    if let Some(stream) = tool.get("stream") {
        let _ = writeln!(
            out,
            "Streams `{}`{}.\n",
            text(stream, "idlType"),
            stream
                .get("description")
                .and_then(Value::as_str)
                .map(|d| format!(": {}", cell(d)))
                .unwrap_or_default()
        );
    }
    errors(out, tool);
    for action in tool
        .get("actions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let _ = writeln!(
            out,
            "#### action `{}` (`{}`)\n",
            text(action, "name"),
            text(action, "timing")
        );
        if let Some(description) = action.get("description").and_then(Value::as_str) {
            let _ = writeln!(out, "{description}\n");
        }
        parameters(out, "Parameters", &action["parameters"]);
        parameters(out, "Response", &action["response"]);
        examples(out, action);
    }
    examples(out, tool);
}

fn parameters(out: &mut String, heading: &str, list: &Value) {
    let Some(list) = list.as_array().filter(|l| !l.is_empty()) else {
        if heading == "Response" {
            let _ = writeln!(out, "Response: an acknowledgement, no fields.\n");
        }
        return;
    };
    let _ = writeln!(out, "| {heading} | Type | | About |\n|---|---|---|---|");
    for p in list {
        let mut about = vec![cell(
            p.get("description").and_then(Value::as_str).unwrap_or(""),
        )];
        if let Some(default) = p.get("default") {
            about.push(format!("default `{default}`"));
        }
        if let Some(constraints) = p.get("constraints") {
            about.push(format!("`{constraints}`"));
        }
        if p.get("deprecated").is_some() {
            about.push("**deprecated**".to_owned());
        }
        let required = if p["required"] == Value::Bool(true) {
            "required"
        } else {
            "optional"
        };
        let _ = writeln!(
            out,
            "| `{}` | `{}` | {required} | {} |",
            text(p, "name"),
            cell(
                p.get("idlType")
                    .and_then(Value::as_str)
                    .unwrap_or_else(|| text(p, "type"))
            ),
            about
                .into_iter()
                .filter(|a| !a.is_empty())
                .collect::<Vec<_>>()
                .join(" · ")
        );
    }
    out.push('\n');
}

/// The declared examples of a tool or action, each with its outcome; or,
/// when it declares none, a sample request made from its types (never an
/// invented response).
fn examples(out: &mut String, entry: &Value) {
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap_or_default();
    let declared = entry["examples"].as_array().map_or(&[][..], Vec::as_slice);
    for example in declared {
        let _ = writeln!(
            out,
            "Example: {}

```json
{}
```
",
            text(example, "title"),
            pretty(&example["request"])
        );
        if let Some(response) = example.get("response") {
            let _ = writeln!(out, "Answers:\n\n```json\n{}\n```\n", pretty(response));
        } else if let Some(error) = example.get("error") {
            let _ = write!(out, "Fails with `{}`", text(error, "code"));
            match error.get("details") {
                Some(details) => {
                    let _ = writeln!(out, ":\n\n```json\n{}\n```\n", pretty(details));
                }
                None => out.push_str(".\n\n"),
            }
        } else {
            out.push_str("Succeeds.\n\n");
        }
    }
    if declared.is_empty()
        && let Some(request) = entry["example"].get("request")
    {
        let _ = writeln!(
            out,
            "Sample request (made from the types; no example is declared):\n\n```json\n{}\n```\n",
            pretty(request)
        );
    }
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}

/// Text for a table cell: one line, `|` escaped.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// GitHub's anchor for a heading of one word (tool names are snake_case).
fn anchor(name: &str) -> String {
    name.to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_that_needs_no_scopes_says_nothing_of_them() {
        let document = serde_json::json!({"tools": [{
            "name": "add", "category": "math", "timing": "sync",
            "annotations": {}, "scopes": [], "parameters": [], "streams": false
        }]});
        assert!(!render(&document).contains("scopes"));
    }

    #[test]
    fn a_tool_gets_a_section_with_its_tables() {
        let document = serde_json::json!({"tools": [{
            "name": "add", "category": "math", "timing": "sync", "title": "Add",
            "description": "Adds | numbers.",
            "annotations": {"readOnlyHint": true},
            "scopes": ["math:read", "math:add"],
            "parameters": [{"name": "a", "type": "integer", "idlType": "i64", "required": true}],
            "response": [{"name": "result", "type": "integer", "idlType": "i64", "required": true}],
            "errors": [{"code": "OVERFLOW", "name": "overflow", "description": "Too big."}],
            "streams": false,
            "example": {"request": {"a": 1}, "response": {"result": 1}}
        }]});
        let md = render(&document);
        assert!(md.contains("- **math**: [`add`](#add)"));
        assert!(md.contains("### add"));
        assert!(md.contains("| `a` | `i64` | required |"));
        assert!(md.contains("| `OVERFLOW` | Too big. |"));
        assert!(md.contains("`sync` · read-only\n\nRequires scopes: `math:read`, `math:add`\n"));
        assert!(md.contains("```json\n{\n  \"a\": 1\n}\n```"));
    }

    #[test]
    fn resources_and_prompts_get_sections_of_their_own() {
        let document = serde_json::json!({"tools": [], "resources": [{
            "name": "cas_object", "uri": "cas://objects/{hash}", "mimeType": "image/png",
            "subscribable": true, "scopes": ["cas:read"],
            "arguments": [{"name": "hash", "type": "string", "idlType": "string", "required": true}],
            "completions": [{"argument": "hash", "by": "handler"}], "errors": []
        }], "prompts": [{
            "name": "compose", "description": "Ask for a tune.", "scopes": [],
            "arguments": [{"name": "key", "type": "string", "idlType": "Key", "required": true}],
            "completions": [{"argument": "key", "by": "enum", "values": ["c_major", "a_minor"]}],
            "errors": []
        }]});
        let md = render(&document);
        assert!(md.contains("## Resources\n\n### cas_object\n"));
        assert!(md.contains("`cas://objects/{hash}` · `image/png` · subscribable\n"));
        assert!(md.contains("Requires scopes: `cas:read`"));
        assert!(md.contains("| `hash` | `string` | required |"));
        assert!(md.contains("Completes: `hash` by its handler."));
        assert!(md.contains("## Prompts\n\n### compose\n\nAsk for a tune.\n"));
        assert!(md.contains("Completes: `key` from c_major, a_minor."));
    }
}
