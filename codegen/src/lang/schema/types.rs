//! Named types and field types as JSON Schema 2020-12: structs as objects,
//! enums as string enums, unions and errors as `oneOf` over externally
//! tagged variants, field types with their constraints.

use std::collections::BTreeSet;

use serde_json::{Map, Value as Json, json};

use crate::model::{
    Deprecation, Field, Model, Number, Primitive, Type, TypeDef, TypeId, TypeKind, Value, Variant,
};

/// Where `$ref`s point: every schema keeps the named types it uses in its
/// own `$defs`, since MCP clients do not resolve references to other
/// documents.
pub(super) const DEFS_PREFIX: &str = "#/$defs/";

/// What every schema builder needs: the model and the facts computed once.
pub(super) struct Cx<'a> {
    pub(super) model: &'a Model,
    /// Indexed by type id: true when a request can contain the type.
    in_request: Vec<bool>,
}

impl<'a> Cx<'a> {
    pub(super) fn new(model: &'a Model) -> Self {
        Cx {
            model,
            in_request: model.request_types(),
        }
    }

    fn in_request(&self, id: TypeId) -> bool {
        self.in_request.get(id.index()).copied().unwrap_or(false)
    }

    /// The schema of a named type, as it appears in `$defs` (and inlined as
    /// the root of a request or response schema).
    pub(super) fn type_schema(&self, ty: &TypeDef) -> Map<String, Json> {
        let closed = self.in_request(ty.id);
        let mut schema = match &ty.kind {
            TypeKind::Struct(fields) => self.object(fields, closed),
            TypeKind::Enum(values) => {
                let names: Vec<&str> = values.iter().map(|v| v.name.as_str()).collect();
                let mut schema = Map::new();
                schema.insert("type".into(), json!("string"));
                schema.insert("enum".into(), json!(names));
                schema
            }
            TypeKind::Union(variants) | TypeKind::Error(variants) => {
                let branches: Vec<Json> = variants
                    .iter()
                    .map(|v| self.variant_branch(v, closed))
                    .collect();
                let mut schema = Map::new();
                schema.insert("oneOf".into(), Json::Array(branches));
                schema
            }
        };
        let docs = match &ty.kind {
            TypeKind::Enum(values) => enum_docs(ty.docs.as_deref(), values),
            _ => ty.docs.clone(),
        };
        annotate(&mut schema, docs.as_deref(), ty.deprecated.as_ref());
        schema
    }

    /// `$defs` holding every type in `ids`.
    pub(super) fn defs(&self, ids: &BTreeSet<TypeId>) -> Map<String, Json> {
        ids.iter()
            .map(|&id| {
                let ty = self.model.type_def(id);
                (ty.name.clone(), Json::Object(self.type_schema(ty)))
            })
            .collect()
    }

    /// An object with these fields; `closed` rejects other keys.
    pub(super) fn object(&self, fields: &[Field], closed: bool) -> Map<String, Json> {
        let mut schema = Map::new();
        schema.insert("type".into(), json!("object"));
        let properties: Map<String, Json> = fields
            .iter()
            .map(|f| (f.name.clone(), Json::Object(self.field_schema(f))))
            .collect();
        schema.insert("properties".into(), Json::Object(properties));
        let required: Vec<&str> = fields
            .iter()
            .filter(|f| f.required)
            .map(|f| f.name.as_str())
            .collect();
        if !required.is_empty() {
            schema.insert("required".into(), json!(required));
        }
        if closed {
            schema.insert("additionalProperties".into(), json!(false));
        }
        schema
    }

    /// One `oneOf` branch: an object whose single key is the variant's
    /// name (the wire's external tag) and whose value holds its fields.
    fn variant_branch(&self, variant: &Variant, closed: bool) -> Json {
        let mut body = self.object(&variant.fields, closed);
        let docs = match (&variant.docs, &variant.code) {
            (Some(docs), Some(code)) => Some(format!("{docs}\n\nError code: `{code}`.")),
            (None, Some(code)) => Some(format!("Error code: `{code}`.")),
            (docs, None) => docs.clone(),
        };
        annotate(&mut body, docs.as_deref(), variant.deprecated.as_ref());
        json!({
            "type": "object",
            "properties": { variant.name.as_str(): body },
            "required": [variant.name],
            "additionalProperties": false,
        })
    }

    /// A field's schema: its type with its constraints, docs and default.
    pub(super) fn field_schema(&self, field: &Field) -> Map<String, Json> {
        let mut schema = value_type(field.ty.strip_optional(), field);
        annotate(
            &mut schema,
            field.docs.as_deref(),
            field.deprecated.as_ref(),
        );
        if let Some(default) = &field.default {
            schema.insert("default".into(), value_json(default));
        }
        if let Some(header) = &field.header {
            schema.insert("x-mcp-header".into(), json!(header));
        }
        schema
    }
}

/// The schema of a field's type (without its `?`), with the field's
/// `@range`, `@length` and `@pattern`, which apply to the outer type only.
fn value_type(ty: &Type, field: &Field) -> Map<String, Json> {
    let constraints = &field.constraints;
    let mut schema = type_only(ty);
    let length = constraints.length;
    match ty {
        Type::Primitive(Primitive::String) => {
            if let Some((min, max)) = length {
                schema.insert("minLength".into(), json!(min));
                schema.insert("maxLength".into(), json!(max));
            }
            if let Some(pattern) = &constraints.pattern {
                schema.insert("pattern".into(), json!(pattern));
            }
        }
        Type::Primitive(Primitive::Bytes) => {
            // The bound is on decoded bytes; the JSON value is padded
            // base64, 4 characters per started group of 3 bytes.
            if let Some((min, max)) = length {
                schema.insert("minLength".into(), json!(base64_len(min)));
                schema.insert("maxLength".into(), json!(base64_len(max)));
            }
        }
        Type::Primitive(p) if p.is_number() => {
            if let Some((min, max)) = constraints.range {
                let (lo, hi) = match p.int_bounds() {
                    Some((lo, hi)) => (
                        tighter(Number::Int(lo), min, true),
                        tighter(Number::Int(hi), max, false),
                    ),
                    None => (min, max),
                };
                schema.insert("minimum".into(), number_json(lo));
                schema.insert("maximum".into(), number_json(hi));
            }
        }
        Type::List(_) => {
            if let Some((min, max)) = length {
                schema.insert("minItems".into(), json!(min));
                schema.insert("maxItems".into(), json!(max));
            }
        }
        Type::Map(_) => {
            if let Some((min, max)) = length {
                schema.insert("minProperties".into(), json!(min));
                schema.insert("maxProperties".into(), json!(max));
            }
        }
        _ => {}
    }
    schema
}

/// The schema of a type, without constraints or docs.
pub(super) fn type_only(ty: &Type) -> Map<String, Json> {
    let value = match ty {
        Type::Primitive(p) => primitive(*p),
        Type::List(inner) => json!({ "type": "array", "items": type_only(inner) }),
        Type::Map(inner) => json!({ "type": "object", "additionalProperties": type_only(inner) }),
        // Optional only wraps a field's whole type, where callers strip
        // it: absent keys, never `null`.
        Type::Optional(inner) => return type_only(inner),
        Type::Named(r) => json!({ "$ref": format!("{DEFS_PREFIX}{}", r.name) }),
    };
    match value {
        Json::Object(map) => map,
        _ => Map::new(),
    }
}

fn primitive(p: Primitive) -> Json {
    match p {
        Primitive::Bool => json!({ "type": "boolean" }),
        Primitive::F32 | Primitive::F64 => json!({ "type": "number" }),
        Primitive::String => json!({ "type": "string" }),
        Primitive::Bytes => json!({ "type": "string", "contentEncoding": "base64" }),
        Primitive::Json => json!({}),
        integer => match integer.int_bounds() {
            Some((lo, hi)) => json!({
                "type": "integer",
                "minimum": number_json(Number::Int(lo)),
                "maximum": number_json(Number::Int(hi)),
            }),
            None => json!({}),
        },
    }
}

/// The tighter of a type's bound and a `@range` bound: the larger lower
/// bound or the smaller upper one.
fn tighter(type_bound: Number, range_bound: Number, lower: bool) -> Number {
    let range_is_tighter = if lower {
        range_bound.as_f64() > type_bound.as_f64()
    } else {
        range_bound.as_f64() < type_bound.as_f64()
    };
    match (type_bound, range_bound) {
        (Number::Int(t), Number::Int(r)) => Number::Int(if lower { t.max(r) } else { t.min(r) }),
        _ if range_is_tighter => range_bound,
        _ => type_bound,
    }
}

/// Characters of padded base64 for `bytes` bytes.
fn base64_len(bytes: u64) -> u64 {
    bytes.div_ceil(3).saturating_mul(4)
}

/// A number as JSON. One that JSON cannot carry (beyond 64 bits, or not
/// finite) becomes `null`, which the metaschema check then reports at the
/// declaration rather than letting a wrong bound through.
pub(super) fn number_json(n: Number) -> Json {
    match n {
        Number::Int(i) => i64::try_from(i)
            .map(Json::from)
            .or_else(|_| u64::try_from(i).map(Json::from))
            .unwrap_or(Json::Null),
        Number::Float(f) => serde_json::Number::from_f64(f).map_or(Json::Null, Json::Number),
    }
}

/// A default value as JSON.
pub(super) fn value_json(value: &Value) -> Json {
    match value {
        Value::Bool(b) => json!(b),
        Value::Int(i) => number_json(Number::Int(*i)),
        Value::Float(f) => number_json(Number::Float(*f)),
        Value::String(s) | Value::EnumValue(s) => json!(s),
        Value::EmptyList => json!([]),
        Value::Json(v) => v.clone(),
    }
}

/// An enum's docs followed by its values' docs, so a reader of the schema
/// learns what each value means.
fn enum_docs(docs: Option<&str>, values: &[crate::model::EnumValue]) -> Option<String> {
    if values
        .iter()
        .all(|v| v.docs.is_none() && v.deprecated.is_none())
    {
        return docs.map(str::to_owned);
    }
    let mut out = docs.map(|d| format!("{d}\n\n")).unwrap_or_default();
    out.push_str("Values:");
    for value in values {
        out.push_str(&format!("\n- `{}`", value.name));
        if value.deprecated.is_some() {
            out.push_str(" (deprecated)");
        }
        if let Some(doc) = &value.docs {
            out.push_str(": ");
            out.push_str(&doc.replace('\n', " "));
        }
    }
    Some(out)
}

/// Sets `description` (docs, then the deprecation reason) and
/// `deprecated`.
pub(super) fn annotate(
    schema: &mut Map<String, Json>,
    docs: Option<&str>,
    deprecated: Option<&Deprecation>,
) {
    if let Some(text) = describe(docs, deprecated) {
        schema.insert("description".into(), json!(text));
    }
    if deprecated.is_some() {
        schema.insert("deprecated".into(), json!(true));
    }
}

/// Docs, with the deprecation reason after them.
pub(super) fn describe(docs: Option<&str>, deprecated: Option<&Deprecation>) -> Option<String> {
    let note = deprecated.map(|d| match &d.reason {
        Some(reason) => format!("Deprecated: {reason}"),
        None => "Deprecated.".to_owned(),
    });
    match (docs, note) {
        (Some(docs), Some(note)) => Some(format!("{docs}\n\n{note}")),
        (Some(docs), None) => Some(docs.to_owned()),
        (None, note) => note,
    }
}
