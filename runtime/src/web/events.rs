//! `GET /api/events`: tool events as Server-Sent Events, filtered by tool.
//! Each subscriber reads the port's broadcast hub, whose bounded ring is
//! its buffer: one that falls behind loses the oldest events and is told.
//!
//! A browser needs its events no faster than it can draw them, and a busy
//! server must not spend its time on its audience: each subscriber is sent
//! what happened in batches, at most one every [`FLUSH`] and of at most
//! [`BATCH`] events (each serialized once, by the hub). A subscriber with
//! more waiting skips ahead to the newest and is told how many it missed,
//! so a hundred open feeds cost a server little more than one. The body is
//! written by hand rather than through axum's `Sse`, which writes one chunk
//! per event.

use std::convert::Infallible;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Uri, header};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio_util::sync::CancellationToken;

use super::Web;
use crate::events::Published;
use crate::http::ALL_EVENTS_SCOPE;
use crate::jobs::Owner;
use crate::port::CallPort;

/// How often a quiet stream gets a comment, so proxies keep it open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How long a subscriber's first event waits for others to share its chunk.
pub(crate) const FLUSH: Duration = Duration::from_millis(50);

/// Most events in one chunk: with [`FLUSH`], at most 2,000 events a second
/// for each subscriber.
pub(crate) const BATCH: usize = 100;

pub(super) async fn serve<P: CallPort>(
    State(web): State<Arc<Web<P>>>,
    headers: HeaderMap,
    uri: Uri,
) -> Response {
    let principal = match web.access.admit(&headers).await {
        Ok(principal) => principal,
        Err(refused) => return refused.into_response(),
    };
    // A caller sees its own calls; everyone's takes the scope for it.
    let only = principal
        .filter(|p| !p.has_scope(ALL_EVENTS_SCOPE))
        .map(|p| p.owner());
    let feed = Feed {
        events: web.edge.port().events().subscribe(),
        tools: query_values(uri.query().unwrap_or(""), "tool"),
        only,
        shutdown: web.config.shutdown.clone(),
        sent: 0,
    };
    let chunks = stream::unfold(feed, |mut feed| async move {
        let chunk = feed.next().await?;
        Some((Ok::<_, Infallible>(chunk), feed))
    });
    event_stream(chunks)
}

/// A `200` whose body is `chunks`, as Server-Sent Events.
pub(super) fn event_stream(
    chunks: impl futures_util::Stream<Item = Result<Bytes, Infallible>> + Send + 'static,
) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(chunks),
    )
        .into_response()
}

/// One subscriber's position in the hub.
struct Feed {
    events: Receiver<Arc<Published>>,
    tools: Vec<String>,
    /// The one owner whose calls it shows; `None` shows every call.
    only: Option<Owner>,
    shutdown: CancellationToken,
    sent: u64,
}

impl Feed {
    /// The next chunk of the stream: the events of the last [`FLUSH`] (at
    /// least one), or a keep-alive comment. `None` ends the stream (the
    /// server is shutting down, or the hub is gone).
    async fn next(&mut self) -> Option<Bytes> {
        let mut chunk = String::new();
        loop {
            let received = tokio::select! {
                received = self.events.recv() => received,
                () = tokio::time::sleep(KEEP_ALIVE) => return Some(Bytes::from_static(b": keep-alive\n\n")),
                () = self.shutdown.cancelled() => return None,
            };
            let mut taken = 1;
            match received {
                Ok(event) => self.write(&event, &mut chunk),
                Err(RecvError::Lagged(missed)) => lagged(missed, &mut chunk),
                Err(RecvError::Closed) => return None,
            }
            // Let the rest of this batch arrive, then take it.
            tokio::select! {
                () = tokio::time::sleep(FLUSH) => {}
                () = self.shutdown.cancelled() => {}
            }
            while taken < BATCH {
                match self.events.try_recv() {
                    Ok(event) => self.write(&event, &mut chunk),
                    Err(TryRecvError::Lagged(missed)) => lagged(missed, &mut chunk),
                    Err(TryRecvError::Empty | TryRecvError::Closed) => break,
                }
                taken += 1;
            }
            let behind = self.events.len();
            if behind > 0 {
                // Skip ahead: a subscriber this far behind is told, not fed.
                self.events = self.events.resubscribe();
                lagged(behind as u64, &mut chunk);
            }
            if !chunk.is_empty() {
                return Some(Bytes::from(chunk));
            }
        }
    }

    fn write(&mut self, event: &Published, chunk: &mut String) {
        if !self.tools.is_empty() && !self.tools.iter().any(|t| t == event.tool_name()) {
            return;
        }
        if self
            .only
            .as_ref()
            .is_some_and(|only| event.owner() != Some(only))
        {
            return;
        }
        self.sent += 1;
        let _ = write!(
            chunk,
            "event: {}\nid: {}\ndata: {}\n\n",
            event.kind(),
            self.sent,
            event.json()
        );
    }
}

fn lagged(missed: u64, chunk: &mut String) {
    let _ = write!(chunk, "event: lagged\ndata: {{\"missed\":{missed}}}\n\n");
}

/// Every value of `key` in a query string (`tool=a&tool=b`, or
/// `tool=a,b`). Tool names need no percent-decoding: they are identifiers.
pub(super) fn query_values(query: &str, key: &str) -> Vec<String> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .filter(|(k, _)| *k == key)
        .flat_map(|(_, v)| v.split(','))
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{ToolEvents, ToolSource};

    #[tokio::test]
    async fn a_feed_for_one_owner_shows_that_owners_calls_alone() {
        let hub = ToolEvents::new(ToolSource::Local);
        let mut events = hub.subscribe();
        let (ada, bob) = (Owner::new("principal:ada"), Owner::new("principal:bob"));
        let add = |a: u8| {
            vec![
                0x83, 0xa4, b't', b'o', b'o', b'l', 0xa3, b'a', b'd', b'd', 0xa1, b'a', a, 0xa1,
                b'b', 0x01,
            ]
        };
        let _ada = hub.start(&add(1), Some(&ada));
        let _bob = hub.start(&add(2), Some(&bob));
        let _nobody = hub.start(&add(3), None);
        let mut feed = Feed {
            events: hub.subscribe(),
            tools: Vec::new(),
            only: Some(bob),
            shutdown: CancellationToken::new(),
            sent: 0,
        };
        let mut chunk = String::new();
        for _ in 0..3 {
            let event = events.recv().await.expect("an event");
            feed.write(&event, &mut chunk);
        }
        assert_eq!(feed.sent, 1, "{chunk}");
        assert!(chunk.contains(r#"\"a\":2"#), "{chunk}");
    }

    #[test]
    fn tools_are_read_repeated_or_comma_separated() {
        assert_eq!(
            query_values("tool=add&x=1&tool=multiply,echo", "tool"),
            ["add", "multiply", "echo"]
        );
        assert!(query_values("", "tool").is_empty());
        assert!(query_values("tool=", "tool").is_empty());
    }
}
