//! The entries of `registry.py`: the shared metadata of tools, resources
//! and prompts ([`crate::lang::metadata`]) written as Python literals, which
//! `ToolMetadata.model_validate` (and its siblings) read as they read
//! `GET /api/tools`.

use serde_json::Value;

use super::line::LINE;
use super::names;
use crate::model::{Model, Tool};

/// A tool's entry as a Python literal, indented for a place in a tuple.
pub(super) fn tool_entry(model: &Model, tool: &Tool) -> String {
    entry(&crate::lang::metadata::entry(model, tool))
}

/// An entry (a tool's, a resource's or a prompt's metadata) as a Python
/// literal, indented for a place in a tuple.
pub(super) fn entry(metadata: &impl serde::Serialize) -> String {
    let entry = serde_json::to_value(metadata).unwrap_or(Value::Null);
    let mut out = String::from("    ");
    literal(&entry, 4, 4, &mut out);
    out
}

/// Writes `value` as a Python literal on a line indented by `indent`, of
/// which `column` columns are used: short containers on one line, longer
/// ones one item per line, as a formatter would.
fn literal(value: &Value, indent: usize, column: usize, out: &mut String) {
    let flat = flat(value);
    if column + flat.len() < LINE || !matches!(value, Value::Array(_) | Value::Object(_)) {
        out.push_str(&flat);
        return;
    }
    let inner = " ".repeat(indent + 4);
    match value {
        Value::Array(items) => {
            out.push_str("[\n");
            for item in items {
                out.push_str(&inner);
                literal(item, indent + 4, indent + 4, out);
                out.push_str(",\n");
            }
        }
        Value::Object(fields) => {
            out.push_str("{\n");
            for (key, item) in fields {
                out.push_str(&inner);
                out.push_str(&names::string(key));
                out.push_str(": ");
                let key_width = names::string(key).len() + 2;
                literal(item, indent + 4, indent + 4 + key_width, out);
                out.push_str(",\n");
            }
        }
        _ => unreachable!("scalars are written flat"),
    }
    out.push_str(&" ".repeat(indent));
    out.push(if value.is_array() { ']' } else { '}' });
}

/// `value` as a Python literal on one line.
fn flat(value: &Value) -> String {
    match value {
        Value::Null => "None".to_owned(),
        Value::Bool(true) => "True".to_owned(),
        Value::Bool(false) => "False".to_owned(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => names::string(s),
        Value::Array(items) => {
            format!(
                "[{}]",
                items.iter().map(flat).collect::<Vec<_>>().join(", ")
            )
        }
        Value::Object(fields) => format!(
            "{{{}}}",
            fields
                .iter()
                .map(|(k, v)| format!("{}: {}", names::string(k), flat(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_becomes_python() {
        let value = json!({"a": [true, false, null, 1.5, -2], "b": "x\"y"});
        assert_eq!(
            flat(&value),
            r#"{"a": [True, False, None, 1.5, -2], "b": "x\"y"}"#
        );
    }

    #[test]
    fn long_containers_break_one_item_per_line() {
        let value = json!({"k": ["a".repeat(50), "b".repeat(50)]});
        let mut out = String::new();
        literal(&value, 0, 0, &mut out);
        assert_eq!(
            out,
            format!(
                "{{\n    \"k\": [\n        \"{}\",\n        \"{}\",\n    ],\n}}",
                "a".repeat(50),
                "b".repeat(50)
            )
        );
    }
}
