//! Who a request is made for: the owner of the jobs its calls start.

use std::sync::Arc;

use super::McpServer;
use crate::Principal;
use crate::jobs::Owner;
use crate::port::{CallOptions, CallPort};

impl<P: CallPort> McpServer<P> {
    /// The options a call starts from: made for its owner (see
    /// [`McpServer::owner_of`]).
    pub(in crate::mcp) fn call_options(&self, extensions: &rmcp::model::Extensions) -> CallOptions {
        let mut options = CallOptions::default();
        if let Some(principal) = principal_of(extensions) {
            options = options.principal(principal);
        }
        // The owner after the principal: with shared jobs there is none.
        options.owner = self.owner_of(extensions);
        #[cfg(feature = "otel")]
        {
            options.span = crate::otel::current();
        }
        options
    }

    /// Who a request is made for. Over HTTP: its principal, when the server
    /// authenticates callers; else the bearer token it shows, when
    /// it shows one (the principal outlives sessions, reconnections and
    /// restarts of a durable server); else its MCP session; else (a
    /// 2026-07-28 client, which keeps no session) one anonymous owner,
    /// since nothing tells such clients apart. Over stdio: the session.
    /// Nobody with [`McpServer::shared_jobs`].
    pub(in crate::mcp) fn owner_of(&self, extensions: &rmcp::model::Extensions) -> Option<Owner> {
        if self.shared.shared_jobs {
            return None;
        }
        let Some(parts) = extensions.get::<axum::http::request::Parts>() else {
            return self.session.owner.clone();
        };
        if let Some(principal) = parts.extensions.get::<Arc<Principal>>() {
            return Some(principal.owner());
        }
        let header = |name: &str| {
            parts
                .headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .filter(|v| !v.is_empty())
        };
        if let Some(credentials) = header("authorization") {
            // The token itself is not kept: a fixed-key hash names it.
            let mut hasher = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(credentials, &mut hasher);
            let digest = std::hash::Hasher::finish(&hasher);
            return Some(Owner::new(&format!("mcp-bearer:{digest:016x}")));
        }
        if let Some(session) = header("mcp-session-id") {
            return Some(Owner::new(&format!("mcp-session:{session}")));
        }
        Some(Owner::new("mcp-anonymous"))
    }
}

/// The principal the HTTP door found for the request, if it authenticates.
pub(super) fn principal_of(extensions: &rmcp::model::Extensions) -> Option<Arc<Principal>> {
    extensions
        .get::<axum::http::request::Parts>()?
        .extensions
        .get::<Arc<Principal>>()
        .cloned()
}
