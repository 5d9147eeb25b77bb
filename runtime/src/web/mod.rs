//! The routes for web frontends, served beside MCP on the same router and
//! behind the same rules (docs/web.md): the tool metadata, the live event
//! feed, a call endpoint, TOON frames over a WebSocket, and the viewer.

mod access;
mod call;
mod events;
mod page;
mod tools;
mod toon;

use std::sync::Arc;

use axum::Router;
use axum::routing::{get, post};

use crate::jobs::Owner;
use crate::mcp::HttpConfig;
use crate::port::CallPort;
pub(crate) use access::Access;

/// What every route shares.
/// The options of every call made through these routes. They act for
/// one principal, the holder of the server's token: the jobs they start
/// belong to it, apart from every MCP session's.
fn call_options() -> crate::port::CallOptions {
    crate::port::CallOptions::default().owned_by(Owner::new("web"))
}

pub(crate) struct Web<P> {
    pub(crate) port: P,
    pub(crate) access: Access,
    pub(crate) config: HttpConfig,
    pub(crate) tools: tools::Document,
    /// The tools' input schemas, to read a provider's strict-mode nulls
    /// as absent (see `edge::drop_absent_nulls`).
    pub(crate) schema: Arc<crate::edge::Schema>,
}

/// The web routes for `port`, to merge with the MCP route, reading
/// arguments against `schema` (the MCP server's, parsed once).
///
/// # Errors
/// When the catalogue's generated metadata is not valid JSON, which only a
/// hand-written catalogue can cause.
pub(crate) fn routes<P: CallPort>(
    port: P,
    schema: Arc<crate::edge::Schema>,
    config: &HttpConfig,
) -> Result<Router, String> {
    let tools = tools::Document::new::<P>(port.events().source())?;
    let web = Arc::new(Web {
        access: Access::new(config),
        config: config.clone(),
        tools,
        schema,
        port,
    });
    Ok(Router::new()
        .route("/", get(page::serve::<P>))
        .route("/api/tools", get(tools::serve::<P>))
        .route("/api/tools/{name}", post(call::serve::<P>))
        .route("/api/events", get(events::serve::<P>))
        .route("/api/toon", get(toon::serve::<P>))
        .with_state(web))
}
