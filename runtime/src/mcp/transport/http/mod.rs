//! Streamable HTTP: rmcp's `StreamableHttpService` on axum, behind a guard
//! that applies the access rules of every HTTP route (`crate::http`),
//! bounds the body and answers malformed JSON-RPC and batches itself.

mod batch;
mod guard;
mod messages;
#[cfg(feature = "redis")]
mod redis_events;
#[cfg(feature = "redis")]
mod redis_sessions;
pub(in crate::mcp) mod sessions;

use std::sync::Arc;

use axum::Router;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;

pub use crate::http::HttpConfig;
#[cfg(feature = "redis")]
pub use redis_sessions::RedisSessions;

use crate::ServeError;
use crate::mcp::server::McpServer;
use crate::port::CallPort;
use guard::{Guard, Inner};
use sessions::Sessions;

impl<P: CallPort> McpServer<P> {
    /// Serves MCP over Streamable HTTP on `config.addr` until `config`'s
    /// shutdown token is cancelled.
    ///
    /// # Errors
    /// [`ServeError::Bind`] when the address cannot be bound,
    /// [`ServeError::Io`] when the server fails.
    pub async fn serve_http(self, config: HttpConfig) -> Result<(), ServeError> {
        let router = self.router(config.clone())?;
        crate::http::serve(router, &config).await
    }

    /// As [`McpServer::serve_http`], on a listener already bound (to port 0
    /// in tests, say); `config.addr` is not used.
    ///
    /// # Errors
    /// [`ServeError::Io`] when the server fails.
    pub async fn serve_http_on(
        self,
        listener: TcpListener,
        config: HttpConfig,
    ) -> Result<(), ServeError> {
        let router = self.router(config.clone())?;
        crate::http::serve_on(router, listener, &config).await
    }

    /// The axum router serving MCP at `config.path` and, with the `web`
    /// feature and [`HttpConfig::web`] on, the web routes of docs/web.md
    /// (`/`, `/api/…`), for embedding in an application of your own. The
    /// caller sets `TCP_NODELAY` on its sockets.
    ///
    /// # Errors
    /// [`ServeError::Config`] when the path does not start with `/`.
    pub fn router(self, config: HttpConfig) -> Result<Router, ServeError> {
        if !config.path.starts_with('/') {
            return Err(ServeError::Config(format!(
                "the path `{}` must start with `/`",
                config.path
            )));
        }
        #[cfg(feature = "web")]
        let web = if config.web {
            if config.path == "/" || config.path.starts_with("/api/") {
                return Err(ServeError::Config(format!(
                    "MCP at `{}` would hide the web routes (`/`, `/api/…`): serve it at \
                     another path, or turn the web routes off",
                    config.path
                )));
            }
            Some(
                crate::web::routes(self.shared.edge.clone(), &config)
                    .map_err(ServeError::Config)?,
            )
        } else {
            None
        };
        // `Host` and `Origin` are the guard's, by the rules the web routes
        // follow too (`http::Access`), so rmcp's own checks are off.
        #[allow(unused_mut)] // without `redis`
        let mut rmcp_config = StreamableHttpServerConfig::default()
            .disable_allowed_hosts()
            .disable_allowed_origins()
            .with_max_request_body_bytes(config.max_body_bytes)
            .with_json_response(config.json_response)
            .with_cancellation_token(config.shutdown.child_token());
        #[allow(unused_mut)] // without `redis`
        let mut sessions = Sessions::default();
        #[cfg(feature = "redis")]
        if let Some(shared) = &self.shared.sessions {
            rmcp_config.session_store = Some(shared.clone());
            // A stream's events go to the same Redis, so that it resumes
            // on any replica.
            sessions = Sessions::shared(shared.events());
        }
        let port = self.shared.edge.port().clone();
        let inner: Inner<P> = StreamableHttpService::new(
            move || Ok(self.for_session()),
            Arc::new(sessions),
            rmcp_config,
        );
        let guard = Arc::new(Guard::new(inner, &config));
        let path = config.path.clone();
        let router = Router::new().route(
            &path,
            axum::routing::any(move |request| messages::handle(guard.clone(), request)),
        );
        #[cfg(feature = "web")]
        let router = match web {
            Some(web) => router.merge(web),
            None => router,
        };
        crate::http::beside(router, &config, &port)
    }
}
