//! Reading a request body under the size limit. A body over it is
//! answered `413` only after the rest of it has been read and dropped
//! (up to a bound): a server that answers and closes while the client is
//! still sending resets the connection, and the client never sees the
//! `413` (async HTTP clients report a reset; the official MCP Python
//! client shut down whole).

use std::time::Duration;

use axum::body::{Body, Bytes, HttpBody};
use axum::http::{HeaderMap, header};

/// The most read and dropped from a body over the limit; past it, the
/// connection is closed unread.
const DRAIN_BYTES: u64 = 64 * 1024 * 1024;

/// The longest a body over the limit is read for before the connection
/// is closed: a client trickling bytes cannot hold the server.
const DRAIN_TIME: Duration = Duration::from_secs(10);

/// Why a body was not read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Unread {
    /// It is over the limit: answer `413`, with `Connection: close`.
    TooLarge,
    /// The client broke off sending it.
    Broken,
}

/// The body, when it is at most `limit` bytes.
///
/// # Errors
/// [`Unread::TooLarge`] for a body declared or found over `limit`, once
/// the rest of it has been read and dropped (see the module docs);
/// [`Unread::Broken`] when the client broke off.
pub(crate) async fn read(headers: &HeaderMap, body: Body, limit: usize) -> Result<Bytes, Unread> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let limit = limit as u64;
    let mut body = std::pin::pin!(body);
    if let Some(declared) = declared.filter(|&n| n > limit) {
        // One too large to read through is refused unread.
        if declared <= DRAIN_BYTES {
            drain(body, 0).await;
        }
        return Err(Unread::TooLarge);
    }
    let mut read = Vec::with_capacity(usize::try_from(declared.unwrap_or(0)).unwrap_or(0));
    while let Some(frame) = std::future::poll_fn(|cx| body.as_mut().poll_frame(cx)).await {
        let Ok(frame) = frame else {
            return Err(Unread::Broken);
        };
        if let Ok(data) = frame.into_data() {
            if read.len() as u64 + data.len() as u64 > limit {
                drain(body, read.len() as u64 + data.len() as u64).await;
                return Err(Unread::TooLarge);
            }
            read.extend_from_slice(&data);
        }
    }
    Ok(Bytes::from(read))
}

/// Reads and drops the rest of `body`, `seen` bytes of it already read,
/// within [`DRAIN_BYTES`] and [`DRAIN_TIME`].
async fn drain(mut body: std::pin::Pin<&mut Body>, mut seen: u64) {
    let rest = async {
        while seen <= DRAIN_BYTES {
            match std::future::poll_fn(|cx| body.as_mut().poll_frame(cx)).await {
                Some(Ok(frame)) => {
                    seen += frame.data_ref().map_or(0, |d| d.len() as u64);
                }
                Some(Err(_)) | None => return,
            }
        }
    };
    let _ = tokio::time::timeout(DRAIN_TIME, rest).await;
}
