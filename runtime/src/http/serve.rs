//! Serving a router: bound to the configured address (or a listener of
//! the caller's), sockets set for latency, stopped by the shutdown token.

use axum::Router;
use axum::serve::ListenerExt as _;
use tokio::net::TcpListener;

use super::HttpConfig;
use crate::ServeError;

/// Serves `router` on `config.addr` until `config`'s shutdown token is
/// cancelled.
///
/// # Errors
/// [`ServeError::Bind`] when the address cannot be bound,
/// [`ServeError::Io`] when the server fails.
pub async fn serve(router: Router, config: &HttpConfig) -> Result<(), ServeError> {
    let listener = TcpListener::bind(config.addr)
        .await
        .map_err(|source| ServeError::Bind {
            addr: config.addr,
            source,
        })?;
    serve_on(router, listener, config).await
}

/// As [`serve`], on a listener already bound (to port 0 in tests, say);
/// `config.addr` is not used.
///
/// # Errors
/// [`ServeError::Io`] when the server fails.
pub async fn serve_on(
    router: Router,
    listener: TcpListener,
    config: &HttpConfig,
) -> Result<(), ServeError> {
    if let Ok(addr) = listener.local_addr()
        && !addr.ip().is_loopback()
        && !config.authenticates()
    {
        // Loud on purpose, and once: the one moment an operator looks.
        eprintln!(
            "toolwright: WARNING: serving HTTP on {addr} without authentication: anyone who \
             can reach it may call every tool. Set `HttpConfig::auth` (OAuth) or \
             `HttpConfig::bearer_token`."
        );
    }
    let shutdown = config.shutdown.clone();
    // Answers are small and latency matters more than packet count.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, router)
        .with_graceful_shutdown(async move { shutdown.cancelled().await })
        .await
        .map_err(ServeError::Io)
}
