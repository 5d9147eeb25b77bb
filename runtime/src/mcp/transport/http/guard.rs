//! The guard in front of rmcp: the rmcp service, the access rules every
//! HTTP route shares (`Host`, `Origin`, the bearer token) and the body
//! limit, and the shape of the JSON-RPC errors it answers itself.

use axum::body::Body;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::StreamableHttpService;
use serde_json::Value;

use super::sessions::Sessions;
use crate::http::{Access, HttpConfig};
use crate::mcp::server::McpServer;
use crate::port::CallPort;

/// The rmcp service the guard hands well-formed messages to.
pub(super) type Inner<P> = StreamableHttpService<McpServer<P>, Sessions>;

/// The rmcp service and what the guard checks before it.
pub(super) struct Guard<P: CallPort> {
    pub(super) inner: Inner<P>,
    /// The `Host`, `Origin` and token rules every HTTP route shares.
    pub(super) access: Access,
    pub(super) max_body_bytes: usize,
}

impl<P: CallPort> Guard<P> {
    pub(super) fn new(inner: Inner<P>, config: &HttpConfig) -> Self {
        Guard {
            inner,
            access: Access::new(config),
            max_body_bytes: config.max_body_bytes,
        }
    }

    /// Hands a request to rmcp.
    pub(super) async fn forward(&self, request: axum::http::Request<Body>) -> Response {
        self.inner.handle(request).await.map(Body::new)
    }
}

/// An HTTP response carrying one JSON-RPC error.
pub(super) fn reply(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}
