//! The requested schema of a `@form` struct: what MCP elicitation asks a
//! client's user to fill in. MCP restricts it to a flat object whose
//! properties are strings, booleans, numbers, single choices (`enum`) and
//! multiple choices (an array of `enum` items); defaults (SEP-1034),
//! bounds and descriptions carry over from the IDL.

use serde_json::{Map, Value as Json, json};

use super::types::{number_json, value_json};
use crate::model::{Field, Model, Number, Primitive, Type, TypeDef, TypeKind};

/// The schema, or `None` for a type that is not a form struct.
pub(crate) fn form_schema(model: &Model, def: &TypeDef) -> Option<Json> {
    let TypeKind::Struct(fields) = &def.kind else {
        return None;
    };
    let mut properties = Map::new();
    let mut required = Vec::new();
    for field in fields {
        properties.insert(field.name.clone(), Json::Object(property(model, field)?));
        if field.required {
            required.push(json!(field.name));
        }
    }
    let mut schema = Map::new();
    schema.insert("type".into(), json!("object"));
    if let Some(docs) = &def.docs {
        schema.insert("description".into(), json!(docs));
    }
    schema.insert("properties".into(), Json::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Json::Array(required));
    }
    Some(Json::Object(schema))
}

/// One property: its type's schema, bounds, default and description.
fn property(model: &Model, field: &Field) -> Option<Map<String, Json>> {
    let mut schema = Map::new();
    match field.ty.strip_optional() {
        Type::Primitive(Primitive::String) => {
            schema.insert("type".into(), json!("string"));
            if let Some((min, max)) = field.constraints.length {
                schema.insert("minLength".into(), json!(min));
                schema.insert("maxLength".into(), json!(max));
            }
        }
        Type::Primitive(Primitive::Bool) => {
            schema.insert("type".into(), json!("boolean"));
        }
        Type::Primitive(p) if p.is_number() => {
            let kind = if p.is_float() { "number" } else { "integer" };
            schema.insert("type".into(), json!(kind));
            let bounds = field.constraints.range.or_else(|| narrow_bounds(*p));
            if let Some((min, max)) = bounds {
                schema.insert("minimum".into(), number_json(min));
                schema.insert("maximum".into(), number_json(max));
            }
        }
        Type::Named(named) => {
            schema.insert("type".into(), json!("string"));
            schema.insert("enum".into(), json!(enum_values(model, named.id)?));
        }
        Type::List(element) => {
            let Type::Named(named) = &**element else {
                return None;
            };
            schema.insert("type".into(), json!("array"));
            let items = json!({"type": "string", "enum": enum_values(model, named.id)?});
            schema.insert("items".into(), items);
            if let Some((min, max)) = field.constraints.length {
                schema.insert("minItems".into(), json!(min));
                schema.insert("maxItems".into(), json!(max));
            }
        }
        _ => return None,
    }
    if let Some(docs) = &field.docs {
        schema.insert("description".into(), json!(docs));
    }
    if let Some(default) = &field.default {
        schema.insert("default".into(), value_json(default));
    }
    Some(schema)
}

/// The bounds of an integer type narrower than 64 bits: a form cannot hold
/// a value the type cannot, and the wider types' bounds say nothing to a
/// user.
fn narrow_bounds(p: Primitive) -> Option<(Number, Number)> {
    let (min, max) = p.int_bounds()?;
    let fits = |n: i128| i32::try_from(n).is_ok() || u32::try_from(n).is_ok();
    (fits(min) && fits(max)).then_some((Number::Int(min), Number::Int(max)))
}

/// The wire names of an enum's values.
fn enum_values(model: &Model, id: crate::model::TypeId) -> Option<Vec<String>> {
    match &model.types.get(id.index())?.kind {
        TypeKind::Enum(values) => Some(values.iter().map(|v| v.name.clone()).collect()),
        _ => None,
    }
}
