//! Gemini function declarations: `{"name", "description", "parameters"}`,
//! where `parameters` is Gemini's subset of the OpenAPI 3.0 schema
//! object (the `Schema` message of the Gemini API reference): `type` in
//! capitals, `nullable` instead of a `null` type, `anyOf` but no `oneOf`,
//! no `$ref` or `$defs`, no `additionalProperties`, and only the keywords
//! in [`KEPT`].
//!
//! References are written out in place. What the subset cannot say — a
//! type inside itself past [`UNROLL`] levels, a map, a value of any JSON
//! type, an object without properties — is left out of the declaration:
//! the property disappears (and from `required`), so the model does not
//! send it; the server still accepts it from other callers.

use serde_json::{Map, Value as Json, json};

/// The keywords Gemini's schema takes beside the structural ones handled
/// below; every other one is dropped.
const KEPT: &[&str] = &[
    "description",
    "enum",
    "format",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
    "pattern",
    "minProperties",
    "maxProperties",
    "default",
];

/// How many times a type is written out inside itself before the rest of
/// it is left out: enough for a model to build a sum of two literals or a
/// tree of two levels, without the declaration growing past use.
const UNROLL: usize = 2;

pub(super) fn tool(tool: &Json) -> Json {
    let input = &tool["inputSchema"];
    let empty = Map::new();
    let defs = input
        .get("$defs")
        .and_then(Json::as_object)
        .unwrap_or(&empty);
    let mut out = Map::new();
    out.insert("name".into(), tool["name"].clone());
    if let Some(description) = super::description(tool) {
        out.insert("description".into(), json!(description));
    }
    // A tool without arguments declares no parameters.
    if let Some(parameters) = convert(input, defs, &mut Vec::new()) {
        out.insert("parameters".into(), parameters);
    }
    Json::Object(out)
}

/// One schema in Gemini's subset, or `None` when the subset cannot say it.
/// `within` holds the definitions being written out, to stop at a type
/// met again inside itself.
fn convert<'d>(
    schema: &Json,
    defs: &'d Map<String, Json>,
    within: &mut Vec<&'d str>,
) -> Option<Json> {
    if super::is_any(schema) {
        return None;
    }
    let object = schema.as_object()?;
    if let Some(reference) = object.get("$ref").and_then(Json::as_str) {
        let (name, def) = super::resolve(defs, reference)?;
        if within.iter().filter(|&&n| n == name).count() >= UNROLL {
            return None;
        }
        within.push(name);
        let converted = convert(def, defs, within);
        within.pop();
        let mut converted = converted?;
        // The field's own description says more than its type's.
        if let (Some(description), Json::Object(out)) = (object.get("description"), &mut converted)
        {
            out.insert("description".into(), description.clone());
        }
        return Some(converted);
    }
    let mut out = Map::new();
    let mut left_out: Vec<&str> = Vec::new();
    for (key, value) in object {
        match key.as_str() {
            "type" => match value.as_str() {
                Some("null") => {
                    out.insert("nullable".into(), json!(true));
                }
                Some(ty) => {
                    out.insert("type".into(), json!(ty.to_uppercase()));
                }
                None => return None,
            },
            "properties" => {
                let mut properties = Map::new();
                for (name, property) in value.as_object()? {
                    match convert(property, defs, within) {
                        Some(property) => {
                            properties.insert(name.clone(), property);
                        }
                        None => left_out.push(name),
                    }
                }
                out.insert(key.clone(), Json::Object(properties));
            }
            "required" => {
                out.insert(key.clone(), value.clone());
            }
            "items" => {
                out.insert(key.clone(), convert(value, defs, within)?);
            }
            "anyOf" | "oneOf" => {
                let mut branches = Vec::new();
                for branch in value.as_array()? {
                    if super::is_null(branch) {
                        out.insert("nullable".into(), json!(true));
                    } else if let Some(branch) = convert(branch, defs, within) {
                        branches.push(branch);
                    }
                }
                match branches.len() {
                    0 => return None,
                    1 => {
                        if let Some(Json::Object(only)) = branches.pop() {
                            for (k, v) in only {
                                out.entry(k).or_insert(v);
                            }
                        }
                    }
                    _ => {
                        out.insert("anyOf".into(), Json::Array(branches));
                    }
                }
            }
            "const" => {
                out.insert("enum".into(), json!([value]));
            }
            // A map: its keys are not known, so Gemini's objects, which
            // list their properties, cannot hold it.
            "additionalProperties" if value.is_object() => return None,
            kept if KEPT.contains(&kept) => {
                out.insert(key.clone(), value.clone());
            }
            _ => {}
        }
    }
    if let Some(Json::Array(required)) = out.get_mut("required") {
        required.retain(|r| r.as_str().is_some_and(|r| !left_out.contains(&r)));
        if required.is_empty() {
            out.remove("required");
        }
    }
    let no_properties = out
        .get("properties")
        .and_then(Json::as_object)
        .is_none_or(Map::is_empty);
    if out.get("type") == Some(&json!("OBJECT")) && no_properties {
        // Gemini refuses an object without properties.
        return None;
    }
    Some(Json::Object(out))
}
