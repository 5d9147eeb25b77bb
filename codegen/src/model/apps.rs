//! A tool's MCP App (`@app`): the `ui://` resource a host renders for the
//! tool's calls, generated from the tool's schema or written by hand.

use std::path::PathBuf;

use serde::Serialize;

/// The MIME type of an MCP App's HTML (the `io.modelcontextprotocol/ui`
/// extension's only content type).
pub const APP_MIME: &str = "text/html;profile=mcp-app";

/// The URI scheme of an app's resource.
pub const APP_SCHEME: &str = "ui://";

/// The largest hand-written app the generator embeds, in bytes: the
/// catalogue carries every app's HTML in its MCP schema.
pub const MAX_APP_BYTES: u64 = 2 * 1024 * 1024;

/// The app of a tool with `@app`.
#[derive(Clone, Debug, Serialize)]
pub struct App {
    /// Its resource's URI, `ui://<tool>`: what the tool's
    /// `_meta.ui.resourceUri` names and `resources/read` serves.
    pub uri: String,
    /// Where its HTML comes from.
    pub source: AppSource,
    /// Origins it may connect to (`@app_connect`; CSP `connect-src`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub connect_domains: Vec<String>,
    /// Origins it may load resources from (`@app_resources`; CSP
    /// `img-src`, `script-src`, `style-src`, `font-src`, `media-src`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resource_domains: Vec<String>,
}

impl App {
    /// The URI of the app of the tool called `tool`.
    pub fn uri_of(tool: &str) -> String {
        format!("{APP_SCHEME}{tool}")
    }
}

/// Where an app's HTML comes from.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum AppSource {
    /// `@app`: generated from the tool's schema (a form for its arguments,
    /// a view of its response and errors).
    Generated,
    /// `@app("apps/add.html")`: a file beside the `.tool` file, read when
    /// the catalogue is checked.
    File {
        /// The path as written, relative to the `.tool` file.
        path: String,
        /// The path it resolved to, for build scripts to watch.
        #[serde(skip)]
        resolved: PathBuf,
        /// The file's content.
        #[serde(skip)]
        html: String,
    },
}
