//! What a session keeps in a store its replicas share, beyond what rmcp
//! keeps there itself (the `initialize` it replays): the log level, and
//! (in `tasks::v2025_11_25::shared`) the tasks.

use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::SessionRestoreMarker;
use rmcp::{ErrorData, RoleServer};

use super::McpServer;
use crate::caller::LogLevel;
use crate::port::CallPort;

impl<P: CallPort> McpServer<P> {
    /// Records the level a session's client set, so that a replica the
    /// session moves to sends the same logs.
    pub(super) async fn keep_level(
        &self,
        context: &RequestContext<RoleServer>,
        level: LogLevel,
    ) -> Result<(), ErrorData> {
        let (Some(sessions), Some(session)) =
            (&self.shared.sessions, session_id(&context.extensions))
        else {
            return Ok(());
        };
        sessions
            .set_level(&session, level)
            .await
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }

    /// On a session restored from the store (rmcp replays its
    /// `initialize` with a marker): the level its client had set, and its
    /// tasks.
    pub(super) async fn restore_session(&self, context: &RequestContext<RoleServer>) {
        let (Some(sessions), Some(restored)) = (
            &self.shared.sessions,
            context.extensions.get::<SessionRestoreMarker>(),
        ) else {
            return;
        };
        // A store that cannot be read leaves the level unset, as a new
        // session's is: logs the client asked for are missed, nothing else.
        if let Ok(Some(level)) = sessions.level(&restored.id).await {
            *self
                .session
                .log_level
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(level);
        }
        self.restore_tasks(&restored.id, &context.peer).await;
    }
}

/// The session a request belongs to, from its `Mcp-Session-Id`.
pub(in crate::mcp) fn session_id(extensions: &rmcp::model::Extensions) -> Option<String> {
    let parts = extensions.get::<axum::http::request::Parts>()?;
    let id = parts.headers.get("mcp-session-id")?.to_str().ok()?;
    (!id.is_empty()).then(|| id.to_owned())
}
