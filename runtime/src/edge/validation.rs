//! Saying what a bad argument should have been. The dispatcher's decode
//! names the field (`field `a`: wrong type: found a string`, `missing field
//! `b``); the tool's JSON Schema says what that field takes, so the model
//! reading the error can fix its call in one go.

use serde_json::json;

use super::{JsonObject, Schema};
use crate::{Json, ToolError, ToolInfo, codes};

/// `error` with the failing field and its expected type added, when the
/// message names a field the tool's schema describes.
pub(crate) fn explain(
    mut error: ToolError,
    schema: &Schema,
    tool: &ToolInfo,
    args: &JsonObject,
) -> ToolError {
    if error.code != codes::INVALID_REQUEST || error.details.is_some() {
        return error;
    }
    let Some(field) = field(&error.message) else {
        return error;
    };
    let expected = input_schemas(schema, tool, args)
        .into_iter()
        .find_map(|root| describe(lookup(root, &field)?));
    let mut details = json!({ "field": field });
    if let Some(expected) = expected {
        error.message = format!("{}; expected {expected}", error.message);
        details["expected"] = Json::from(expected);
    }
    error.details = Some(details);
    error
}

/// The field a decode error is about: the path of "field `p`: …", joined
/// with the name in "missing field `x`" or "unknown field `x`".
fn field(message: &str) -> Option<String> {
    let path = message
        .strip_prefix("field `")
        .and_then(|rest| rest.split_once("`: "))
        .map(|(path, _)| path);
    let named = ["missing field `", "unknown field `"]
        .iter()
        .find_map(|prefix| {
            let start = message.find(prefix)? + prefix.len();
            let end = message[start..].find('`')?;
            Some(&message[start..start + end])
        });
    match (path, named) {
        (Some(path), Some(name)) => Some(format!("{path}.{name}")),
        (Some(path), None) => Some(path.to_owned()),
        (None, Some(name)) => Some(name.to_owned()),
        (None, None) => None,
    }
}

/// The schemas a call's arguments are checked against: an action's own,
/// then the tool's.
fn input_schemas<'a>(
    schema: &'a Schema,
    tool: &ToolInfo,
    args: &JsonObject,
) -> Vec<&'a JsonObject> {
    let action = args
        .get("action")
        .and_then(Json::as_str)
        .and_then(|action| schema.action(tool.name, action))
        .and_then(|a| a.input_schema.as_ref()?.as_object());
    let whole = schema.input(tool.name);
    action.into_iter().chain(whole).collect()
}

/// Deepest nesting followed: schemas are generated and shallow; the bound
/// keeps a reference cycle from looping.
const MAX_STEPS: usize = 64;

/// The schema of the field at `path` (`a.b[2].c`) under `root`.
fn lookup<'a>(root: &'a JsonObject, path: &str) -> Option<&'a JsonObject> {
    let mut at = resolve(root, root)?;
    for segment in path.split('.') {
        let (name, indices) = match segment.find('[') {
            Some(i) => segment.split_at(i),
            None => (segment, ""),
        };
        if !name.is_empty() {
            let properties = at.get("properties")?.as_object()?;
            at = resolve(root, properties.get(name)?.as_object()?)?;
        }
        for _ in indices.matches('[') {
            let items = at
                .get("items")
                .or_else(|| at.get("additionalProperties"))?
                .as_object()?;
            at = resolve(root, items)?;
        }
    }
    Some(at)
}

/// Follows local `$ref`s (`#/$defs/Name`) and a nullable wrapper
/// (`anyOf: [T, {type: null}]`) to the schema that says the type.
fn resolve<'a>(root: &'a JsonObject, mut at: &'a JsonObject) -> Option<&'a JsonObject> {
    for _ in 0..MAX_STEPS {
        if let Some(reference) = at.get("$ref").and_then(Json::as_str) {
            let name = reference.strip_prefix("#/$defs/")?;
            at = root.get("$defs")?.get(name)?.as_object()?;
            continue;
        }
        let alternatives = at.get("anyOf").or_else(|| at.get("oneOf"));
        if let Some(Json::Array(alternatives)) = alternatives {
            let mut not_null = alternatives
                .iter()
                .filter_map(Json::as_object)
                .filter(|s| s.get("type").and_then(Json::as_str) != Some("null"));
            if let (Some(only), None) = (not_null.next(), not_null.next()) {
                at = only;
                continue;
            }
        }
        return Some(at);
    }
    None
}

/// "integer (int64)", "one of `wav`, `mp3`", "string or null".
fn describe(schema: &JsonObject) -> Option<String> {
    if let Some(Json::Array(values)) = schema.get("enum") {
        let values: Vec<String> = values
            .iter()
            .map(|v| format!("`{}`", v.to_string().trim_matches('"')))
            .collect();
        return Some(format!("one of {}", values.join(", ")));
    }
    let mut described = match schema.get("type")? {
        Json::String(t) => t.clone(),
        Json::Array(types) => {
            let types: Vec<&str> = types.iter().filter_map(Json::as_str).collect();
            types.join(" or ")
        }
        _ => return None,
    };
    if let Some(format) = schema.get("format").and_then(Json::as_str) {
        described.push_str(&format!(" ({format})"));
    }
    Some(described)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ToolInfo, ToolTiming};

    /// The shape the generator emits: self-contained schemas with local
    /// `$defs`.
    const SCHEMA: &str = r##"{
        "tools": [{
            "name": "mix",
            "description": "Mix tracks.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "gain": {"type": "number", "format": "float"},
                    "tracks": {"type": "array", "items": {"$ref": "#/$defs/Track"}},
                    "format": {"anyOf": [{"$ref": "#/$defs/Format"}, {"type": "null"}]}
                },
                "required": ["tracks"],
                "$defs": {
                    "Track": {
                        "type": "object",
                        "properties": {"id": {"type": "integer", "format": "uint32"}}
                    },
                    "Format": {"type": "string", "enum": ["wav", "mp3"]}
                }
            }
        }],
        "actions": {}
    }"##;

    const MIX: ToolInfo = ToolInfo {
        name: "mix",
        title: None,
        description: "Mix tracks.",
        timing: ToolTiming::Sync,
        actions: &[],
        streams: false,
        paged: false,
        task_required: false,
        builtin: false,
        toolsets: &["studio"],
        scopes: &[],
    };

    fn explained(message: &str) -> ToolError {
        let schema = Schema::parse(SCHEMA).expect("the schema parses");
        explain(
            ToolError::invalid_request(message),
            &schema,
            &MIX,
            &JsonObject::new(),
        )
    }

    #[test]
    fn a_top_level_field_gets_its_type() {
        let e = explained("field `gain`: wrong type: found a string");
        assert_eq!(
            e.message,
            "field `gain`: wrong type: found a string; expected number (float)"
        );
        assert_eq!(
            e.details,
            Some(json!({"field": "gain", "expected": "number (float)"}))
        );
    }

    #[test]
    fn a_nested_field_is_found_through_refs_and_items() {
        let e = explained("field `tracks[1].id`: wrong type: found a string");
        assert_eq!(
            e.details,
            Some(json!({"field": "tracks[1].id", "expected": "integer (uint32)"}))
        );
    }

    #[test]
    fn an_optional_enum_lists_its_values() {
        let e = explained("field `format`: unknown variant `flac`");
        assert_eq!(
            e.details.expect("details")["expected"],
            "one of `wav`, `mp3`"
        );
    }

    #[test]
    fn a_missing_field_is_named() {
        let e = explained("missing field `tracks`");
        assert_eq!(
            e.details,
            Some(json!({"field": "tracks", "expected": "array"}))
        );
        let e = explained("field `tracks[0]`: missing field `id`");
        assert_eq!(e.details.expect("details")["field"], "tracks[0].id");
    }

    #[test]
    fn a_field_the_schema_does_not_know_keeps_the_message() {
        let e = explained("field `volume`: wrong type: found a string");
        assert_eq!(e.message, "field `volume`: wrong type: found a string");
        assert_eq!(e.details, Some(json!({"field": "volume"})));
    }

    #[test]
    fn other_errors_pass_through() {
        let e = explained("truncated MsgPack: the input ends inside a value");
        assert_eq!(e.details, None);
    }
}
