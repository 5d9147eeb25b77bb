//! `GET /api/events`: tool events as Server-Sent Events, filtered by tool.
//! Each subscriber reads the port's broadcast hub, whose bounded ring is
//! its buffer: one that falls behind loses the oldest events and is told.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use tokio::sync::broadcast::error::RecvError;

use super::Web;
use crate::port::CallPort;

/// How often a quiet stream gets a comment, so proxies keep it open.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

pub(super) async fn serve<P: CallPort>(
    State(web): State<Arc<Web<P>>>,
    headers: HeaderMap,
    uri: Uri,
) -> Response {
    if let Err(refused) = web.access.check(&headers, true) {
        return refused.into_response();
    }
    let tools: Vec<String> = query_values(uri.query().unwrap_or(""), "tool");
    let feed = Feed {
        events: web.port.events().subscribe(),
        tools,
        shutdown: web.config.shutdown.clone(),
        sent: 0,
    };
    let events = stream::unfold(feed, |mut feed| async move {
        let event = feed.next().await?;
        Some((Ok::<_, Infallible>(event), feed))
    });
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE).text("keep-alive"))
        .into_response()
}

/// One subscriber's position in the hub.
struct Feed {
    events: tokio::sync::broadcast::Receiver<Arc<crate::events::ToolEvent>>,
    tools: Vec<String>,
    shutdown: tokio_util::sync::CancellationToken,
    sent: u64,
}

impl Feed {
    /// The next SSE event; `None` ends the stream (the server is shutting
    /// down, or the hub is gone).
    async fn next(&mut self) -> Option<Event> {
        loop {
            let received = tokio::select! {
                received = self.events.recv() => received,
                () = self.shutdown.cancelled() => return None,
            };
            match received {
                Ok(event) => {
                    if !self.tools.is_empty() && !self.tools.iter().any(|t| t == event.tool_name())
                    {
                        continue;
                    }
                    let Ok(data) = serde_json::to_string(&*event) else {
                        continue;
                    };
                    self.sent += 1;
                    return Some(
                        Event::default()
                            .event(event.kind())
                            .id(self.sent.to_string())
                            .data(data),
                    );
                }
                Err(RecvError::Lagged(missed)) => {
                    return Some(
                        Event::default()
                            .event("lagged")
                            .data(format!("{{\"missed\":{missed}}}")),
                    );
                }
                Err(RecvError::Closed) => return None,
            }
        }
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
    use super::query_values;

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
