//! OpenAI function calling in strict mode: `{"type": "function",
//! "function": {"name", "description", "parameters", "strict"}}`.
//!
//! Strict mode (OpenAI's Structured Outputs guide, "Supported schemas")
//! takes a subset of JSON Schema: every object closed with
//! `additionalProperties: false` and listing every property in
//! `required`, an optional property written as one that may be `null`,
//! `anyOf` rather than `oneOf`, and only the keywords in [`KEPT`]. A tool
//! whose input needs more — a map, a value of any JSON type — is declared
//! with `"strict": false` and its MCP schema unchanged.

use serde_json::{Map, Value as Json, json};

/// The keywords strict mode takes; every other one is dropped (and still
/// enforced by the server when it decodes the request).
const KEPT: &[&str] = &[
    "type",
    "description",
    "enum",
    "const",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "$ref",
];

pub(super) fn tool(tool: &Json) -> Json {
    let input = &tool["inputSchema"];
    let (parameters, strict) = match root(input) {
        Some(parameters) => (parameters, true),
        None => (input.clone(), false),
    };
    let mut function = Map::new();
    function.insert("name".into(), tool["name"].clone());
    if let Some(description) = super::description(tool) {
        function.insert("description".into(), json!(description));
    }
    function.insert("parameters".into(), parameters);
    function.insert("strict".into(), json!(strict));
    json!({ "type": "function", "function": function })
}

/// The strict form of an input schema, or `None` when strict mode cannot
/// say it. Its root must be an object, not a choice.
fn root(input: &Json) -> Option<Json> {
    let object = input.as_object()?;
    if object.get("type") != Some(&json!("object")) || object.contains_key("anyOf") {
        return None;
    }
    strict(input)
}

/// The strict form of one schema, or `None` when strict mode cannot say it.
fn strict(schema: &Json) -> Option<Json> {
    // `true`, `false` and a value of any type have no strict form.
    if super::is_any(schema) {
        return None;
    }
    let object = schema.as_object()?;
    let mut out = Map::new();
    let required: Vec<&str> = object
        .get("required")
        .and_then(Json::as_array)
        .map(|r| r.iter().filter_map(Json::as_str).collect())
        .unwrap_or_default();
    for (key, value) in object {
        match key.as_str() {
            "properties" => {
                let mut properties = Map::new();
                for (name, property) in value.as_object()? {
                    let property = strict(property)?;
                    let property = if required.contains(&name.as_str()) {
                        property
                    } else {
                        nullable(property)
                    };
                    properties.insert(name.clone(), property);
                }
                let all: Vec<Json> = properties.keys().map(|k| json!(k)).collect();
                out.insert("required".into(), Json::Array(all));
                out.insert("properties".into(), Json::Object(properties));
            }
            // Replaced by every property, above.
            "required" => {}
            // A map (a schema for other keys) or an open object has no
            // strict form; a closed one is closed below anyway.
            "additionalProperties" if value != &json!(false) => return None,
            "additionalProperties" => {}
            "items" => {
                out.insert(key.clone(), strict(value)?);
            }
            "anyOf" | "oneOf" => {
                // Each variant of a union names itself in its one
                // required key, so `anyOf` admits exactly what `oneOf` did.
                let branches = value
                    .as_array()?
                    .iter()
                    .map(strict)
                    .collect::<Option<Vec<_>>>()?;
                out.insert("anyOf".into(), Json::Array(branches));
            }
            "$defs" => {
                let mut defs = Map::new();
                for (name, def) in value.as_object()? {
                    defs.insert(name.clone(), strict(def)?);
                }
                out.insert(key.clone(), Json::Object(defs));
            }
            kept if KEPT.contains(&kept) => {
                out.insert(key.clone(), value.clone());
            }
            _ => {}
        }
    }
    if out.get("type") == Some(&json!("object")) {
        out.entry("properties").or_insert_with(|| json!({}));
        out.entry("required").or_insert_with(|| json!([]));
        out.insert("additionalProperties".into(), json!(false));
    }
    Some(Json::Object(out))
}

/// `schema`, or `null`: how strict mode says a property may be left out.
fn nullable(mut schema: Json) -> Json {
    let Json::Object(object) = &mut schema else {
        return schema;
    };
    if let Some(Json::String(ty)) = object.get("type")
        && !object.contains_key("anyOf")
        && !object.contains_key("$ref")
    {
        let ty = ty.clone();
        object.insert("type".into(), json!([ty, "null"]));
        if let Some(Json::Array(values)) = object.get_mut("enum") {
            values.push(Json::Null);
        }
        return schema;
    }
    let description = object.remove("description");
    let mut wrapper = Map::new();
    if let Some(description) = description {
        wrapper.insert("description".into(), description);
    }
    wrapper.insert("anyOf".into(), json!([schema, { "type": "null" }]));
    Json::Object(wrapper)
}
