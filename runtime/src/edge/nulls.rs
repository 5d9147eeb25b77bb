//! Arguments in a provider profile's shape. OpenAI's strict mode makes a
//! model send every property, `null` for one it leaves out
//! (docs/schemas.md, "Provider profiles"). Where the tool's schema admits
//! no `null`, a `null` can only mean "absent": the key is dropped before
//! the arguments are decoded, at every depth the schema describes, so the
//! request decodes as if the key had not been sent (its default applies;
//! a required field is still reported missing).

use super::JsonObject;
use crate::Json;

/// Drops from `args` each `null` that `schema` (a tool's input schema,
/// with its `$defs`) gives no other meaning.
pub(crate) fn drop_absent(schema: &JsonObject, args: &mut JsonObject) {
    let empty = JsonObject::new();
    let defs = schema
        .get("$defs")
        .and_then(Json::as_object)
        .unwrap_or(&empty);
    object(schema, defs, args);
}

/// `value`, an object that `schema` describes.
fn object(schema: &JsonObject, defs: &JsonObject, value: &mut JsonObject) {
    let Some(schema) = resolve(schema, defs) else {
        return;
    };
    if let Some(properties) = schema.get("properties").and_then(Json::as_object) {
        value.retain(|key, v| {
            !(v.is_null()
                && properties
                    .get(key)
                    .is_some_and(|p| !admits_null(p, defs, 0)))
        });
        for (key, v) in value.iter_mut() {
            if let Some(property) = properties.get(key).and_then(Json::as_object) {
                nested(property, defs, v);
            }
        }
    }
    // A union's value is one of its branches: the branch that names every
    // key the value has.
    for choice in ["anyOf", "oneOf"] {
        let branches = schema.get(choice).and_then(Json::as_array);
        for branch in branches.into_iter().flatten().filter_map(Json::as_object) {
            let branch = resolve(branch, defs).unwrap_or(branch);
            let names = branch.get("properties").and_then(Json::as_object);
            if names.is_some_and(|names| value.keys().all(|k| names.contains_key(k))) {
                object(branch, defs, value);
                break;
            }
        }
    }
}

/// A value inside the arguments, described by `schema`.
fn nested(schema: &JsonObject, defs: &JsonObject, value: &mut Json) {
    let Some(schema) = resolve(schema, defs) else {
        return;
    };
    match value {
        Json::Object(inner) => object(schema, defs, inner),
        Json::Array(items) => {
            if let Some(item) = schema.get("items").and_then(Json::as_object) {
                for value in items {
                    nested(item, defs, value);
                }
            }
        }
        _ => {}
    }
}

/// True when `schema` lets a value be `null`. References are followed to
/// a small depth: a schema the generator writes never needs more, and a
/// hand-made loop cannot recurse for ever.
fn admits_null(schema: &Json, defs: &JsonObject, depth: usize) -> bool {
    let Some(schema) = schema.as_object() else {
        return schema == &Json::Bool(true);
    };
    if schema.is_empty() {
        return true;
    }
    if let Some(reference) = schema.get("$ref").and_then(Json::as_str) {
        return depth < 8
            && target(reference, defs).is_some_and(|t| admits_null(t, defs, depth + 1));
    }
    let typed_null = match schema.get("type") {
        Some(Json::String(t)) => t == "null",
        Some(Json::Array(ts)) => ts.iter().any(|t| t == "null"),
        _ => false,
    };
    typed_null
        || ["anyOf", "oneOf"].iter().any(|choice| {
            schema
                .get(*choice)
                .and_then(Json::as_array)
                .is_some_and(|bs| bs.iter().any(|b| admits_null(b, defs, depth + 1)))
        })
}

/// `schema`, or what its `$ref` names.
fn resolve<'a>(schema: &'a JsonObject, defs: &'a JsonObject) -> Option<&'a JsonObject> {
    match schema.get("$ref").and_then(Json::as_str) {
        Some(reference) => target(reference, defs).and_then(Json::as_object),
        None => Some(schema),
    }
}

fn target<'a>(reference: &str, defs: &'a JsonObject) -> Option<&'a Json> {
    defs.get(reference.strip_prefix("#/$defs/")?)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn cleaned(schema: Json, args: Json) -> Json {
        let (Json::Object(schema), Json::Object(mut args)) = (schema, args) else {
            panic!("objects");
        };
        drop_absent(&schema, &mut args);
        Json::Object(args)
    }

    #[test]
    fn a_null_for_a_property_that_admits_none_is_dropped_at_every_depth() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": {"type": "string"},
                "any": {},
                "maybe": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                "inner": {"$ref": "#/$defs/Inner"},
                "list": {"type": "array", "items": {"$ref": "#/$defs/Inner"}},
                "shape": {"$ref": "#/$defs/Shape"}
            },
            "$defs": {
                "Inner": {"type": "object", "properties": {"x": {"type": "integer"}}},
                "Shape": {"oneOf": [
                    {"type": "object", "properties": {"circle": {"$ref": "#/$defs/Circle"}}}
                ]},
                "Circle": {"type": "object", "properties": {"r": {"type": "number"}, "label": {"type": "string"}}}
            }
        });
        let args = json!({
            "a": null, "any": null, "maybe": null, "unknown": null,
            "inner": {"x": null},
            "list": [{"x": null}, {"x": 1}],
            "shape": {"circle": {"r": 1.5, "label": null}}
        });
        assert_eq!(
            cleaned(schema, args),
            json!({
                "any": null, "maybe": null, "unknown": null,
                "inner": {},
                "list": [{}, {"x": 1}],
                "shape": {"circle": {"r": 1.5}}
            })
        );
    }

    #[test]
    fn a_reference_loop_ends() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"$ref": "#/$defs/A"}}
        });
        assert_eq!(cleaned(schema, json!({"a": null})), json!({}));
    }
}
