//! `HttpConfig`: where and for whom the Streamable HTTP server listens.

use std::net::{Ipv4Addr, SocketAddr};

use tokio_util::sync::CancellationToken;

/// How [`McpServer::serve_http`](crate::mcp::McpServer::serve_http)
/// listens. The defaults suit a server for the local machine: loopback
/// only, `Host` and `Origin` checked against loopback names (against DNS
/// rebinding), no token, a 4 MiB body limit.
///
/// ```
/// use toolwright::http::HttpConfig;
/// let config = HttpConfig::default()
///     .addr("127.0.0.1:9000".parse().unwrap())
///     .bearer_token("s3cret");
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct HttpConfig {
    /// The address to listen on. Default `127.0.0.1:8787`.
    pub addr: SocketAddr,
    /// The path MCP is served at. Default `/mcp`.
    pub path: String,
    /// `Host` values accepted, as hosts (`localhost`) or `host:port`.
    /// Default the loopback names. Empty accepts any host: only for a
    /// server behind a proxy that checks it.
    pub allowed_hosts: Vec<String>,
    /// `Origin` values accepted from browsers, with scheme
    /// (`https://app.example`, `http://localhost:*`). Default the loopback
    /// origins on any port. A request without `Origin` (not from a
    /// browser) is accepted. Empty accepts any origin.
    pub allowed_origins: Vec<String>,
    /// When set, a request showing `Authorization: Bearer <token>` is
    /// made by a principal trusted with every scope (for development and
    /// between services); without [`HttpConfig::auth`], every request needs
    /// it, or is answered 401.
    pub bearer_token: Option<String>,
    /// The OAuth access tokens accepted (feature `auth`): with it, every
    /// request but the metadata's needs a token it accepts (or the static
    /// one), and each call is made for the principal the token names.
    #[cfg(feature = "auth")]
    pub auth: Option<super::Auth>,
    /// Largest request body accepted; a larger one is answered 413 without
    /// being read. Default 4 MiB.
    pub max_body_bytes: usize,
    /// Cancel it to stop the server: it stops accepting, closes its
    /// sessions and returns.
    pub shutdown: CancellationToken,
    /// Serves the web routes beside MCP (docs/web.md): the viewer at `/`,
    /// tool metadata, events, calls and TOON at `/api/…`. Default on; needs
    /// the `web` feature, without which it does nothing.
    pub web: bool,
    /// Serves the probes beside the doors: `/healthz`, `/readyz` and,
    /// with the `metrics` feature, `/metrics` (docs/operations.md).
    /// Default on. A server that merges several routers on one listener
    /// turns them off in each and adds [`Probes`](super::Probes) once.
    pub probes: bool,
    /// Answers a sessionless (2026-07-28) request whose handler sends
    /// nothing before its answer as one `application/json` body rather
    /// than an event stream; one that sends notifications first (progress,
    /// a list change) still gets the stream, so nothing is lost. Default
    /// on. Sessions of earlier revisions keep their event streams.
    pub json_response: bool,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, 8787)),
            path: "/mcp".to_owned(),
            allowed_hosts: ["localhost", "127.0.0.1", "::1", "[::1]"]
                .map(str::to_owned)
                .to_vec(),
            allowed_origins: ["localhost", "127.0.0.1", "[::1]"]
                .iter()
                .flat_map(|host| [format!("http://{host}:*"), format!("https://{host}:*")])
                .collect(),
            bearer_token: None,
            #[cfg(feature = "auth")]
            auth: None,
            max_body_bytes: 4 * 1024 * 1024,
            shutdown: CancellationToken::new(),
            web: true,
            probes: true,
            json_response: true,
        }
    }
}

impl HttpConfig {
    /// Answers sessionless requests that send nothing else as plain JSON
    /// (the default) or always as an event stream; see
    /// [`HttpConfig::json_response`].
    #[must_use]
    pub fn json_response(mut self, on: bool) -> Self {
        self.json_response = on;
        self
    }

    /// Turns the probes (`/healthz`, `/readyz`, `/metrics`) on (the
    /// default) or off.
    #[must_use]
    pub fn probes(mut self, on: bool) -> Self {
        self.probes = on;
        self
    }

    /// Turns the web routes beside MCP on (the default) or off.
    #[must_use]
    pub fn web(mut self, on: bool) -> Self {
        self.web = on;
        self
    }

    /// Sets the address to listen on.
    #[must_use]
    pub fn addr(mut self, addr: SocketAddr) -> Self {
        self.addr = addr;
        self
    }

    /// Sets the path MCP is served at.
    #[must_use]
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Replaces the accepted `Host` values.
    #[must_use]
    pub fn allowed_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_hosts = hosts.into_iter().map(Into::into).collect();
        self
    }

    /// Replaces the accepted `Origin` values.
    #[must_use]
    pub fn allowed_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_origins = origins.into_iter().map(Into::into).collect();
        self
    }

    /// Requires `Authorization: Bearer <token>` on every request.
    #[must_use]
    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        self.bearer_token = Some(token.into());
        self
    }

    /// Accepts OAuth access tokens as `auth` says (feature `auth`), and
    /// serves the resource's metadata (RFC 9728) beside the routes.
    #[cfg(feature = "auth")]
    #[must_use]
    pub fn auth(mut self, auth: super::Auth) -> Self {
        self.auth = Some(auth);
        self
    }

    /// True when callers must show credentials: a bearer token or, with
    /// the `auth` feature, an OAuth access token.
    pub fn authenticates(&self) -> bool {
        #[cfg(feature = "auth")]
        if self.auth.is_some() {
            return true;
        }
        self.bearer_token.is_some()
    }

    /// Sets the largest request body accepted.
    #[must_use]
    pub fn max_body_bytes(mut self, n: usize) -> Self {
        self.max_body_bytes = n;
        self
    }

    /// Sets the token that stops the server.
    #[must_use]
    pub fn shutdown(mut self, token: CancellationToken) -> Self {
        self.shutdown = token;
        self
    }
}
