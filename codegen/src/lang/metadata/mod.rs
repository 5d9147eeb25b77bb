//! The tool metadata (seed 004's `ToolMetadata`), built once from the model
//! and rendered by every target: the TypeScript registry prints it as a
//! literal, the Rust catalogue carries it as `Catalogue::METADATA` (the
//! `GET /api/tools` document, docs/web.md), the HTML catalogue renders it.
//! Resources and prompts have their entries in [`entries`]; an action
//! tool's own `parameters` are merged in [`merged`].

mod entries;
mod merged;

pub(crate) use entries::{prompt, resource};

use serde::Serialize;

use crate::model::{
    Constraints, Deprecation, Endpoint, Example, ExampleOutcome, Model, Number, Primitive, Tool,
    ToolKind, Type, TypeId, TypeKind, Value,
};

/// One tool's entry.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Metadata<'a> {
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
    /// The OAuth scopes a call needs, all of them; always present.
    scopes: Vec<&'a str>,
    parameters: Vec<Parameter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    actions: Option<Vec<ActionMetadata<'a>>>,
    error_codes: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    errors: Vec<ErrorMetadata<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    response: Option<Vec<Parameter>>,
    streams: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    paged: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stream: Option<StreamMetadata>,
    #[serde(skip_serializing_if = "Option::is_none")]
    example: Option<Sample>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    examples: Vec<ExampleMetadata<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deprecated: Option<String>,
}

/// One of a tool's own errors.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ErrorMetadata<'a> {
    code: &'a str,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
}

/// What a streaming tool sends while it runs.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StreamMetadata {
    idl_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
}

/// A request made from the types, within every constraint: what a form
/// starts from when the tool declares no example. It has no response, since
/// only a declared example can say what the tool answers.
#[derive(Serialize)]
struct Sample {
    request: serde_json::Value,
}

/// A declared example: the request as sent (an action's name included) and
/// the response it answers or the error it fails with.
#[derive(Serialize)]
struct ExampleMetadata<'a> {
    title: &'a str,
    request: serde_json::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    response: Option<&'a serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<ExampleError<'a>>,
}

/// The error a declared example fails with.
#[derive(Serialize)]
struct ExampleError<'a> {
    code: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    details: Option<&'a serde_json::Value>,
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
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    paged: bool,
    parameters: Vec<Parameter>,
    #[serde(skip_serializing_if = "Option::is_none")]
    response: Option<Vec<Parameter>>,
    example: Sample,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    examples: Vec<ExampleMetadata<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deprecated: Option<String>,
}

#[derive(Clone, Serialize)]
#[serde(rename_all = "camelCase")]
struct Parameter {
    name: String,
    /// Left out for a `json` field: JSON Schema has no type name for "any
    /// value", and a missing `type` says so (docs/web.md).
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    json_type: Option<&'static str>,
    idl_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    required: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    default: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    constraints: Option<Constraints>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deprecated: Option<String>,
    /// In an action tool's own `parameters`: the actions that take it, in
    /// declaration order ([`merged`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    actions: Option<Vec<String>>,
}

/// The `GET /api/tools` document: `{"tools": [..], "resources": [..],
/// "prompts": [..]}`, every tool of the catalogue in declaration order,
/// each with its MCP `inputSchema` and `outputSchema` (and each action's),
/// and its typed errors' `errorSchema`, from the schema backend; then
/// every resource and prompt, each with the `inputSchema` its arguments
/// are checked against.
pub(crate) fn document(model: &Model, schemas: &serde_json::Value) -> serde_json::Value {
    let tools: Vec<serde_json::Value> = model
        .tools
        .iter()
        .zip(schemas["tools"].as_array().into_iter().flatten())
        .map(|(tool, mcp)| {
            let mut entry = serde_json::to_value(entry(model, tool)).unwrap_or_default();
            for key in ["inputSchema", "outputSchema"] {
                if let Some(schema) = mcp.get(key) {
                    entry[key] = schema.clone();
                }
            }
            if let Some(errors) = schemas["errors"].get(&tool.name) {
                entry["errorSchema"] = errors.clone();
            }
            if let Some(actions) = entry.get_mut("actions").and_then(|a| a.as_array_mut()) {
                for action in actions {
                    let name = action["name"].as_str().unwrap_or_default().to_owned();
                    let own = &schemas["actions"][&tool.name][&name];
                    for key in ["inputSchema", "outputSchema"] {
                        if let Some(schema) = own.get(key) {
                            action[key] = schema.clone();
                        }
                    }
                }
            }
            entry
        })
        .collect();
    let with_input = |mut entry: serde_json::Value, list: &str| {
        let name = entry["name"].as_str().unwrap_or_default().to_owned();
        if let Some(schema) = schemas[list][&name].get("inputSchema") {
            entry["inputSchema"] = schema.clone();
        }
        entry
    };
    let resources: Vec<serde_json::Value> = model
        .resources
        .iter()
        .map(|r| serde_json::to_value(resource(model, r)).unwrap_or_default())
        .map(|entry| with_input(entry, "readers"))
        .collect();
    let prompts: Vec<serde_json::Value> = model
        .prompts
        .iter()
        .map(|p| serde_json::to_value(prompt(model, p)).unwrap_or_default())
        .map(|entry| with_input(entry, "getters"))
        .collect();
    serde_json::json!({ "tools": tools, "resources": resources, "prompts": prompts })
}

/// The entry of `tool`.
pub(crate) fn entry<'a>(model: &'a Model, tool: &'a Tool) -> Metadata<'a> {
    let (timing, parameters, actions) = match &tool.kind {
        ToolKind::Single(ep) => (
            Some(ep.timing.as_str()),
            parameters(model, ep.request),
            None,
        ),
        ToolKind::Actions(actions) => {
            let listed: Vec<ActionMetadata<'a>> = actions
                .iter()
                .map(|a| ActionMetadata {
                    name: &a.name,
                    title: a.title.as_deref(),
                    description: a.docs.as_deref(),
                    timing: a.endpoint.timing.as_str(),
                    paged: a.endpoint.paged,
                    parameters: parameters(model, a.endpoint.request),
                    response: a.endpoint.response.map(|id| parameters(model, Some(id))),
                    example: sample(model, &a.endpoint, Some(&a.name)),
                    examples: declared(&a.examples, Some(&a.name)),
                    deprecated: deprecation(a.deprecated.as_ref()),
                })
                .collect();
            let action = Parameter {
                name: "action".to_owned(),
                json_type: Some("string"),
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
                constraints: None,
                deprecated: None,
                actions: None,
            };
            (None, merged::parameters(action, &listed), Some(listed))
        }
    };
    let errors: Vec<ErrorMetadata<'a>> = model
        .error_variants(tool)
        .iter()
        .filter_map(|v| {
            Some(ErrorMetadata {
                code: v.code.as_deref()?,
                name: &v.name,
                description: v.docs.as_deref(),
            })
        })
        .collect();
    let single = match &tool.kind {
        ToolKind::Single(ep) => Some(ep),
        ToolKind::Actions(_) => None,
    };
    let response = single
        .and_then(|ep| ep.response)
        .map(|id| self::parameters(model, Some(id)));
    Metadata {
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
        scopes: tool.scope_names().collect(),
        parameters,
        actions,
        error_codes: errors.iter().map(|e| e.code).collect(),
        errors,
        response,
        streams: tool.stream.is_some(),
        paged: single.is_some_and(|ep| ep.paged),
        stream: tool.stream.map(|id| {
            let ty = model.type_def(id);
            StreamMetadata {
                idl_type: ty.name.clone(),
                description: ty.docs.clone(),
            }
        }),
        example: single.map(|ep| sample(model, ep, None)),
        examples: declared(&tool.examples, None),
        deprecated: deprecation(tool.deprecated.as_ref()),
    }
}

fn deprecation(dep: Option<&Deprecation>) -> Option<String> {
    dep.map(|d| d.reason.clone().unwrap_or_default())
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
        .map(|f| Parameter {
            name: f.name.clone(),
            json_type: json_type(model, f.ty.strip_optional()),
            idl_type: f.ty.idl(),
            description: f.docs.clone(),
            required: f.required,
            default: f.default.as_ref().map(default_json),
            constraints: (!f.constraints.is_empty()).then(|| f.constraints.clone()),
            deprecated: deprecation(f.deprecated.as_ref()),
            actions: None,
        })
        .collect()
}

/// The JSON Schema type of a field's values; none for `json`, whose
/// values may be of any type.
fn json_type(model: &Model, ty: &Type) -> Option<&'static str> {
    Some(match ty {
        Type::Primitive(p) => match p {
            Primitive::Bool => "boolean",
            Primitive::String | Primitive::Bytes => "string",
            Primitive::F32 | Primitive::F64 => "number",
            Primitive::Json => return None,
            _ => "integer",
        },
        Type::List(_) => "array",
        Type::Map(_) => "object",
        Type::Optional(t) => return json_type(model, t),
        Type::Named(r) => match model.type_def(r.id).kind {
            TypeKind::Enum(_) => "string",
            _ => "object",
        },
    })
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

/// The declared examples of a tool or action, each request as sent.
fn declared<'a>(examples: &'a [Example], action: Option<&str>) -> Vec<ExampleMetadata<'a>> {
    examples
        .iter()
        .map(|e| ExampleMetadata {
            title: &e.title,
            request: e.call(action),
            response: match &e.outcome {
                ExampleOutcome::Response { value } => Some(value),
                _ => None,
            },
            error: match &e.outcome {
                ExampleOutcome::Error { code, details, .. } => Some(ExampleError {
                    code,
                    details: details.as_ref(),
                }),
                _ => None,
            },
        })
        .collect()
}

/// A sample call of `ep`: its required arguments (and, for an action, the
/// action), each within its field's constraints.
fn sample(model: &Model, ep: &Endpoint, action: Option<&str>) -> Sample {
    let mut request = serde_json::Map::new();
    if let Some(action) = action {
        request.insert("action".to_owned(), action.into());
    }
    if let Some(TypeKind::Struct(fields)) = ep.request.map(|id| &model.type_def(id).kind) {
        for f in fields.iter().filter(|f| f.required) {
            request.insert(
                f.name.clone(),
                field_example(model, &f.ty, &f.constraints, 0),
            );
        }
    }
    Sample {
        request: serde_json::Value::Object(request),
    }
}

/// How deep examples of nested types go before they are left empty, so a
/// recursive type has a finite example.
const EXAMPLE_DEPTH: usize = 4;

fn named_example(model: &Model, id: TypeId, depth: usize) -> serde_json::Value {
    let ty = model.type_def(id);
    match &ty.kind {
        TypeKind::Struct(fields) => {
            let mut object = serde_json::Map::new();
            if depth < EXAMPLE_DEPTH {
                for f in fields {
                    let value = match &f.default {
                        Some(default) => default_json(default),
                        None => field_example(model, &f.ty, &f.constraints, depth + 1),
                    };
                    object.insert(f.name.clone(), value);
                }
            }
            serde_json::Value::Object(object)
        }
        TypeKind::Enum(values) => values
            .first()
            .map_or(serde_json::Value::Null, |v| v.name.clone().into()),
        TypeKind::Union(variants) | TypeKind::Error(variants) => {
            let Some(v) = variants.first() else {
                return serde_json::Value::Null;
            };
            let mut fields = serde_json::Map::new();
            if depth < EXAMPLE_DEPTH {
                for f in v.fields.iter().filter(|f| f.required) {
                    fields.insert(
                        f.name.clone(),
                        field_example(model, &f.ty, &f.constraints, depth + 1),
                    );
                }
            }
            serde_json::json!({ v.name.clone(): fields })
        }
    }
}

/// A value of `ty` within `constraints`: the low end of a range, a string
/// its pattern matches of the shortest length allowed, as many items as a
/// list must have.
fn field_example(
    model: &Model,
    ty: &Type,
    constraints: &Constraints,
    depth: usize,
) -> serde_json::Value {
    let low = constraints.range.map(|(min, _)| min);
    let min_len = constraints.length.map_or(0, |(min, _)| min);
    match ty.strip_optional() {
        Type::Primitive(p) => match p {
            Primitive::Bool => false.into(),
            Primitive::F32 | Primitive::F64 => match low {
                Some(Number::Float(f)) => f.into(),
                Some(Number::Int(i)) => i64::try_from(i).map_or(0.0, |i| i as f64).into(),
                None => 0.5.into(),
            },
            Primitive::String => {
                if let Some(pattern) = &constraints.pattern {
                    // A pattern no sample was found for is left to the
                    // checker's proof of every sample (tests/examples.rs).
                    if let Some(s) = crate::pattern::sample(pattern, constraints.length) {
                        return s.into();
                    }
                }
                let max_len = constraints.length.map_or(u64::MAX, |(_, max)| max);
                let len = min_len.max(1).min(max_len);
                "x".repeat(usize::try_from(len).unwrap_or(0)).into()
            }
            // Padded base64 of as many zero bytes as the field needs.
            Primitive::Bytes => "AAAA"
                .repeat(usize::try_from(min_len.div_ceil(3)).unwrap_or(0))
                .into(),
            Primitive::Json => serde_json::json!({}),
            _ => match low {
                Some(Number::Int(i)) => {
                    i64::try_from(i).map_or(serde_json::Value::Null, Into::into)
                }
                Some(Number::Float(f)) => (f.ceil() as i64).into(),
                None => 1.into(),
            },
        },
        Type::List(item) => {
            let count = if depth < EXAMPLE_DEPTH { min_len } else { 0 };
            let one = field_example(model, item, &Constraints::default(), depth + 1);
            serde_json::Value::Array(vec![one; usize::try_from(count).unwrap_or(0)])
        }
        Type::Map(value) => {
            let count = if depth < EXAMPLE_DEPTH { min_len } else { 0 };
            let one = field_example(model, value, &Constraints::default(), depth + 1);
            (1..=count)
                .map(|i| (format!("key{i}"), one.clone()))
                .collect::<serde_json::Map<_, _>>()
                .into()
        }
        Type::Optional(inner) => field_example(model, inner, constraints, depth),
        Type::Named(r) => named_example(model, r.id, depth),
    }
}

#[cfg(test)]
mod tests {
    use crate::{Sources, check};

    /// Every sample request the metadata makes from the types, for every
    /// tool and action of the reference catalogue (`idl/`, with the job
    /// tools), is one the checker accepts as a declared example's request:
    /// within every `@range`, `@length` and `@pattern`.
    #[test]
    fn every_sample_of_the_reference_catalogue_passes_the_checker() {
        let mut sources = Sources::new();
        sources.add_job_tools();
        let idl = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../idl");
        let mut paths: Vec<_> = std::fs::read_dir(&idl)
            .expect("idl/")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "tool"))
            .collect();
        paths.sort();
        for path in paths {
            sources.add(
                path.display().to_string(),
                std::fs::read(&path).expect("readable"),
            );
        }
        let model = check(&sources).expect("the reference catalogue checks");
        let mut checked = 0;
        let mut refused = Vec::new();
        for tool in &model.tools {
            for (action, endpoint) in tool.endpoints() {
                let super::Sample { request } =
                    super::sample(&model, endpoint, action.map(|a| a.name.as_str()));
                let mut request = request;
                if let Some(fields) = request.as_object_mut() {
                    fields.remove("action");
                }
                let problems =
                    crate::check::examples::check_request_json(&model.types, endpoint, &request);
                if !problems.is_empty() {
                    refused.push(format!("{} {request}: {problems:?}", tool.name));
                }
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked} samples");
        assert!(refused.is_empty(), "{}", refused.join("\n"));
    }

    #[test]
    fn every_entry_lists_its_scopes_even_when_none() {
        let mut sources = Sources::new();
        sources.add(
            "vault.tool",
            "@scopes(\"vault:read\") category vault;\n\
             tool get { timing sync }\n\
             @scopes() tool ping { timing sync }",
        );
        let model = check(&sources).expect("valid");
        let scopes: Vec<serde_json::Value> = model
            .tools
            .iter()
            .map(|tool| serde_json::to_value(super::entry(&model, tool)).unwrap()["scopes"].clone())
            .collect();
        assert_eq!(
            scopes,
            [serde_json::json!(["vault:read"]), serde_json::json!([])]
        );
    }

    #[test]
    fn a_json_parameter_has_no_type_and_the_others_their_json_schema_type() {
        let mut sources = Sources::new();
        sources.add(
            "config.tool",
            "tool set { timing sync  request { key: string, value: json, default: json?, n: u8? } }",
        );
        let model = check(&sources).expect("valid");
        let entry = serde_json::to_value(super::entry(&model, &model.tools[0])).unwrap();
        let types: Vec<(&str, Option<&str>)> = entry["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                (
                    p["name"].as_str().unwrap(),
                    p.get("type").map(|t| t.as_str().unwrap()),
                )
            })
            .collect();
        assert_eq!(
            types,
            [
                ("key", Some("string")),
                ("value", None),
                ("default", None),
                ("n", Some("integer"))
            ]
        );
    }
}
