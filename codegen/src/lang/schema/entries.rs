//! Resources and prompts as MCP lists them (`resources/list`,
//! `resources/templates/list`, `prompts/list`), and what the runtime's MCP
//! server needs besides to serve them: each one's arguments as a JSON
//! Schema (to check a read's template variables and a prompt's arguments
//! as it checks a call's), how a read's contents are carried, and where
//! each argument's completions come from.

use serde_json::{Map, Value as Json, json};

use super::SCOPES_META;
use super::defs::rooted;
use super::dialect::DIALECT;
use super::input::request;
use super::types::{Cx, describe};
use crate::model::{Completion, Contents, Prompt, Resource, Scope, TypeId, TypeKind};

/// What [`super::mcp_schema`] adds for resources and prompts, each key
/// only when the catalogue has some.
pub(super) fn entries(cx: &Cx<'_>) -> Map<String, Json> {
    let model = cx.model;
    let mut out = Map::new();
    let (templates, fixed): (Vec<&Resource>, Vec<&Resource>) =
        model.resources.iter().partition(|r| r.template);
    if !fixed.is_empty() {
        out.insert(
            "resources".into(),
            fixed.iter().map(|r| resource(r, "uri")).collect(),
        );
    }
    if !templates.is_empty() {
        out.insert(
            "resourceTemplates".into(),
            templates
                .iter()
                .map(|r| resource(r, "uriTemplate"))
                .collect(),
        );
    }
    if !model.prompts.is_empty() {
        out.insert(
            "prompts".into(),
            model.prompts.iter().map(|p| prompt(cx, p)).collect(),
        );
    }
    let readers: Map<String, Json> = model
        .resources
        .iter()
        .map(|r| (r.name.clone(), reader(cx, r)))
        .collect();
    if !readers.is_empty() {
        out.insert("readers".into(), Json::Object(readers));
    }
    let getters: Map<String, Json> = model
        .prompts
        .iter()
        .map(|p| (p.name.clone(), getter(cx, p)))
        .collect();
    if !getters.is_empty() {
        out.insert("getters".into(), Json::Object(getters));
    }
    out
}

/// A resource or template as its list gives it; `uri_key` is `uri` or
/// `uriTemplate`.
fn resource(resource: &Resource, uri_key: &str) -> Json {
    let mut object = Map::new();
    object.insert(uri_key.into(), json!(resource.uri));
    object.insert("name".into(), json!(resource.name));
    if let Some(title) = &resource.title {
        object.insert("title".into(), json!(title));
    }
    if let Some(description) = describe(resource.docs.as_deref(), resource.deprecated.as_ref()) {
        object.insert("description".into(), json!(description));
    }
    object.insert("mimeType".into(), json!(resource.mime));
    if let Some(size) = resource.size {
        object.insert("size".into(), json!(size));
    }
    let mut annotations = Map::new();
    if !resource.audience.is_empty() {
        let audience: Vec<&str> = resource.audience.iter().map(|r| r.as_str()).collect();
        annotations.insert("audience".into(), json!(audience));
    }
    if let Some(priority) = resource.priority {
        annotations.insert("priority".into(), json!(priority));
    }
    if !annotations.is_empty() {
        object.insert("annotations".into(), Json::Object(annotations));
    }
    insert_scopes(&resource.scopes, &mut object);
    Json::Object(object)
}

/// A prompt as `prompts/list` gives it: its arguments by name, each with
/// its description and whether it is required (MCP sends their values as
/// strings; the schema in [`getter`] says which strings).
fn prompt(cx: &Cx<'_>, prompt: &Prompt) -> Json {
    let mut object = Map::new();
    object.insert("name".into(), json!(prompt.name));
    if let Some(title) = &prompt.title {
        object.insert("title".into(), json!(title));
    }
    if let Some(description) = describe(prompt.docs.as_deref(), prompt.deprecated.as_ref()) {
        object.insert("description".into(), json!(description));
    }
    if let Some(TypeKind::Struct(fields)) = prompt.arguments.map(|id| &cx.model.type_def(id).kind) {
        let arguments: Vec<Json> = fields
            .iter()
            .map(|field| {
                let mut argument = Map::new();
                argument.insert("name".into(), json!(field.name));
                if let Some(description) =
                    describe(field.docs.as_deref(), field.deprecated.as_ref())
                {
                    argument.insert("description".into(), json!(description));
                }
                argument.insert("required".into(), json!(field.required));
                Json::Object(argument)
            })
            .collect();
        object.insert("arguments".into(), json!(arguments));
    }
    insert_scopes(&prompt.scopes, &mut object);
    Json::Object(object)
}

/// How the server reads a resource: its arguments' schema, how its
/// contents are carried, whether it can be subscribed to, how long a read
/// may be kept, and its arguments' completions.
fn reader(cx: &Cx<'_>, resource: &Resource) -> Json {
    let contents = match resource.contents {
        Contents::Text => "text",
        Contents::Bytes => "bytes",
        Contents::Typed(_) => "json",
    };
    let mut object = Map::new();
    object.insert(
        "inputSchema".into(),
        arguments_schema(cx, resource.arguments),
    );
    object.insert("contents".into(), json!(contents));
    object.insert("subscribable".into(), json!(resource.subscribable));
    if let Some(cache) = resource.cache {
        object.insert(
            "cache".into(),
            json!({ "ttlMs": cache.ttl_ms, "cacheScope": cache.scope.as_str() }),
        );
    }
    insert_completions(cx, resource.arguments, &mut object);
    Json::Object(object)
}

/// How the server gets a prompt: its arguments' schema and completions.
fn getter(cx: &Cx<'_>, prompt: &Prompt) -> Json {
    let mut object = Map::new();
    object.insert("inputSchema".into(), arguments_schema(cx, prompt.arguments));
    insert_completions(cx, prompt.arguments, &mut object);
    Json::Object(object)
}

/// The arguments as an object schema, self-contained like a tool's
/// `inputSchema`.
fn arguments_schema(cx: &Cx<'_>, arguments: Option<TypeId>) -> Json {
    let mut schema = rooted(request(cx, arguments), cx, arguments);
    if schema.contains_key("$defs") {
        schema.insert("$schema".into(), json!(DIALECT));
    }
    Json::Object(schema)
}

/// `completions`: each argument that completes, with an enum's values or
/// `"handler"` for one its handler completes (`@complete`).
fn insert_completions(cx: &Cx<'_>, arguments: Option<TypeId>, object: &mut Map<String, Json>) {
    let completions: Map<String, Json> = cx
        .model
        .completions(arguments)
        .into_iter()
        .filter_map(|(field, completion)| {
            let source = match completion {
                Completion::Enum(values) => json!(values),
                Completion::Handler => json!("handler"),
                Completion::None => return None,
            };
            Some((field.name.clone(), source))
        })
        .collect();
    if !completions.is_empty() {
        object.insert("completions".into(), Json::Object(completions));
    }
}

/// `_meta["toolwright/scopes"]`, as on a tool: the scopes a read or a
/// `prompts/get` needs, when it needs some.
fn insert_scopes(scopes: &[Scope], object: &mut Map<String, Json>) {
    if !scopes.is_empty() {
        let names: Vec<&str> = scopes.iter().map(|s| s.name.as_str()).collect();
        object.insert("_meta".into(), json!({ SCOPES_META: names }));
    }
}
