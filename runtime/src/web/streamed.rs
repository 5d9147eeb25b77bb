//! A `POST /api/tools/{name}` that accepts `text/event-stream`: the call
//! is waited for to its end whatever its timing class, and what happens
//! meanwhile is sent as Server-Sent Events (docs/web.md § Following a
//! call): `job` when it runs as a job, its `progress` and its stream's
//! `chunk`s, and last its `result`, the envelope a plain call answers.

use std::convert::Infallible;
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{HeaderMap, header};
use axum::response::Response;
use futures_util::stream;

use super::Web;
use super::followed::{Followed, Step};
use crate::edge::JsonObject;
use crate::port::{CallOptions, CallPort};
use crate::{Json, ToolInfo};

/// How often a quiet stream gets a comment, so proxies keep it open while
/// a long job runs.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// True when the request's `Accept` names `text/event-stream` and not
/// `application/json`: a client that takes either (as MCP clients say)
/// gets the plain answer.
pub(super) fn wanted(headers: &HeaderMap) -> bool {
    let media = headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|range| range.split(';').next())
        .map(str::trim);
    let (mut stream, mut json) = (false, false);
    for kind in media {
        stream |= kind.eq_ignore_ascii_case("text/event-stream");
        json |= kind.eq_ignore_ascii_case("application/json");
    }
    stream && !json
}

/// The call of `tool` with `args`, whose MsgPack `request` the edge has
/// readied, answered as an event stream.
pub(super) fn serve<P: CallPort>(
    web: &Arc<Web<P>>,
    tool: &'static ToolInfo,
    args: JsonObject,
    request: Vec<u8>,
    options: CallOptions,
) -> Response {
    #[cfg(feature = "otel")]
    let span = options.span.clone();
    let call = Call {
        followed: Followed::start(web, tool, request, options),
        web: web.clone(),
        tool,
        args,
        #[cfg(feature = "otel")]
        span,
    };
    let events = stream::unfold(call, |mut call| async move {
        let event = call.next().await?;
        Some((Ok::<_, Infallible>(event), call))
    });
    super::events::event_stream(events)
}

/// One streamed call, until its `result` has been sent.
struct Call<P: CallPort> {
    followed: Followed<P>,
    web: Arc<Web<P>>,
    tool: &'static ToolInfo,
    args: JsonObject,
    #[cfg(feature = "otel")]
    span: Option<tracing::Span>,
}

impl<P: CallPort> Call<P> {
    /// The next event's text, or a keep-alive comment; `None` once the
    /// `result` has been sent.
    async fn next(&mut self) -> Option<Bytes> {
        let step = tokio::select! {
            step = self.followed.next() => step?,
            () = tokio::time::sleep(KEEP_ALIVE) => return Some(Bytes::from_static(b": keep-alive\n\n")),
        };
        let (kind, data) = match step {
            Step::Job { job_id } => (
                "job",
                serde_json::json!({ "job_id": job_id, "tool": self.tool.name }),
            ),
            Step::Progress { job_id, fraction } => (
                "progress",
                serde_json::json!({ "job_id": job_id, "progress": fraction }),
            ),
            Step::Chunk { job_id, seq, chunk } => {
                // A chunk is the tool's `stream` type as MsgPack; one that
                // does not decode is described, never dropped unsaid.
                let chunk = crate::edge::msgpack_to_json(&chunk)
                    .unwrap_or_else(|_| serde_json::json!({ "undecodable_bytes": chunk.len() }));
                (
                    "chunk",
                    serde_json::json!({ "job_id": job_id, "seq": seq, "chunk": chunk }),
                )
            }
            Step::Ended(envelope) => {
                let envelope = self.web.edge.finish(self.tool, &self.args, envelope);
                #[cfg(feature = "otel")]
                if let Some(span) = &self.span {
                    crate::otel::record(span, &envelope);
                }
                let data = serde_json::to_value(&envelope).unwrap_or_else(|e| {
                    serde_json::json!({ "error": {
                        "code": crate::codes::INTERNAL,
                        "message": format!("the answer has no JSON form: {e}"),
                    }})
                });
                ("result", data)
            }
        };
        Some(event(kind, &data))
    }
}

/// One event: its type and its data on one line.
fn event(kind: &str, data: &Json) -> Bytes {
    let mut text = String::with_capacity(64);
    let _ = write!(text, "event: {kind}\ndata: {data}\n\n");
    Bytes::from(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accept_header_is_read_as_a_list_of_media_ranges() {
        let accepts = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::ACCEPT, value.parse().expect("a header value"));
            wanted(&headers)
        };
        assert!(accepts("text/event-stream"));
        assert!(accepts("Text/Event-Stream;q=0.9, text/plain"));
        assert!(!accepts("application/json, text/event-stream"));
        assert!(!accepts("application/json"));
        assert!(!accepts("text/event-stream-ish"));
        assert!(!wanted(&HeaderMap::new()));
    }
}
