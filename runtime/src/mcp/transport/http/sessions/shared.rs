//! Resuming a stream whose events are in Redis: live from this replica's
//! session worker when the stream is being written here, as without
//! Redis; otherwise replayed from Redis.

use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManagerError, SessionError,
};
use rmcp::transport::streamable_http_server::session::{EventStream, SessionId, SessionManager};
use tokio_stream::StreamExt as _;

use super::Sessions;
use crate::mcp::transport::http::redis_events::{self, Kind, RedisEvents};

impl Sessions {
    /// The stream a client resumes with `last_event_id`.
    ///
    /// A stream written here, of this session, goes on live: what came
    /// after the id, then what comes (and a handler waiting for the client
    /// to come back is woken). Any other is replayed from Redis: a
    /// request's stream ends there, its request being on another replica
    /// (or done); a standalone stream goes on with this replica's.
    pub(super) async fn resume_shared(
        &self,
        events: &RedisEvents,
        id: &SessionId,
        last_event_id: &str,
    ) -> Result<EventStream, LocalSessionManagerError> {
        let Some((number, place)) = redis_events::parse(last_event_id) else {
            // Not an id of the store: rmcp's own `0` for a standalone
            // stream that had sent nothing, resumed here as without Redis.
            return Ok(Box::pin(self.resume_live(id, last_event_id).await?));
        };
        if let Some(found) = events.find(number)
            && found.session.as_deref() == Some(id.as_ref())
        {
            // rmcp resends from the event it is given: the one after the
            // client's last.
            let next = redis_events::next_id(number, place);
            let local = match (Kind::of(number), found.channel) {
                (Kind::Request, Some(channel)) => Some(format!("{next}/{channel}")),
                (Kind::Standalone, _) => Some(next),
                (Kind::Request, None) => None,
            };
            if let Some(local) = local
                && let Ok(live) = self.resume_live(id, &local).await
            {
                if let Some(channel) = found.channel {
                    self.resumed(id, channel);
                }
                return Ok(Box::pin(live));
            }
            // rmcp has let go of it (its answer was sent, or the events
            // after the id are no longer in its memory): Redis has them.
        }
        let replayed = events
            .replay(Some(id), number, place)
            .await
            .map_err(SessionError::EventStore)?;
        let replayed = tokio_stream::iter(replayed);
        match Kind::of(number) {
            Kind::Request => Ok(Box::pin(replayed)),
            Kind::Standalone => {
                let here = self.local.create_standalone_stream(id).await?;
                Ok(Box::pin(replayed.chain(here)))
            }
        }
    }
}
