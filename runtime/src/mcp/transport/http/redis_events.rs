//! [`RedisEvents`]: the events of resumable SSE streams kept in Redis, so
//! that a client that reconnects with `Last-Event-ID` to another replica
//! gets what it missed.
//!
//! Each stream is one Redis stream (`XADD`, `XRANGE`): an append-only log
//! read from a given entry on, trimmed to its last entries (`MAXLEN`) as
//! it grows, and expiring as one key. An entry's id is the event's place
//! in the stream, so the events after a client's last one are one range.

mod codec;
mod ids;
mod keys;
mod live;
mod writer;

use std::sync::Arc;

use redis::RedisError;
use redis::aio::ConnectionManager;
use rmcp::model::JsonRpcMessage;
use rmcp::transport::streamable_http_server::session::{
    EventId, EventStore, EventStoreError, EventStream, ServerSseMessage,
};

pub(super) use ids::Kind;
use ids::{LOCAL, event_id};
pub(super) use keys::IDLE;
use keys::{entry, key};
use live::{Live, Next};
use writer::{Write, Writer};

/// rmcp's name for a session's standalone stream is `<session>:common`.
fn standalone_session(name: &str) -> Option<&str> {
    name.strip_suffix(":common")
}

/// SSE events in Redis, shared by every replica of a server: rmcp's
/// [`EventStore`], made by [`RedisSessions`](super::RedisSessions) from
/// its connection.
///
/// Writing never fails: an event Redis does not take is still sent, with
/// an id that this replica alone can resume. Events are kept behind their
/// send (see `writer`).
#[derive(Clone)]
pub(crate) struct RedisEvents {
    connection: ConnectionManager,
    addr: Arc<str>,
    live: Arc<Live>,
    writer: Arc<Writer>,
}

impl std::fmt::Debug for RedisEvents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisEvents")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

/// What a resumption finds of a stream being written on this replica.
pub(super) struct Found {
    pub(super) session: Option<String>,
    pub(super) channel: Option<u64>,
}

impl RedisEvents {
    pub(super) fn new(connection: ConnectionManager, addr: &str) -> Self {
        RedisEvents {
            writer: Arc::new(Writer::new(connection.clone())),
            connection,
            addr: addr.into(),
            live: Arc::default(),
        }
    }

    fn error(&self, e: &RedisError) -> EventStoreError {
        format!("Redis at {}: {e}", self.addr).into()
    }

    /// Keeps `event` of the stream rmcp calls `name`; returns its id.
    async fn append(&self, name: &str, event: &ServerSseMessage) -> String {
        let id = match self.live.next(name) {
            Next::Known {
                number,
                place,
                session,
            } => {
                self.keep(number, place, event, session.as_deref());
                event_id(number, place)
            }
            Next::New { session, channel } => {
                let session = session.or_else(|| standalone_session(name).map(str::to_owned));
                let kind = if standalone_session(name).is_some() {
                    Kind::Standalone
                } else {
                    Kind::Request
                };
                let number = match self.writer.number(kind as u64).await {
                    Ok(number) => {
                        self.keep(number, 0, event, session.as_deref());
                        number
                    }
                    Err(_) => local_number(kind),
                };
                self.live.begin(name, number, session, channel);
                event_id(number, 0)
            }
        };
        // A request's stream ends with its answer: rmcp forgets it then.
        if standalone_session(name).is_none()
            && matches!(
                event.message.as_deref(),
                Some(JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_))
            )
        {
            self.live.end(name);
        }
        id
    }

    /// Queues the event at `place` of stream `number` to be kept, with
    /// the stream kept another idle time. Not kept is still sent: the id
    /// resumes it here.
    fn keep(&self, number: u64, place: u64, event: &ServerSseMessage, session: Option<&str>) {
        if let Ok(fields) = codec::fields(event, session) {
            let _ = self.writer.push(Write {
                number,
                place,
                fields,
            });
        }
    }

    /// The events of stream `number` after the one at `place`, in order,
    /// with their ids. With `session`, the stream must be that session's:
    /// another's is refused, and its events no session was known for yet
    /// (a request's first, a `retry` hint) are left out.
    ///
    /// # Errors
    /// When Redis cannot be read, the stream is not there (never was, or
    /// has expired), or is another session's.
    pub(super) async fn replay(
        &self,
        session: Option<&str>,
        number: u64,
        place: u64,
    ) -> Result<Vec<ServerSseMessage>, EventStoreError> {
        // From the client's last event on, which tells whose stream it is
        // even when nothing came after it.
        let entries: Vec<(String, Vec<(String, String)>)> = redis::cmd("XRANGE")
            .arg(key(number))
            .arg(entry(place))
            .arg("+")
            .query_async(&mut self.connection.clone())
            .await
            .map_err(|e| self.error(&e))?;
        if entries.is_empty() {
            return Err(format!("no events kept after {}", event_id(number, place)).into());
        }
        let mut events = Vec::with_capacity(entries.len());
        for (entry, fields) in entries {
            let at = place_of(&entry)?;
            if let Some(session) = session {
                match fields.iter().find(|(name, _)| name == codec::SESSION) {
                    Some((_, owner)) if owner == session => {}
                    Some(_) => {
                        return Err(format!(
                            "event {} is not of this session",
                            event_id(number, place)
                        )
                        .into());
                    }
                    None => continue,
                }
            }
            if at > place {
                events.push(codec::event(event_id(number, at), &fields)?);
            }
        }
        Ok(events)
    }

    /// Names the session and rmcp's id of the request stream whose first
    /// event has id `first`.
    pub(super) fn bind(&self, first: &str, session: &str, channel: u64) {
        if let Some((number, _)) = ids::parse(first) {
            self.live.bind(number, session, channel);
        }
    }

    /// Stream `number`, if this replica is writing it.
    pub(super) fn find(&self, number: u64) -> Option<Found> {
        self.live.find(number).map(|stream| Found {
            session: stream.session,
            channel: stream.channel,
        })
    }

    /// Forgets the streams of a session that has ended.
    pub(super) fn end_session(&self, session: &str) {
        self.live.end_session(session);
    }
}

/// The stream and place an event id names (see [`ids`]).
pub(super) fn parse(id: &str) -> Option<(u64, u64)> {
    ids::parse(id)
}

/// The id of the event after the one at `place` of stream `number`.
pub(super) fn next_id(number: u64, place: u64) -> String {
    event_id(number, place.saturating_add(1))
}

fn place_of(entry: &str) -> Result<u64, EventStoreError> {
    entry
        .strip_prefix("0-")
        .and_then(|sequence| sequence.parse::<u64>().ok())
        .and_then(|sequence| sequence.checked_sub(1))
        .ok_or_else(|| format!("a stream entry {entry} no event was written as").into())
}

/// A number drawn here when Redis could not draw one: in a range of its
/// own, random, of `kind`.
fn local_number(kind: Kind) -> u64 {
    let mut bytes = [0_u8; 8];
    // Without random bytes, the numbers of such streams may meet: they
    // are resumed here only, from memory, where each has its own.
    let _ = getrandom::fill(&mut bytes);
    let random = u64::from_le_bytes(bytes) & (LOCAL - 1) & !1;
    LOCAL | random | kind as u64
}

#[async_trait::async_trait]
impl EventStore for RedisEvents {
    async fn store_event(
        &self,
        stream_id: &str,
        event: &ServerSseMessage,
    ) -> Result<EventId, EventStoreError> {
        Ok(self.append(stream_id, event).await)
    }

    async fn replay_events_after(
        &self,
        last_event_id: &str,
    ) -> Result<EventStream, EventStoreError> {
        let (number, place) =
            ids::parse(last_event_id).ok_or_else(|| format!("no event has id {last_event_id}"))?;
        let events = self.replay(None, number, place).await?;
        Ok(Box::pin(tokio_stream::iter(events)))
    }
}

#[cfg(test)]
mod tests {
    use super::{Kind, LOCAL, entry, ids, local_number, place_of};

    #[test]
    fn entries_are_places_counted_from_one() {
        for place in [0, 1, 999] {
            assert_eq!(place_of(&entry(place)).expect("a place"), place);
        }
        assert!(place_of("0-0").is_err());
        assert!(place_of("1-1").is_err());
    }

    #[test]
    fn a_local_number_is_of_its_kind_and_range() {
        for kind in [Kind::Request, Kind::Standalone] {
            let number = local_number(kind);
            assert!((LOCAL..2 * LOCAL).contains(&number));
            assert_eq!(Kind::of(number), kind);
            assert_eq!(ids::parse(&ids::event_id(number, 5)), Some((number, 5)));
        }
    }
}
