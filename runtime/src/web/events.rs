//! `GET /api/events`: tool events as Server-Sent Events, filtered by tool.
//!
//! A browser needs its events no faster than it can draw them, and a busy
//! server must not spend its time on its audience: subscribers are sent
//! what happened in batches, at most one every
//! [`FLUSH`](super::batches::FLUSH) and of at most
//! [`BATCH`](super::batches::BATCH) events, the rest skipped and counted
//! (`event: lagged`). One task makes the batches for every subscriber
//! (`batches.rs`), so a hundred open feeds cost a server little more than
//! one. The body is
//! written by hand rather than through axum's `Sse`, which writes one chunk
//! per event.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Uri, header};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use tokio::sync::broadcast::Receiver;
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

use super::Web;
use super::batches::{Batch, lagged};
use crate::events::Published;
use crate::http::ALL_EVENTS_SCOPE;
use crate::jobs::Owner;
use crate::port::CallPort;

/// How often a quiet stream gets a comment, so proxies keep it open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

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
        batches: web.batches.subscribe(),
        tools: query_values(uri.query().unwrap_or(""), "tool"),
        only,
        shutdown: web.config.shutdown.clone(),
        next: None,
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

/// One subscriber's position in the batches.
struct Feed {
    batches: Receiver<Arc<Batch>>,
    tools: Vec<String>,
    /// The one owner whose calls it shows; `None` shows every call.
    only: Option<Owner>,
    shutdown: CancellationToken,
    /// The id of the first event after the last batch sent.
    next: Option<u64>,
}

impl Feed {
    /// The next chunk of the stream: a batch, or a keep-alive comment.
    /// `None` ends the stream (the server is shutting down).
    async fn next(&mut self) -> Option<Bytes> {
        loop {
            let received = tokio::select! {
                received = self.batches.recv() => received,
                () = tokio::time::sleep(KEEP_ALIVE) => return Some(Bytes::from_static(b": keep-alive\n\n")),
                () = self.shutdown.cancelled() => return None,
            };
            let batch = match received {
                Ok(batch) => batch,
                // The batches missed are counted by the next one's ids.
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return None,
            };
            let missed = self.next.map_or(0, |next| batch.first.saturating_sub(next));
            self.next = Some(batch.end);
            let chunk = self.chunk(&batch, missed);
            if !chunk.is_empty() {
                return Some(chunk);
            }
        }
    }

    /// What this subscriber is sent of `batch`, after `missed` events it
    /// fell behind by.
    fn chunk(&self, batch: &Batch, missed: u64) -> Bytes {
        if self.tools.is_empty() && self.only.is_none() && missed == 0 {
            return batch.text();
        }
        let mut text = String::new();
        if missed > 0 {
            lagged(missed, &mut text);
        }
        text.push_str(&batch.render(|event| self.shows(event)));
        Bytes::from(text)
    }

    /// True when the subscriber is shown `event`.
    fn shows(&self, event: &Published) -> bool {
        (self.tools.is_empty() || self.tools.iter().any(|t| t == event.tool_name()))
            && self
                .only
                .as_ref()
                .is_none_or(|only| event.owner() == Some(only))
    }
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
        let shutdown = CancellationToken::new();
        let batches = super::super::batches::Batches::new(hub.clone(), shutdown.clone());
        let (ada, bob) = (Owner::new("principal:ada"), Owner::new("principal:bob"));
        let feed = |only: Option<Owner>| Feed {
            batches: batches.subscribe(),
            tools: Vec::new(),
            only,
            shutdown: shutdown.clone(),
            next: None,
        };
        let (mut everyone, mut bobs) = (feed(None), feed(Some(bob.clone())));
        let add = |a: u8| {
            vec![
                0x83, 0xa4, b't', b'o', b'o', b'l', 0xa3, b'a', b'd', b'd', 0xa1, b'a', a, 0xa1,
                b'b', 0x01,
            ]
        };
        let _ada = hub.start(&add(1), Some(&ada));
        let _bob = hub.start(&add(2), Some(&bob));
        let _nobody = hub.start(&add(3), None);
        let all = everyone.next().await.expect("a batch");
        let all = String::from_utf8_lossy(&all);
        assert_eq!(all.matches("event: tool_start").count(), 3, "{all}");
        assert!(all.contains("id: 1\n") && all.contains("id: 3\n"), "{all}");
        let only = bobs.next().await.expect("a batch");
        let only = String::from_utf8_lossy(&only);
        assert_eq!(only.matches("event: tool_start").count(), 1, "{only}");
        assert!(
            only.contains(r#"\"a\":2"#) && only.contains("id: 2\n"),
            "{only}"
        );
        shutdown.cancel();
    }

    #[tokio::test]
    async fn a_feed_that_fell_behind_is_told_how_many_events_it_missed() {
        let hub = ToolEvents::new(ToolSource::Local);
        let shutdown = CancellationToken::new();
        let batches = super::super::batches::Batches::new(hub.clone(), shutdown.clone());
        let mut feed = Feed {
            batches: batches.subscribe(),
            tools: Vec::new(),
            only: None,
            shutdown: shutdown.clone(),
            next: None,
        };
        let _start = hub.start(&[0x81, 0xa4, b't', b'o', b'o', b'l', 0xa1, b'x'], None);
        let batch = feed.batches.recv().await.expect("a batch");
        let chunk = feed.chunk(&batch, 40);
        let text = String::from_utf8_lossy(&chunk);
        assert!(
            text.starts_with("event: lagged\ndata: {\"missed\":40}\n\nevent: tool_start\nid: 1\n"),
            "{text}"
        );
        shutdown.cancel();
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
