//! The reference server of the entries benchmark (scripts/bench-entries):
//! rmcp with a hand-written resource template and prompt answering like the
//! studio's — `cas://objects/{hash}` read from the studio's content store
//! on disk (the same files), and the `abc_compose` prompt with the same
//! text — and nothing else in the way.
//!
//! `rmcp_entries_server --data DIR (--stdio | --http 127.0.0.1:PORT)`
//! (endpoint `/mcp`); `DIR` is the studio's `$STUDIO_DATA`, where its
//! content store keeps `objects/`.

use std::path::PathBuf;
use std::sync::Arc;

use axum::serve::ListenerExt as _;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    ErrorData, GetPromptRequestParams, GetPromptResponse, GetPromptResult,
    ListResourceTemplatesResult, PaginatedRequestParams, PromptMessage, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ResourceContents, ResourceTemplate, Role,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServiceExt, transport::stdio};
use serde_json::{Map, Value};

const OBJECTS: &str = "cas://objects/";

#[derive(Clone)]
struct EntriesServer {
    /// The content store's root: `objects/ab/cdef…` and `….mime` beside.
    root: Arc<PathBuf>,
}

impl EntriesServer {
    /// The bytes and MIME type stored under `hash`, as the studio keeps them.
    async fn object(&self, hash: &str) -> Result<(Vec<u8>, String), ErrorData> {
        if hash.len() != 64
            || !hash
                .bytes()
                .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        {
            return Err(ErrorData::invalid_params(
                format!("`{hash}` is not a content hash"),
                None,
            ));
        }
        let path = self.root.join("objects").join(&hash[..2]).join(&hash[2..]);
        let data = tokio::fs::read(&path)
            .await
            .map_err(|e| ErrorData::invalid_params(format!("no object {hash}: {e}"), None))?;
        let mime = tokio::fs::read_to_string(path.with_extension("mime"))
            .await
            .unwrap_or_else(|_| "application/octet-stream".to_owned());
        Ok((data, mime))
    }
}

/// `abc_compose`'s text for its arguments, as the studio writes it.
fn compose(arguments: Option<&Map<String, Value>>) -> Result<GetPromptResult, ErrorData> {
    let argument = |name: &str, default: &'static str| {
        arguments
            .and_then(|args| args.get(name))
            .and_then(Value::as_str)
            .unwrap_or(default)
            .to_owned()
    };
    let tonic = argument("tonic", "C");
    let mode = argument("mode", "major");
    let bars = match argument("length", "medium").as_str() {
        "short" => 8,
        "medium" => 16,
        "long" => 32,
        other => {
            return Err(ErrorData::invalid_params(
                format!("`{other}` is not a length"),
                None,
            ));
        }
    };
    let mood = argument("mood", "a tune");
    let text = format!(
        "Write {mood} in {tonic} {mode}, {bars} bars long, in ABC notation. Give only the \
         tune, starting with its X:, T:, M:, L: and K: headers, so that abc_validate \
         and abc_to_midi accept it as it is."
    );
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(format!("{mood} in {tonic} {mode}")),
    )
}

impl ServerHandler for EntriesServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_resources()
                .enable_prompts()
                .build(),
        )
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new("cas://objects/{hash}", "cas_object"),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let Some(hash) = request.uri.strip_prefix(OBJECTS) else {
            return Err(ErrorData::invalid_params(
                format!("no resource {}", request.uri),
                None,
            ));
        };
        let (data, mime) = self.object(hash).await?;
        let contents = match ResourceContents::blob(STANDARD.encode(&data), request.uri.as_str()) {
            ResourceContents::BlobResourceContents {
                uri, blob, meta, ..
            } => ResourceContents::BlobResourceContents {
                uri,
                mime_type: Some(mime),
                blob,
                meta,
            },
            text => text,
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != "abc_compose" {
            return Err(ErrorData::invalid_params(
                format!("no prompt `{}`", request.name),
                None,
            ));
        }
        Ok(compose(request.arguments.as_ref())?.into())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    const USAGE: &str = "usage: rmcp_entries_server --data DIR (--stdio | --http ADDR)";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [flag, data, mode @ ..] = args.as_slice() else {
        return Err(USAGE.into());
    };
    if flag != "--data" {
        return Err(USAGE.into());
    }
    let server = EntriesServer {
        root: Arc::new(PathBuf::from(data)),
    };
    match mode {
        [mode] if mode == "--stdio" => {
            let running = server.serve(stdio()).await?;
            running.waiting().await?;
        }
        [mode, addr] if mode == "--http" => {
            let service = StreamableHttpService::new(
                move || Ok(server.clone()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            );
            let app = axum::Router::new().nest_service("/mcp", service);
            // Like the studio's server: no Nagle delay on small answers.
            let listener = tokio::net::TcpListener::bind(addr.as_str())
                .await?
                .tap_io(|tcp| {
                    let _ = tcp.set_nodelay(true);
                });
            axum::serve(listener, app).await?;
        }
        _ => return Err(USAGE.into()),
    }
    Ok(())
}
