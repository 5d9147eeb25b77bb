//! MCP Apps (extension `io.modelcontextprotocol/ui`, stable 2026-01-26): a
//! tool names its `ui://` resource in `_meta.ui.resourceUri` (the
//! catalogue's `tools/list` carries it), the resource is listed and read
//! like the others, and a server with apps declares the extension.

use rmcp::model::JsonObject;
use serde_json::json;

use crate::edge::APP_MIME;

/// The extension's identifier, its key in `capabilities.extensions`.
pub(crate) const EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The extension as a server with apps declares it: its identifier, and
/// the content types its apps are in (as a host declares those it renders).
pub(crate) fn extension() -> (&'static str, JsonObject) {
    let mut settings = JsonObject::new();
    settings.insert("mimeTypes".into(), json!([APP_MIME]));
    (EXTENSION, settings)
}
