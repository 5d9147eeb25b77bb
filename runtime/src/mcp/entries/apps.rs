//! MCP Apps (extension `io.modelcontextprotocol/ui`, stable 2026-01-26): a
//! tool names its `ui://` resource in `_meta.ui.resourceUri` (the
//! catalogue's `tools/list` carries it), the resource is listed and read
//! like the others, and a server with apps declares the extension. A client
//! that does not declare it is listed its tools without `_meta.ui`.

use rmcp::model::{ClientCapabilities, JsonObject, Tool};
use serde_json::{Value as Json, json};

use crate::edge::APP_MIME;

/// The extension's identifier, its key in `capabilities.extensions`.
pub(crate) const EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The `_meta` key of the extension's fields on a tool.
const UI_META: &str = "ui";

/// The extension as a server with apps declares it: its identifier, and
/// the content types its apps are in (as a host declares those it renders).
pub(crate) fn extension() -> (&'static str, JsonObject) {
    let mut settings = JsonObject::new();
    settings.insert("mimeTypes".into(), json!([APP_MIME]));
    (EXTENSION, settings)
}

/// Whether a client renders apps: it declares the extension with the apps'
/// content type among the `mimeTypes` it renders.
pub(crate) fn renders(capabilities: Option<&ClientCapabilities>) -> bool {
    capabilities
        .and_then(|c| c.extensions.as_ref())
        .and_then(|extensions| extensions.get(EXTENSION))
        .and_then(|settings| settings.get("mimeTypes"))
        .and_then(Json::as_array)
        .is_some_and(|types| types.iter().any(|t| t.as_str() == Some(APP_MIME)))
}

/// A tool as listed to a client that renders no apps: without the
/// `_meta.ui` that names a page it cannot show. The extension asks a server
/// to check before it offers a tool's app; the tool itself is the same
/// (its result's text is what such a client shows).
pub(crate) fn without_app(tool: &mut Tool) {
    if let Some(meta) = tool.meta.as_mut() {
        meta.remove(UI_META);
        if meta.is_empty() {
            tool.meta = None;
        }
    }
}
