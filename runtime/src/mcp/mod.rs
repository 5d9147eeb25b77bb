//! The MCP server: serves any [`Dispatcher`] to MCP clients over stdio or
//! Streamable HTTP, with the official Rust SDK (rmcp) speaking the protocol.
//!
//! - `tools/list` is the catalogue's generated MCP schema.
//! - `tools/call` turns the arguments into the typed request through the
//!   same JSON → MsgPack decode as every other transport, so a bad argument
//!   is a tool result with `isError: true` naming the field.
//! - Each call is answered as its timing class says: `sync` inline,
//!   `async_short`/`async_medium` inline when they end within their wait
//!   budget, `async_long` and `fire_and_forget` with a job handle at once.
//!   A job handle tells the model how to poll with the job tools.
//! - A caller that gives a `progressToken` is sent `notifications/progress`
//!   while it waits: the chunks of an `async_short`/`async_medium` call
//!   waited on, and the chunks and progress of the jobs a `job_poll` waits
//!   for.
//! - `notifications/cancelled` cancels the call's job and stops its handler.
//!
//! ```no_run
//! # async fn serve<S: toolwright::Service>(dispatcher: toolwright::Dispatcher<S>)
//! # -> Result<(), toolwright::mcp::ServeError> {
//! use toolwright::mcp::{HttpConfig, McpServer};
//!
//! let server = McpServer::new(dispatcher)?;
//! server.serve_http(HttpConfig::default()).await
//! # }
//! ```

mod actions;
mod call;
mod chunk;
mod error;
mod handler;
mod http;
mod jsonrpc;
mod result;
mod schema;
mod stdio;
mod validation;

use std::sync::Arc;

use rmcp::ServiceExt as _;

pub use error::ServeError;
pub use http::HttpConfig;

use crate::{Catalogue, Dispatcher, Service};
use schema::McpSchema;

/// The protocol revisions the server negotiates, oldest first.
pub const PROTOCOL_VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// An MCP server over a [`Dispatcher`]. Cheap to clone: clones share the
/// dispatcher and the parsed schema.
pub struct McpServer<S: Service> {
    dispatcher: Dispatcher<S>,
    schema: Arc<McpSchema>,
    name: Arc<str>,
    version: Arc<str>,
}

impl<S: Service> Clone for McpServer<S> {
    fn clone(&self) -> Self {
        McpServer {
            dispatcher: self.dispatcher.clone(),
            schema: self.schema.clone(),
            name: self.name.clone(),
            version: self.version.clone(),
        }
    }
}

impl<S: Service> std::fmt::Debug for McpServer<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("name", &self.name)
            .field("version", &self.version)
            .field("tools", &self.schema.tools.len())
            .finish_non_exhaustive()
    }
}

impl<S: Service> McpServer<S> {
    /// A server for `dispatcher`, listing the tools of its catalogue's
    /// generated MCP schema. It introduces itself as `toolwright` with the
    /// runtime's version; see [`McpServer::named`].
    ///
    /// # Errors
    /// [`ServeError::Schema`] when the catalogue's schema text does not
    /// parse, which means the generator and the runtime disagree.
    pub fn new(dispatcher: Dispatcher<S>) -> Result<Self, ServeError> {
        // The generated output schemas already allow what this edge adds
        // to a tool's own result: a job handle, and the `help` and
        // `schema` answers of action tools (docs/schemas.md).
        let schema = McpSchema::parse(<S::Catalogue as Catalogue>::MCP_SCHEMA)
            .map_err(|e| ServeError::Schema(e.to_string()))?;
        Ok(McpServer {
            dispatcher,
            schema: Arc::new(schema),
            name: Arc::from("toolwright"),
            version: Arc::from(env!("CARGO_PKG_VERSION")),
        })
    }

    /// Sets the name and version the server gives in `initialize`.
    #[must_use]
    pub fn named(mut self, name: &str, version: &str) -> Self {
        self.name = Arc::from(name);
        self.version = Arc::from(version);
        self
    }

    /// The dispatcher it serves.
    pub fn dispatcher(&self) -> &Dispatcher<S> {
        &self.dispatcher
    }

    /// Serves one client on standard input and output until it disconnects.
    ///
    /// # Errors
    /// [`ServeError::Initialize`] when the client's handshake fails,
    /// [`ServeError::Task`] when the session's task fails.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        self.serve_io(tokio::io::stdin(), tokio::io::stdout()).await
    }

    /// Serves one client on any byte stream pair (a pipe, a socket) until it
    /// disconnects: line-delimited JSON-RPC, as on stdio.
    ///
    /// # Errors
    /// As [`McpServer::serve_stdio`].
    pub async fn serve_io<R, W>(self, reader: R, writer: W) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        // rmcp reads and writes one end of a pipe; the guard sits between
        // the other end and the client.
        let (guard_end, rmcp_end) = tokio::io::duplex(64 * 1024);
        let (from_rmcp, to_rmcp) = tokio::io::split(guard_end);
        let (errors_tx, errors_rx) = tokio::sync::mpsc::channel(64);
        let input = tokio::spawn(stdio::pump_in(reader, to_rmcp, errors_tx));
        let output = tokio::spawn(stdio::pump_out(from_rmcp, errors_rx, writer));
        let served = async {
            let running = self
                .serve(tokio::io::split(rmcp_end))
                .await
                .map_err(|e| ServeError::Initialize(e.to_string()))?;
            running
                .waiting()
                .await
                .map_err(|e| ServeError::Task(e.to_string()))
        }
        .await;
        // rmcp has stopped: no more lines are worth reading, and the writer
        // ends once it has written what rmcp said last.
        input.abort();
        let written = output.await;
        served?;
        match written {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(ServeError::Io(e)),
            Err(e) => Err(ServeError::Task(e.to_string())),
        }
    }
}
