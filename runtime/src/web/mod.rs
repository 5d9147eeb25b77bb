//! The routes for web frontends, served beside MCP on the same router and
//! behind the same rules (docs/web.md): the tool metadata, the live event
//! feed, a call endpoint, resources, prompts and completion, TOON frames
//! over a WebSocket, and the viewer.

mod batches;
mod call;
mod complete;
mod events;
mod followed;
#[cfg(feature = "mount")]
mod mounted;
#[cfg(feature = "mount")]
mod mounted_complete;
#[cfg(feature = "mount")]
mod mounted_entries;
mod page;
mod prompts;
mod resources;
mod streamed;
mod tools;
mod toon;
#[cfg(feature = "otel")]
mod traced;

use std::sync::Arc;

use axum::Router;
use axum::routing::{get, post};

use crate::edge::{Edge, Entries};
use crate::http::{Access, HttpConfig};
use crate::jobs::Owner;
use crate::port::CallPort;

/// The options of a call made through the web routes: for its principal,
/// when the server authenticates callers; else for the one owner every
/// web caller shares, apart from every MCP session's.
fn call_options(principal: Option<Arc<crate::Principal>>) -> crate::port::CallOptions {
    let options = crate::port::CallOptions::default();
    match principal {
        Some(principal) => options.principal(principal),
        None => options.owned_by(Owner::new("web")),
    }
}

/// What every route shares.
pub(crate) struct Web<P> {
    /// The stage every call goes through, shared with MCP.
    pub(crate) edge: Edge<P>,
    pub(crate) access: Access,
    pub(crate) config: HttpConfig,
    pub(crate) tools: tools::Document,
    /// The event feed's batches, shared by every subscriber.
    pub(crate) batches: batches::Batches,
    /// The catalogue's resources and prompts.
    pub(crate) entries: Entries,
}

/// The web routes for the port of `edge`, to merge with the MCP route.
///
/// # Errors
/// When the catalogue's generated metadata is not valid JSON, which only a
/// hand-written catalogue can cause.
pub(crate) fn routes<P: CallPort>(edge: Edge<P>, config: &HttpConfig) -> Result<Router, String> {
    let tools = tools::Document::new::<P>(edge.port().events().source())?;
    let entries = Entries::parse(<P::Catalogue as crate::Catalogue>::MCP_SCHEMA)
        .map_err(|e| format!("the catalogue's MCP_SCHEMA has no valid entries: {e}"))?;
    let web = Arc::new(Web {
        batches: batches::Batches::new(edge.port().events().clone(), config.shutdown.clone()),
        access: Access::new(config),
        config: config.clone(),
        tools,
        entries,
        edge,
    });
    Ok(Router::new()
        .route("/", get(page::serve::<P>))
        .route(
            "/api/tools",
            get(tools::serve::<P>).layer(tools::compression()),
        )
        .route("/api/tools/{name}", post(call::serve::<P>))
        .route("/api/resources", get(resources::serve::<P>))
        .route("/api/prompts/{name}", post(prompts::serve::<P>))
        .route("/api/complete", post(complete::serve::<P>))
        .route("/api/events", get(events::serve::<P>))
        .route("/api/toon", get(toon::serve::<P>))
        .with_state(web))
}
