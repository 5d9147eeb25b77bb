//! MCP Apps (the `io.modelcontextprotocol/ui` extension): each tool with
//! `@app` names its `ui://` resource in `_meta.ui.resourceUri`; the
//! resource is listed with the others and its HTML carried in the schema's
//! `apps` map, which the runtime serves `resources/read` from.

use serde_json::{Map, Value as Json, json};

use super::SCOPES_META;
use super::types::describe;
use crate::lang::app;
use crate::model::{APP_MIME, App, AppSource, Model, Tool};

/// The `_meta` key of the extension's fields, on a tool and on its app's
/// resource.
pub(super) const UI_META: &str = "ui";

/// A tool's `_meta.ui`: the URI of its app, and who hosts let see and
/// call it when `@app_visibility` says; `None` when it says neither.
pub(super) fn tool_meta(tool: &Tool) -> Option<Json> {
    let mut ui = Map::new();
    if let Some(app) = &tool.app {
        ui.insert("resourceUri".into(), json!(app.uri));
    }
    if !tool.visibility.is_empty() {
        let visibility: Vec<&str> = tool.visibility.iter().map(|v| v.as_str()).collect();
        ui.insert("visibility".into(), json!(visibility));
    }
    (!ui.is_empty()).then_some(Json::Object(ui))
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

/// The app's resource: named after its tool, with the tool's title, what
/// it asks of its host in `_meta.ui`, and the tool's scopes.
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
    let mut meta = Map::new();
    if let Some(ui) = resource_meta(app) {
        meta.insert(UI_META.into(), ui);
    }
    // The page is the tool's: it shows the tool's calls and makes them, so
    // a read of it needs what a call does. An action tool's scopes are the
    // tool's own (or its category's), which every action needs, since
    // actions take none of their own: the page serves all its actions.
    if !tool.scopes.is_empty() {
        meta.insert(
            SCOPES_META.into(),
            json!(tool.scope_names().collect::<Vec<_>>()),
        );
    }
    if !meta.is_empty() {
        object.insert("_meta".into(), Json::Object(meta));
    }
    Json::Object(object)
}

/// The resource's `_meta.ui`: its CSP's origins (`connectDomains`,
/// `resourceDomains`, `frameDomains`, `baseUriDomains`), its
/// `permissions` (`{"camera": {}, …}`) and `prefersBorder`, each when
/// declared; `None` without any (the host's restrictive defaults).
fn resource_meta(app: &App) -> Option<Json> {
    let mut csp = Map::new();
    for (key, origins) in [
        ("connectDomains", &app.connect_domains),
        ("resourceDomains", &app.resource_domains),
        ("frameDomains", &app.frame_domains),
        ("baseUriDomains", &app.base_uri_domains),
    ] {
        if !origins.is_empty() {
            csp.insert(key.into(), json!(origins));
        }
    }
    let mut ui = Map::new();
    if !csp.is_empty() {
        ui.insert("csp".into(), Json::Object(csp));
    }
    if !app.permissions.is_empty() {
        let permissions: Map<String, Json> = app
            .permissions
            .iter()
            .map(|p| (p.key().to_owned(), json!({})))
            .collect();
        ui.insert("permissions".into(), Json::Object(permissions));
    }
    if let Some(border) = app.prefers_border {
        ui.insert("prefersBorder".into(), json!(border));
    }
    (!ui.is_empty()).then_some(Json::Object(ui))
}
