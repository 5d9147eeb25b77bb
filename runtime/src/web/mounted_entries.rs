//! Mounted servers' resources and prompts on the web routes: listed in
//! `GET /api/tools` with `source: "mcp"`, read through `GET
//! /api/resources` and got through `POST /api/prompts/{name}`.

use std::sync::Arc;

use axum::http::header;
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use rmcp::model::{ErrorCode, ResourceContents};
use serde_json::json;
use toolwright_vocab::UriTemplate;
use toolwright_vocab::uri_template::Operator;

use super::Web;
use super::call::{NO_SCOPES, answer, failed};
use crate::edge::JsonObject;
use crate::mount::{Mounts, Proxied};
use crate::port::CallPort;
use crate::{Json, Principal, ResponseEnvelope, ToolError};

/// The `_meta` key a mounted entry lists the scopes it needs under.
const SCOPES_META: &str = "toolwright/scopes";

/// Adds to `document`'s `resources` and `prompts` those of the mounts that
/// answer, but for a URI or a name the catalogue already serves.
pub(super) fn add(document: &mut Json, mounts: &Mounts) {
    let local_uris = keys(document, "resources", "uri");
    let local_prompts = keys(document, "prompts", "name");
    let mut resources = Vec::new();
    let mut prompts = Vec::new();
    for (prefix, listing) in mounts.listings() {
        let listed = listing.resources.iter().map(|r| (r, "uri"));
        let templates = listing.templates.iter().map(|t| (t, "uriTemplate"));
        for (listed, key) in listed.chain(templates) {
            let uri = text(listed, key);
            if !local_uris.iter().any(|u| u == uri) {
                resources.push(resource(prefix, listed, uri));
            }
        }
        for listed in &listing.prompts {
            if !local_prompts.iter().any(|n| n == text(listed, "name")) {
                prompts.push(prompt(prefix, listed));
            }
        }
    }
    for (list, mounted) in [("resources", resources), ("prompts", prompts)] {
        let entries = document
            .as_object_mut()
            .map(|d| d.entry(list).or_insert_with(|| Json::Array(Vec::new())));
        if let Some(Json::Array(entries)) = entries {
            entries.extend(mounted);
        }
    }
}

/// The `key` of every entry of the document's `list`.
fn keys(document: &Json, list: &str, key: &str) -> Vec<String> {
    document[list]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e[key].as_str().map(str::to_owned))
        .collect()
}

fn text<'a>(object: &'a JsonObject, key: &str) -> &'a str {
    object.get(key).and_then(Json::as_str).unwrap_or("")
}

/// What every mounted entry has: its names, where it comes from and the
/// scopes its mount needs.
fn common(prefix: &str, listed: &JsonObject) -> JsonObject {
    let mut entry = JsonObject::new();
    entry.insert("name".to_owned(), text(listed, "name").into());
    for key in ["title", "description"] {
        if let Some(value) = listed.get(key).filter(|v| v.is_string()) {
            entry.insert(key.to_owned(), value.clone());
        }
    }
    entry.insert("category".to_owned(), prefix.into());
    entry.insert("source".to_owned(), "mcp".into());
    entry.insert("mount".to_owned(), prefix.into());
    let scopes = listed
        .get("_meta")
        .and_then(|meta| meta.get(SCOPES_META))
        .cloned()
        .unwrap_or_else(|| json!([]));
    entry.insert("scopes".to_owned(), scopes);
    entry
}

/// One mounted resource's (or template's) entry: its variables are its
/// arguments, each a string.
fn resource(prefix: &str, listed: &JsonObject, uri: &str) -> Json {
    let variables: Vec<(String, bool)> = UriTemplate::parse(uri)
        .map(|template| {
            template
                .variables()
                .map(|(name, operator)| {
                    let optional =
                        matches!(operator, Operator::Query | Operator::QueryContinuation);
                    (name.to_owned(), !optional)
                })
                .collect()
        })
        .unwrap_or_default();
    let arguments = variables
        .iter()
        .map(|(name, required)| argument(name, None, *required));
    let mut entry = common(prefix, listed);
    entry.insert("uri".to_owned(), uri.into());
    entry.insert(
        "template".to_owned(),
        listed.contains_key("uriTemplate").into(),
    );
    if let Some(mime) = listed.get("mimeType").filter(|m| m.is_string()) {
        entry.insert("mimeType".to_owned(), mime.clone());
    }
    entry.insert("subscribable".to_owned(), false.into());
    finish(entry, arguments.collect())
}

/// One mounted prompt's entry: its arguments as its server lists them.
fn prompt(prefix: &str, listed: &JsonObject) -> Json {
    let arguments = listed
        .get("arguments")
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
        .filter_map(|a| {
            let name = a.get("name")?.as_str()?;
            let description = a.get("description").and_then(Json::as_str);
            let required = a.get("required").and_then(Json::as_bool) == Some(true);
            Some(argument(name, description, required))
        });
    finish(common(prefix, listed), arguments.collect())
}

/// An argument as a parameter: a string, as MCP sends them.
fn argument(name: &str, description: Option<&str>, required: bool) -> Json {
    let mut argument = json!({"name": name, "type": "string", "idlType": "string"});
    if let Some(description) = description {
        argument["description"] = description.into();
    }
    argument["required"] = required.into();
    argument
}

/// `entry` with its `arguments`, no completions or errors, and an input
/// schema of string properties made from the arguments.
fn finish(mut entry: JsonObject, arguments: Vec<Json>) -> Json {
    let mut properties = JsonObject::new();
    let mut required = Vec::new();
    for argument in &arguments {
        let name = argument["name"].as_str().unwrap_or("").to_owned();
        let mut property = json!({"type": "string"});
        if let Some(description) = argument.get("description") {
            property["description"] = description.clone();
        }
        if argument["required"] == true {
            required.push(Json::String(name.clone()));
        }
        properties.insert(name, property);
    }
    entry.insert("arguments".to_owned(), Json::Array(arguments));
    entry.insert("completions".to_owned(), json!([]));
    entry.insert("errors".to_owned(), json!([]));
    let schema = json!({"type": "object", "properties": properties, "required": required});
    entry.insert("inputSchema".to_owned(), schema);
    Json::Object(entry)
}

/// Reads the mounted resource served as `uri`, answered as a catalogue
/// resource is; `None` when `uri` is no mount's.
pub(super) async fn read<P: CallPort>(
    web: &Web<P>,
    uri: &str,
    principal: Option<Arc<Principal>>,
) -> Option<Response> {
    let mounts = web.edge.mounts();
    let (prefix, scopes) = mounts.mount_of_uri(uri)?;
    if !lists(mounts, prefix, uri) {
        return None;
    }
    let read = mounts.read(uri, principal.as_deref()).await?;
    let contents = match read {
        Ok(result) => result.contents,
        Err(Proxied::Refused(e)) if e.code == ErrorCode::RESOURCE_NOT_FOUND => return None,
        Err(e) => return Some(failed(web, e.into_tool_error(), scopes)),
    };
    let Some(first) = contents.into_iter().next() else {
        let e = ToolError::internal("the mounted server answered the read with no contents");
        return Some(answer::<()>(&ResponseEnvelope::Error(e)));
    };
    Some(body(web, first))
}

/// False when a mount that answers lists neither `uri` nor a template it
/// matches; a mount that does not answer, or a template this server
/// cannot parse, is left for the read to find out.
fn lists(mounts: &Mounts, prefix: &str, uri: &str) -> bool {
    let listings = mounts.listings();
    let Some((_, listing)) = listings.iter().find(|(p, _)| *p == prefix) else {
        return true;
    };
    listing.resources.iter().any(|r| text(r, "uri") == uri)
        || listing.templates.iter().any(|t| {
            UriTemplate::parse(text(t, "uriTemplate"))
                .map_or(true, |template| template.matches(uri).is_some())
        })
}

/// The contents as the response's body, as [`super::resources`] answers
/// a catalogue resource's: text in UTF-8, bytes decoded from base64, in
/// the contents' MIME type; `no-cache`, as the mounted lists say.
fn body<P>(web: &Web<P>, contents: ResourceContents) -> Response {
    let (mime, bytes) = match contents {
        ResourceContents::TextResourceContents {
            mime_type, text, ..
        } => {
            let mime = mime_type.unwrap_or_else(|| "text/plain".to_owned());
            let mime = if mime.contains("charset=") {
                mime
            } else {
                format!("{mime}; charset=utf-8")
            };
            (mime, text.into_bytes())
        }
        ResourceContents::BlobResourceContents {
            mime_type, blob, ..
        } => match base64::engine::general_purpose::STANDARD.decode(blob) {
            Ok(bytes) => {
                let mime = mime_type.unwrap_or_else(|| "application/octet-stream".to_owned());
                (mime, bytes)
            }
            Err(e) => {
                let e = ToolError::new(
                    crate::client::codes::PROTOCOL,
                    format!("the mounted server's blob is not base64: {e}"),
                );
                return failed(web, e, NO_SCOPES);
            }
        },
        _ => {
            let e = ToolError::new(
                crate::client::codes::PROTOCOL,
                "the mounted server answered contents of a kind this server does not know",
            );
            return failed(web, e, NO_SCOPES);
        }
    };
    super::resources::respond(&mime, bytes, "no-cache")
}

/// Gets the mounted prompt served as `name` with `args` (each a string,
/// as on MCP), answered as a catalogue prompt is; `None` when no mount
/// serves it.
pub(super) async fn prompt_of<P: CallPort>(
    web: &Web<P>,
    name: &str,
    args: JsonObject,
    principal: Option<Arc<Principal>>,
) -> Option<Response> {
    let mounts = web.edge.mounts();
    let strings = args
        .into_iter()
        .map(|(k, v)| (k, Json::String(crate::edge::entry_json::argument_text(v))))
        .collect();
    let got = mounts
        .prompt(name, Some(strings), principal.as_deref())
        .await?;
    Some(match got {
        Ok(result) => {
            let mut body = json!({ "messages": result.messages });
            if let Some(description) = result.description {
                body["description"] = description.into();
            }
            (
                [(header::CONTENT_TYPE, "application/json")],
                body.to_string(),
            )
                .into_response()
        }
        Err(e) => failed(web, e.into_tool_error(), mounts.scopes_of(name)),
    })
}
