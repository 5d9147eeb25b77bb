//! The tool registry's entries (seed 004's `ToolMetadata`): built as
//! serializable values and printed as JSON, which is a TypeScript literal.

use serde::Serialize;

use crate::model::{
    Deprecation, Endpoint, Model, Primitive, Tool, ToolKind, Type, TypeKind, Value,
};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Metadata<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    category: &'a str,
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    timing: Option<&'static str>,
    annotations: Annotations,
    parameters: Vec<Parameter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    actions: Option<Vec<ActionMetadata<'a>>>,
    error_codes: Vec<&'a str>,
    streams: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    deprecated: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Annotations {
    read_only_hint: bool,
    destructive_hint: bool,
    idempotent_hint: bool,
    open_world_hint: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ActionMetadata<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    timing: &'static str,
    parameters: Vec<Parameter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deprecated: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Parameter {
    name: String,
    #[serde(rename = "type")]
    json_type: &'static str,
    idl_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    required: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    default: Option<serde_json::Value>,
}

/// The registry entry of `tool`, as a JSON (TypeScript) literal indented
/// for a place inside an array.
pub(crate) fn tool_metadata(model: &Model, tool: &Tool) -> String {
    let (timing, parameters, actions) = match &tool.kind {
        ToolKind::Single(ep) => (Some(ep.timing.as_str()), parameters(model, ep), None),
        ToolKind::Actions(actions) => (
            None,
            vec![Parameter {
                name: "action".to_owned(),
                json_type: "string",
                idl_type: "string".to_owned(),
                description: Some(format!(
                    "Which action to run: {}.",
                    actions
                        .iter()
                        .map(|a| format!("`{}`", a.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                required: true,
                default: None,
            }],
            Some(
                actions
                    .iter()
                    .map(|a| ActionMetadata {
                        name: &a.name,
                        title: a.title.as_deref(),
                        description: a.docs.as_deref(),
                        timing: a.endpoint.timing.as_str(),
                        parameters: parameters(model, &a.endpoint),
                        deprecated: deprecation(a.deprecated.as_ref()),
                    })
                    .collect(),
            ),
        ),
    };
    let error_codes = tool
        .errors
        .map(|id| match &model.type_def(id).kind {
            TypeKind::Error(vs) => vs.iter().filter_map(|v| v.code.as_deref()).collect(),
            _ => Vec::new(),
        })
        .unwrap_or_default();
    let metadata = Metadata {
        name: &tool.name,
        title: tool.title.as_deref(),
        description: tool.docs.as_deref(),
        category: &tool.category,
        source: "local",
        timing,
        annotations: Annotations {
            read_only_hint: tool.annotations.read_only,
            destructive_hint: tool.annotations.destructive,
            idempotent_hint: tool.annotations.idempotent,
            open_world_hint: tool.annotations.open_world,
        },
        parameters,
        actions,
        error_codes,
        streams: tool.stream.is_some(),
        deprecated: deprecation(tool.deprecated.as_ref()),
    };
    let text = serde_json::to_string_pretty(&metadata).unwrap_or_default();
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("  {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn deprecation(dep: Option<&Deprecation>) -> Option<String> {
    dep.map(|d| d.reason.clone().unwrap_or_default())
}

fn parameters(model: &Model, ep: &Endpoint) -> Vec<Parameter> {
    let Some(id) = ep.request else {
        return Vec::new();
    };
    let TypeKind::Struct(fields) = &model.type_def(id).kind else {
        return Vec::new();
    };
    fields
        .iter()
        .map(|f| Parameter {
            name: f.name.clone(),
            json_type: json_type(model, f.ty.strip_optional()),
            idl_type: f.ty.idl(),
            description: f.docs.clone(),
            required: f.required,
            default: f.default.as_ref().map(default_json),
        })
        .collect()
}

/// The JSON Schema type of a field's values (`any` for `json`).
fn json_type(model: &Model, ty: &Type) -> &'static str {
    match ty {
        Type::Primitive(p) => match p {
            Primitive::Bool => "boolean",
            Primitive::String | Primitive::Bytes => "string",
            Primitive::F32 | Primitive::F64 => "number",
            Primitive::Json => "any",
            _ => "integer",
        },
        Type::List(_) => "array",
        Type::Map(_) => "object",
        Type::Optional(t) => json_type(model, t),
        Type::Named(r) => match model.type_def(r.id).kind {
            TypeKind::Enum(_) => "string",
            _ => "object",
        },
    }
}

fn default_json(value: &Value) -> serde_json::Value {
    match value {
        Value::Bool(b) => (*b).into(),
        Value::Int(i) => i64::try_from(*i).map_or_else(|_| serde_json::Value::Null, Into::into),
        Value::Float(f) => {
            serde_json::Number::from_f64(*f).map_or(serde_json::Value::Null, Into::into)
        }
        Value::String(s) | Value::EnumValue(s) => s.clone().into(),
        Value::EmptyList => serde_json::Value::Array(Vec::new()),
        Value::Json(j) => j.clone(),
    }
}
