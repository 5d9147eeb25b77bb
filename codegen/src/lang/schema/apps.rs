//! MCP Apps (the `io.modelcontextprotocol/ui` extension): each tool with
//! `@app` names its `ui://` resource in `_meta.ui.resourceUri`; the
//! resource is listed with the others and its HTML carried in the schema's
//! `apps` map, which the runtime serves `resources/read` from.

use serde_json::{Map, Value as Json, json};

use super::types::describe;
use crate::lang::app;
use crate::model::{APP_MIME, App, AppSource, Model, Tool};

/// The `_meta` key of the extension's fields, on a tool and on its app's
/// resource.
pub(super) const UI_META: &str = "ui";

/// A tool's `_meta.ui`: the URI of its app.
pub(super) fn tool_meta(app: &App) -> Json {
    json!({ "resourceUri": app.uri })
}

/// The app resources as `resources/list` gives them, and the `apps` map
/// `{uri: html}`; `listed` is the `tools` array, in model order.
pub(super) fn apps(model: &Model, listed: &[Json]) -> (Vec<Json>, Map<String, Json>) {
    let mut resources = Vec::new();
    let mut html = Map::new();
    for (tool, listed) in model.tools.iter().zip(listed) {
        let Some(app) = &tool.app else {
            continue;
        };
        resources.push(resource(tool, app));
        let page = match &app.source {
            AppSource::Generated => app::page(model, tool, listed),
            AppSource::File { html, .. } => html.clone(),
        };
        html.insert(app.uri.clone(), json!(page));
    }
    (resources, html)
}

/// The app's resource: named after its tool, with the tool's title, and
/// its CSP in `_meta.ui` when it declares origins.
fn resource(tool: &Tool, app: &App) -> Json {
    let mut object = Map::new();
    object.insert("uri".into(), json!(app.uri));
    object.insert("name".into(), json!(tool.name));
    if let Some(title) = &tool.title {
        object.insert("title".into(), json!(title));
    }
    let what = match app.source {
        AppSource::Generated => "a form for its arguments and a view of its result",
        AppSource::File { .. } => "its view",
    };
    let docs = format!("The app of tool `{}`: {what}.", tool.name);
    if let Some(description) = describe(Some(&docs), tool.deprecated.as_ref()) {
        object.insert("description".into(), json!(description));
    }
    object.insert("mimeType".into(), json!(APP_MIME));
    if let Some(meta) = resource_meta(app) {
        object.insert("_meta".into(), json!({ UI_META: meta }));
    }
    Json::Object(object)
}

/// The resource's `_meta.ui`: `{"csp": {"connectDomains", "resourceDomains"}}`
/// with the lists it declares; `None` without any (the host's restrictive
/// default).
fn resource_meta(app: &App) -> Option<Json> {
    let mut csp = Map::new();
    if !app.connect_domains.is_empty() {
        csp.insert("connectDomains".into(), json!(app.connect_domains));
    }
    if !app.resource_domains.is_empty() {
        csp.insert("resourceDomains".into(), json!(app.resource_domains));
    }
    (!csp.is_empty()).then(|| json!({ "csp": csp }))
}
