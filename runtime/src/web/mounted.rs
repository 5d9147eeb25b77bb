//! Mounted servers' tools on the web routes: in `GET /api/tools` with
//! `source: "mcp"`, and called through `POST /api/tools/{name}` as JSON
//! (their resources and prompts: `mounted_entries.rs`).

use std::sync::Arc;

use axum::response::Response;

use super::Web;
use super::call::answer;
use crate::edge::JsonObject;
use crate::mount::Mounts;
use crate::port::CallPort;
use crate::{Json, Principal, ResponseEnvelope};

/// `base` (the catalogue's document) with the tools of the mounts that
/// answer added to its `tools`, in seed 004's shape as far as a tool with
/// no IDL has one: its schemas as its server lists them, its parameters
/// from its input schema's properties, its category its mount's prefix;
/// and their resources and prompts to its `resources` and `prompts`.
pub(super) fn document(base: &Json, mounts: &Mounts) -> Json {
    let mut document = base.clone();
    let local: Vec<String> = tool_names(&document);
    if let Some(tools) = document.get_mut("tools").and_then(Json::as_array_mut) {
        for (prefix, listing) in mounts.listings() {
            for tool in &listing.tools {
                // A catalogue's tool of the same name is the one served.
                if !local.iter().any(|name| **name == *tool.name) {
                    tools.push(entry(prefix, mounts.scopes_of(&tool.name), tool));
                }
            }
        }
    }
    super::mounted_entries::add(&mut document, mounts);
    document
}

fn tool_names(document: &Json) -> Vec<String> {
    document["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str().map(str::to_owned))
        .collect()
}

/// One mounted tool's entry.
fn entry(prefix: &str, scopes: &[String], tool: &rmcp::model::Tool) -> Json {
    let schema = &*tool.input_schema;
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(Json::as_str)
        .collect();
    let parameters: Vec<Json> = schema
        .get("properties")
        .and_then(Json::as_object)
        .into_iter()
        .flatten()
        .map(|(name, property)| parameter(name, property, required.contains(&name.as_str())))
        .collect();
    let hints = tool.annotations.as_ref();
    let hint = |h: Option<bool>| h.unwrap_or(false);
    let mut entry = serde_json::json!({
        "name": tool.name,
        "category": prefix,
        "source": "mcp",
        "mount": prefix,
        "annotations": {
            "readOnlyHint": hint(hints.and_then(|a| a.read_only_hint)),
            "destructiveHint": hint(hints.and_then(|a| a.destructive_hint)),
            "idempotentHint": hint(hints.and_then(|a| a.idempotent_hint)),
            "openWorldHint": hint(hints.and_then(|a| a.open_world_hint)),
        },
        "scopes": scopes,
        "parameters": parameters,
        "errorCodes": [],
        "streams": false,
        "inputSchema": schema,
    });
    let object = entry.as_object_mut().expect("built as an object");
    if let Some(title) = &tool.title {
        object.insert("title".to_owned(), title.clone().into());
    }
    if let Some(description) = &tool.description {
        object.insert("description".to_owned(), description.to_string().into());
    }
    if let Some(output) = &tool.output_schema {
        object.insert("outputSchema".to_owned(), Json::Object((**output).clone()));
    }
    entry
}

/// A parameter from its property's schema: its JSON type when the schema
/// names one (`["string", "null"]` is a string), none when it admits any.
fn parameter(name: &str, property: &Json, required: bool) -> Json {
    let json_type = match property.get("type") {
        Some(Json::String(t)) => Some(t.as_str()),
        Some(Json::Array(types)) => types.iter().filter_map(Json::as_str).find(|t| *t != "null"),
        _ => None,
    };
    let mut parameter = JsonObject::new();
    parameter.insert("name".to_owned(), name.into());
    if let Some(json_type) = json_type {
        parameter.insert("type".to_owned(), json_type.into());
    }
    parameter.insert("idlType".to_owned(), "json".into());
    if let Some(description) = property.get("description").and_then(Json::as_str) {
        parameter.insert("description".to_owned(), description.into());
    }
    parameter.insert("required".to_owned(), required.into());
    if let Some(default) = property.get("default") {
        parameter.insert("default".to_owned(), default.clone());
    }
    Json::Object(parameter)
}

/// Calls the mounted tool `name` for `principal` (else the web's shared
/// owner): its structured result (else its content blocks) as the
/// envelope's `success`, a tool error as `error`, a mount that is not
/// connected `UNAVAILABLE` (503). Reported to the events with
/// `source: "mcp"`.
pub(super) async fn call<P: CallPort>(
    web: &Web<P>,
    name: &str,
    args: JsonObject,
    principal: Option<Arc<Principal>>,
) -> Response {
    let owner = match &principal {
        Some(principal) => principal.owner(),
        None => crate::jobs::Owner::new("web"),
    };
    let events = web.edge.port().events();
    let trace = events.start_mounted(name, || Json::Object(args.clone()), Some(&owner));
    let mounts = web.edge.mounts();
    let outcome = match mounts
        .call_tool(name, Some(args), principal.as_deref())
        .await
    {
        Some(Ok(result)) => crate::client::tool_outcome(result),
        Some(Err(e)) => Err(e.into_tool_error()),
        // Unmounted since it was routed: as if it never was.
        None => Err(crate::error::unknown_tool_in::<P::Catalogue>(name)),
    };
    if let Some(trace) = trace {
        trace.end_mounted(outcome.clone());
    }
    match outcome {
        Ok(value) => answer(&ResponseEnvelope::Success(value)),
        Err(e) => super::call::failed(web, e, mounts.scopes_of(name)),
    }
}
