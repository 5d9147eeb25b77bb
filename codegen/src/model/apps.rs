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
    /// Origins it may embed in frames (`@app_frames`; CSP `frame-src`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub frame_domains: Vec<String>,
    /// Origins its document's base URI may be (`@app_base_uri`; CSP
    /// `base-uri`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub base_uri_domains: Vec<String>,
    /// The browser features it asks the host for (`@app_permissions`),
    /// each once, in the order written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub permissions: Vec<AppPermission>,
    /// `@app_border` (`true`) or `@app_border(false)`: whether it would
    /// have the host draw a border and background; `None` leaves it to the
    /// host.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefers_border: Option<bool>,
}

impl App {
    /// The URI of the app of the tool called `tool`.
    pub fn uri_of(tool: &str) -> String {
        format!("{APP_SCHEME}{tool}")
    }
}

/// A browser feature an app asks its host for (`_meta.ui.permissions`):
/// a host may grant it through the frame's `allow` attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AppPermission {
    /// The camera (Permissions Policy `camera`).
    Camera,
    /// The microphone (`microphone`).
    Microphone,
    /// The device's location (`geolocation`).
    Geolocation,
    /// Writing to the clipboard (`clipboard-write`).
    ClipboardWrite,
}

impl AppPermission {
    /// Every permission, in the specification's order.
    pub const ALL: [AppPermission; 4] = [
        AppPermission::Camera,
        AppPermission::Microphone,
        AppPermission::Geolocation,
        AppPermission::ClipboardWrite,
    ];

    /// The name `@app_permissions` takes: `clipboard_write`.
    pub fn as_str(self) -> &'static str {
        match self {
            AppPermission::Camera => "camera",
            AppPermission::Microphone => "microphone",
            AppPermission::Geolocation => "geolocation",
            AppPermission::ClipboardWrite => "clipboard_write",
        }
    }

    /// Its key in `_meta.ui.permissions`: `clipboardWrite`.
    pub fn key(self) -> &'static str {
        match self {
            AppPermission::ClipboardWrite => "clipboardWrite",
            other => other.as_str(),
        }
    }
}

/// Who a host lets see and call a tool (`_meta.ui.visibility`,
/// `@app_visibility`). A host's matter: the server lists and answers the
/// tool for every client alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// The agent: the host lists the tool to the model, which may call it.
    Model,
    /// The apps of the tool's server, which may call it through the host.
    App,
}

impl Visibility {
    /// Both, the specification's default.
    pub const ALL: [Visibility; 2] = [Visibility::Model, Visibility::App];

    /// The name `@app_visibility` takes and `_meta.ui.visibility` lists.
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Model => "model",
            Visibility::App => "app",
        }
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
