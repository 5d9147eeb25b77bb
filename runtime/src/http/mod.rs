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
#[cfg(feature = "auth")]
mod auth;
pub(crate) mod body;
mod config;
mod failure;
mod probes;
mod serve;

pub(crate) use access::Access;
#[cfg(feature = "auth")]
pub use auth::Auth;
pub use config::HttpConfig;
pub use probes::{HEALTHZ, METRICS, Probes, READYZ};
pub use serve::{serve, serve_on};

/// The scope that shows a caller every call on the live feed
/// (`GET /api/events`); without it, a caller the server authenticated
/// sees its own calls alone.
pub const ALL_EVENTS_SCOPE: &str = "events:all";

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
    let probed = port.clone();
    let edge =
        crate::edge::Edge::for_port(port).map_err(|e| crate::ServeError::Schema(e.to_string()))?;
    let router = crate::web::routes(edge, config).map_err(crate::ServeError::Schema)?;
    beside(router, config, &probed)
}

/// The routes every HTTP server adds beside its doors: the probes of
/// `port` ([`Probes`]) unless [`HttpConfig::probes`] is off, and with
/// [`HttpConfig::auth`], the resource's metadata (RFC 9728), naming the
/// scopes the catalogue's tools need.
///
/// # Errors
/// [`ServeError::Config`](crate::ServeError::Config) when MCP's path is a
/// probe's.
pub(crate) fn beside<P: crate::port::CallPort>(
    router: axum::Router,
    config: &HttpConfig,
    port: &P,
) -> Result<axum::Router, crate::ServeError> {
    let router = if config.probes {
        router.merge(Probes::new().port(port.clone()).router(config)?)
    } else {
        router
    };
    let scopes = <P::Catalogue as crate::Catalogue>::SCOPES;
    #[cfg(feature = "auth")]
    if let Some(auth) = &config.auth {
        let mut scopes = scopes.to_vec();
        if cfg!(feature = "web") && config.web {
            scopes.push(ALL_EVENTS_SCOPE);
        }
        scopes.sort_unstable();
        scopes.dedup();
        return Ok(router.merge(auth::routes(auth, &scopes)));
    }
    let _ = scopes;
    Ok(router)
}
