//! Serving one client on a byte stream pair: a session of the server
//! behind the line transport.

use rmcp::ServiceExt as _;

use super::LineTransport;
use crate::ServeError;
use crate::mcp::server::McpServer;
use crate::port::CallPort;

impl<P: CallPort> McpServer<P> {
    /// Serves one client on standard input and output until it disconnects.
    ///
    /// # Errors
    /// [`ServeError::Initialize`] when the client's handshake fails,
    /// [`ServeError::Task`] when the session's task fails.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        self.serve_io(tokio::io::stdin(), tokio::io::stdout()).await
    }

    /// Serves one client on any byte stream pair (a pipe, a socket) until it
    /// disconnects: line-delimited JSON-RPC, as on stdio, through a
    /// transport of the server's own in front of rmcp. Malformed lines get
    /// their JSON-RPC error and the session goes on; a line longer than
    /// 16 MiB is skipped (`-32600`). A JSON-RPC batch is answered with one
    /// array line when the session negotiated 2025-03-26 or earlier (at
    /// most 1024 members, and 64 batches awaiting answers at once; more is
    /// refused with `-32600`), and refused with `-32600` before
    /// `initialize` and in later revisions. The client's end of input ends
    /// the session, once the answers already under way are written.
    ///
    /// # Errors
    /// As [`McpServer::serve_stdio`], and [`ServeError::Io`] when writing to
    /// the client failed.
    pub async fn serve_io<R, W>(self, reader: R, writer: W) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        let transport = LineTransport::new(reader, writer);
        let outcome = transport.outcome();
        let running = self
            .for_session()
            .serve(transport)
            .await
            .map_err(|e| ServeError::Initialize(e.to_string()))?;
        running
            .waiting()
            .await
            .map_err(|e| ServeError::Task(e.to_string()))?;
        outcome.failure().map_or(Ok(()), |e| Err(ServeError::Io(e)))
    }
}
