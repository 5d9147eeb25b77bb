//! Writing to the client: rmcp's messages, and the lines the transport
//! writes itself (errors, batch replies), each a whole line.

use std::io;

use rmcp::model::{JsonRpcMessage, ServerJsonRpcMessage, ServerResult};
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::Mutex;

use crate::mcp::tasks::v2025_11_25::intercept;

/// rmcp's message serialized once, without its `\n`. The answer to
/// `initialize` gains the `tasks` capability of its revision, which rmcp's
/// model cannot carry.
pub(super) fn encode(message: &ServerJsonRpcMessage) -> serde_json::Result<Vec<u8>> {
    if negotiated(message).is_none() {
        return serde_json::to_vec(message);
    }
    let mut value = serde_json::to_value(message)?;
    if let Some(result) = value.get_mut("result") {
        intercept::patch_initialize(result);
    }
    serde_json::to_vec(&value)
}

/// The revision an answer to `initialize` negotiates; none for any other
/// message.
pub(super) fn negotiated(message: &ServerJsonRpcMessage) -> Option<&str> {
    match message {
        JsonRpcMessage::Response(response) => match &response.result {
            ServerResult::InitializeResult(result) => Some(result.protocol_version.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// Writes one whole line (its `\n` included) and flushes it.
pub(super) async fn line<W: AsyncWrite + Unpin>(
    writer: &Mutex<Option<W>>,
    line: &[u8],
) -> io::Result<()> {
    let mut writer = writer.lock().await;
    let writer = writer.as_mut().ok_or_else(closed)?;
    writer.write_all(line).await?;
    writer.flush().await
}

/// Writes all of `unsent` and flushes it. Each part written is removed at
/// once, so a call cancelled half-way leaves just the rest for the next.
pub(super) async fn drain<W: AsyncWrite + Unpin>(
    writer: &mut Option<W>,
    unsent: &mut Vec<u8>,
) -> io::Result<()> {
    let writer = writer.as_mut().ok_or_else(closed)?;
    while !unsent.is_empty() {
        let written = writer.write(unsent).await?;
        if written == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        unsent.drain(..written);
    }
    writer.flush().await
}

/// The error for a write after `close`.
pub(super) fn closed() -> io::Error {
    io::Error::new(io::ErrorKind::NotConnected, "the transport is closed")
}
