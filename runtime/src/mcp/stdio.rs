//! Line-delimited JSON-RPC on a byte stream pair (stdio, a pipe): each line
//! is checked before rmcp reads it, so malformed input gets its JSON-RPC
//! error (`-32700`, `-32600`, `-32602`) as it does over HTTP, and a line
//! longer than the limit is skipped without being held.

use std::io;

use serde_json::Value;
use tokio::io::{
    AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream,
    ReadHalf, WriteHalf,
};
use tokio::sync::mpsc;

use super::jsonrpc::{self, Checked};

/// Longest line read, as rmcp's own line codec.
pub(super) const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// Reads lines from the client, hands well-formed messages to rmcp and
/// the errors for the rest to the writer. Ends rmcp's input at the
/// client's end of input.
pub(super) async fn pump_in<R: AsyncRead + Unpin>(
    reader: R,
    mut to_rmcp: WriteHalf<DuplexStream>,
    errors: mpsc::Sender<Vec<u8>>,
) -> io::Result<()> {
    let mut reader = BufReader::new(reader);
    let mut line = Vec::new();
    loop {
        line.clear();
        let limit = u64::try_from(MAX_LINE_BYTES + 1).unwrap_or(u64::MAX);
        if (&mut reader)
            .take(limit)
            .read_until(b'\n', &mut line)
            .await?
            == 0
        {
            break;
        }
        if line.len() > MAX_LINE_BYTES && line.last() != Some(&b'\n') {
            skip_line(&mut reader).await?;
            let message = format!("a message longer than {MAX_LINE_BYTES} bytes");
            let _ = errors
                .send(error_line(jsonrpc::INVALID_REQUEST, &message))
                .await;
            continue;
        }
        let text = line.trim_ascii();
        if text.is_empty() {
            continue;
        }
        let reply = match serde_json::from_slice::<Value>(text) {
            Err(e) => error_line(jsonrpc::PARSE_ERROR, &format!("invalid JSON: {e}")),
            Ok(Value::Array(_)) => error_line(
                jsonrpc::INVALID_REQUEST,
                "JSON-RPC batches are not read on stdio; send one message per line",
            ),
            Ok(message) => match jsonrpc::check(&message) {
                Checked::Forward => {
                    to_rmcp.write_all(text).await?;
                    to_rmcp.write_all(b"\n").await?;
                    continue;
                }
                Checked::Ignore => continue,
                Checked::Reject(error) => error.to_string().into_bytes(),
            },
        };
        // The writer is gone only when rmcp has stopped: nothing to answer.
        if errors.send(reply).await.is_err() {
            break;
        }
    }
    to_rmcp.shutdown().await
}

/// Writes rmcp's lines and the guard's errors to the client, one whole
/// line at a time, until both have ended.
pub(super) async fn pump_out<W: AsyncWrite + Unpin>(
    from_rmcp: ReadHalf<DuplexStream>,
    mut errors: mpsc::Receiver<Vec<u8>>,
    mut writer: W,
) -> io::Result<()> {
    let mut from_rmcp = BufReader::new(from_rmcp);
    let mut line = Vec::new();
    let (mut rmcp_open, mut errors_open) = (true, true);
    while rmcp_open || errors_open {
        tokio::select! {
            // `read_until` keeps what it read when the other branch wins, so
            // `line` is cleared only once a whole line is written.
            read = from_rmcp.read_until(b'\n', &mut line), if rmcp_open => {
                if read? == 0 {
                    rmcp_open = false;
                }
                writer.write_all(&line).await?;
                line.clear();
            }
            error = errors.recv(), if errors_open => match error {
                Some(error) => {
                    writer.write_all(&error).await?;
                    writer.write_all(b"\n").await?;
                }
                None => errors_open = false,
            },
        }
        writer.flush().await?;
    }
    Ok(())
}

/// Skips the rest of an over-long line without keeping it.
async fn skip_line<R: AsyncRead + Unpin>(reader: &mut BufReader<R>) -> io::Result<()> {
    loop {
        let buffer = reader.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(());
        }
        if let Some(end) = buffer.iter().position(|b| *b == b'\n') {
            reader.consume(end + 1);
            return Ok(());
        }
        let all = buffer.len();
        reader.consume(all);
    }
}

/// A JSON-RPC error without an id, as one line's bytes.
fn error_line(code: i64, message: &str) -> Vec<u8> {
    jsonrpc::error(Value::Null, code, message)
        .to_string()
        .into_bytes()
}
