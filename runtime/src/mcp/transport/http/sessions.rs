//! rmcp's local session manager, with one addition: a request's handler
//! can close the SSE stream its answer would go on (SEP-1699), and the
//! call holds its answer until the client has resumed the stream with
//! `Last-Event-ID`.
//!
//! rmcp can close a request's stream (`close_sse_stream`) but only knows
//! the stream by an id it keeps to itself, and it forgets the stream as
//! soon as the answer is routed: an answer sent while the client is away
//! is lost. So each request is given its [`RequestStream`] here, where the
//! id is known, and a resumption wakes whoever waits for it.

#[cfg(feature = "redis")]
mod shared;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{ClientJsonRpcMessage, GetExtensions as _, ServerJsonRpcMessage};
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionHandle, LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
    StreamableHttpMessageReceiver,
};
use rmcp::transport::streamable_http_server::session::{
    EventStream, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use tokio::sync::Notify;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::{Stream, StreamExt as _};

#[cfg(feature = "redis")]
use super::redis_events::RedisEvents;

/// Streams closed and not yet resumed: (session, rmcp's stream id) → who
/// waits for the client to come back.
type Closed = Arc<Mutex<HashMap<(SessionId, u64), Arc<Notify>>>>;

/// [`LocalSessionManager`] that hands each request its [`RequestStream`],
/// and with a server's shared sessions keeps SSE events in Redis too, so
/// that a stream resumes on any replica.
#[derive(Debug, Default)]
pub(super) struct Sessions {
    local: LocalSessionManager,
    closed: Closed,
    #[cfg(feature = "redis")]
    events: Option<RedisEvents>,
}

/// The SSE stream a request is answered on, in the request's extensions.
#[derive(Clone, Debug)]
pub(crate) struct RequestStream {
    handle: LocalSessionHandle,
    session: SessionId,
    id: u64,
    closed: Closed,
}

impl RequestStream {
    /// Closes the stream, telling the client to reconnect after `retry`.
    /// The returned [`Notify`] is notified once the client has resumed it;
    /// `None` when the stream could not be closed (it has ended).
    pub(crate) async fn close(&self, retry: Duration) -> Option<Arc<Notify>> {
        let resumed = Arc::new(Notify::new());
        let key = (self.session.clone(), self.id);
        self.closed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key.clone(), resumed.clone());
        match self.handle.close_sse_stream(self.id, Some(retry)).await {
            Ok(()) => Some(resumed),
            Err(_) => {
                self.closed
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .remove(&key);
                None
            }
        }
    }
}

impl Sessions {
    /// Sessions whose SSE events are kept in `events` as they are sent.
    #[cfg(feature = "redis")]
    pub(super) fn shared(events: RedisEvents) -> Self {
        Sessions {
            local: LocalSessionManager::default().with_event_store(Arc::new(events.clone())),
            closed: Closed::default(),
            events: Some(events),
        }
    }

    async fn handle(&self, id: &SessionId) -> Result<LocalSessionHandle, LocalSessionManagerError> {
        self.local
            .sessions
            .read()
            .await
            .get(id)
            .cloned()
            .ok_or_else(|| LocalSessionManagerError::SessionNotFound(id.clone()))
    }

    /// Resumes a stream of this replica's session worker from the event
    /// after `last_event_id` (rmcp's `<index>[/<stream>]`), to go on live.
    async fn resume_live(
        &self,
        id: &SessionId,
        last_event_id: &str,
    ) -> Result<ReceiverStream<ServerSseMessage>, LocalSessionManagerError> {
        let handle = self.handle(id).await?;
        let receiver = handle.resume(last_event_id.parse()?).await?;
        Ok(ReceiverStream::new(receiver.inner))
    }

    /// Wakes whoever waits for request stream `stream` of session `id` to
    /// be resumed: the new stream is in place, so an answer sent from now
    /// on reaches it.
    fn resumed(&self, id: &SessionId, stream: u64) {
        let waiting = self
            .closed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&(id.clone(), stream));
        if let Some(waiting) = waiting {
            waiting.notify_one();
        }
    }

    /// The event rmcp wrote first on a new request stream, taken out to
    /// learn the stream's id in the store (with shared events).
    #[cfg_attr(not(feature = "redis"), allow(clippy::unused_self))]
    fn first_event(
        &self,
        id: &SessionId,
        receiver: &mut StreamableHttpMessageReceiver,
    ) -> Option<ServerSseMessage> {
        #[cfg(feature = "redis")]
        {
            let events = self.events.as_ref()?;
            let channel = receiver.http_request_id?;
            // rmcp writes a request stream's `retry` hint before handing
            // the stream over: its id names the stream in the store.
            let first = receiver.inner.try_recv().ok()?;
            if let Some(first_id) = first.event_id.as_deref() {
                events.bind(first_id, id, channel);
            }
            Some(first)
        }
        #[cfg(not(feature = "redis"))]
        {
            let _ = (id, receiver);
            None
        }
    }
}

/// rmcp's stream id in an event id (`<index>/<stream id>`).
fn stream_of(last_event_id: &str) -> Option<u64> {
    last_event_id.split_once('/')?.1.parse().ok()
}

impl SessionManager for Sessions {
    type Error = LocalSessionManagerError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.local.create_session().await
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.local.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.local.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.closed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|(session, _), _| session != id);
        #[cfg(feature = "redis")]
        if let Some(events) = &self.events {
            events.end_session(id);
        }
        self.local.close_session(id).await
    }

    // As `LocalSessionManager::create_stream`, with the stream's id given
    // to the request.
    async fn create_stream(
        &self,
        id: &SessionId,
        mut message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let handle = self.handle(id).await?;
        let mut receiver = handle.establish_request_wise_channel().await?;
        let first = self.first_event(id, &mut receiver);
        if let (ClientJsonRpcMessage::Request(request), Some(stream)) =
            (&mut message, receiver.http_request_id)
        {
            request.request.extensions_mut().insert(RequestStream {
                handle: handle.clone(),
                session: id.clone(),
                id: stream,
                closed: self.closed.clone(),
            });
        }
        handle
            .push_message(message, receiver.http_request_id)
            .await?;
        Ok(tokio_stream::iter(first).chain(ReceiverStream::new(receiver.inner)))
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.local.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.local.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        #[cfg(feature = "redis")]
        if let Some(events) = &self.events {
            return self.resume_shared(events, id, &last_event_id).await;
        }
        let resumed = self.resume_live(id, &last_event_id).await?;
        if let Some(stream) = stream_of(&last_event_id) {
            self.resumed(id, stream);
        }
        let resumed: EventStream = Box::pin(resumed);
        Ok(resumed)
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.local.restore_session(id).await
    }
}

#[cfg(test)]
mod tests {
    use super::stream_of;

    #[test]
    fn the_stream_is_read_from_an_event_id() {
        assert_eq!(stream_of("3/7"), Some(7));
        assert_eq!(stream_of("0/0"), Some(0));
        // The standalone stream's events name no request stream.
        assert_eq!(stream_of("3"), None);
        assert_eq!(stream_of("3/x"), None);
    }
}
