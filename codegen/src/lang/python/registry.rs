//! The entries of `registry.py`: a `ToolMetadata` per tool, with its
//! actions and parameters, as Python literals.

use serde::Serialize;

use super::context::LINE;
use super::names;
use crate::model::{Annotations, Model, Primitive, Tool, ToolKind, Type, TypeId, TypeKind};

/// A tool's registry entry.
#[derive(Serialize)]
pub(crate) struct ToolMeta {
    name: String,
    title: Option<String>,
    description: Option<String>,
    timing: String,
    annotations: Vec<String>,
    deprecated: Option<String>,
    parameters: Vec<Parameter>,
    actions: Vec<ActionMeta>,
}

/// An action's registry entry.
#[derive(Serialize)]
pub(crate) struct ActionMeta {
    name: String,
    title: Option<String>,
    description: Option<String>,
    timing: String,
    parameters: Vec<Parameter>,
}

/// A parameter's arguments, as literals.
#[derive(Serialize)]
pub(crate) struct Parameter {
    args: Vec<String>,
    /// True when `ToolParameter(...)` fits one line at the deepest indent.
    inline: bool,
}

pub(super) fn tool_meta(model: &Model, tool: &Tool) -> ToolMeta {
    let lit = |s: Option<&str>| s.map(|s| names::string(s.trim()));
    let (timing, parameters, actions) = match &tool.kind {
        ToolKind::Single(e) => (e.timing.as_str(), parameters(model, e.request), Vec::new()),
        ToolKind::Actions(actions) => (
            // The longest of the actions' timings, as the Rust marker's.
            actions
                .iter()
                .map(|a| a.endpoint.timing)
                .max_by_key(|t| *t as u8)
                .map_or("sync", |t| t.as_str()),
            Vec::new(),
            actions
                .iter()
                .map(|a| ActionMeta {
                    name: names::string(&a.name),
                    title: lit(a.title.as_deref()),
                    description: lit(a.docs.as_deref()),
                    timing: names::member(a.endpoint.timing.as_str()),
                    parameters: parameters(model, a.endpoint.request),
                })
                .collect(),
        ),
    };
    ToolMeta {
        name: names::string(&tool.name),
        title: lit(tool.title.as_deref()),
        description: lit(tool.docs.as_deref()),
        timing: names::member(timing),
        annotations: annotations(tool.annotations),
        deprecated: tool
            .deprecated
            .as_ref()
            .map(|d| names::string(d.reason.as_deref().unwrap_or(""))),
        parameters,
        actions,
    }
}

fn annotations(a: Annotations) -> Vec<String> {
    [
        ("read_only", a.read_only),
        ("destructive", a.destructive),
        ("idempotent", a.idempotent),
        ("open_world", a.open_world),
    ]
    .into_iter()
    .filter(|(_, on)| *on)
    .map(|(name, _)| format!("{name}=True"))
    .collect()
}

fn parameters(model: &Model, request: Option<TypeId>) -> Vec<Parameter> {
    let Some(id) = request else {
        return Vec::new();
    };
    let TypeKind::Struct(fields) = &model.type_def(id).kind else {
        return Vec::new();
    };
    fields
        .iter()
        .map(|f| {
            let mut args = vec![
                format!("name={}", names::string(&f.name)),
                format!("type={}", names::string(schema_type(model, &f.ty))),
            ];
            if let Some(docs) = f.docs.as_deref().filter(|d| !d.trim().is_empty()) {
                args.push(format!("description={}", names::string(docs.trim())));
            }
            if !f.required {
                args.push("required=False".to_owned());
            }
            // Written at most 20 spaces deep (inside an action).
            let inline = 20 + "ToolParameter(),".len() + args.join(", ").len() <= LINE;
            Parameter { args, inline }
        })
        .collect()
}

/// The JSON Schema type of a field (`any` for `json`).
fn schema_type(model: &Model, ty: &Type) -> &'static str {
    match ty.strip_optional() {
        Type::Primitive(p) => match p {
            Primitive::Bool => "boolean",
            Primitive::F32 | Primitive::F64 => "number",
            Primitive::String | Primitive::Bytes => "string",
            Primitive::Json => "any",
            _ => "integer",
        },
        Type::List(_) => "array",
        Type::Map(_) => "object",
        Type::Optional(inner) => schema_type(model, inner),
        Type::Named(r) => match model.type_def(r.id).kind {
            TypeKind::Enum(_) => "string",
            _ => "object",
        },
    }
}
