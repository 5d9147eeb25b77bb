//! HTTP, for every door served on it — MCP's Streamable HTTP (feature
//! `mcp`) and the web routes of docs/web.md (feature `web`), siblings on
//! one router — with one [`HttpConfig`] and one access guard: the `Host`
//! and `Origin` rules against DNS rebinding and other sites' pages, and the
//! bearer token, applied alike to every route.
//!
//! With MCP, [`McpServer::router`](crate::mcp::McpServer::router) mounts
//! both; without it, [`web_router`] gives the web routes alone:
//!
//! ```no_run
//! # #[cfg(feature = "web")]
//! # async fn run<S: toolwright::Service>(dispatcher: toolwright::Dispatcher<S>)
//! # -> Result<(), toolwright::ServeError> {
//! use toolwright::http::{self, HttpConfig};
//!
//! let config = HttpConfig::default();
//! http::serve(http::web_router(dispatcher, &config)?, &config).await
//! # }
//! ```

mod access;
mod config;
mod serve;

pub(crate) use access::Access;
pub use config::HttpConfig;
pub use serve::{serve, serve_on};

/// The web routes of docs/web.md for `port` on their own: the viewer at
/// `/`, the tool metadata, events, calls and TOON at `/api/…`, behind
/// `config`'s access rules. Serve it with [`serve`], or merge it into a
/// router of your own.
///
/// # Errors
/// [`ServeError::Schema`](crate::ServeError::Schema) when the catalogue's
/// generated schema or metadata does not parse, which only a hand-written
/// catalogue can cause.
#[cfg(feature = "web")]
pub fn web_router<P: crate::port::CallPort>(
    port: P,
    config: &HttpConfig,
) -> Result<axum::Router, crate::ServeError> {
    let edge =
        crate::edge::Edge::for_port(port).map_err(|e| crate::ServeError::Schema(e.to_string()))?;
    crate::web::routes(edge, config).map_err(crate::ServeError::Schema)
}
