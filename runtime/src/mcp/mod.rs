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
//! - A client on 2025-11-25 may call a job-capable tool as a task and follow
//!   it with `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`;
//!   the task is the job (see the `reroute` module for how those methods
//!   get past rmcp).
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
mod reroute;
mod rerouted;
mod result;
mod schema;
mod stdio;
mod tasks;
mod validation;

use std::sync::Arc;

use rmcp::ServiceExt as _;

pub use error::ServeError;
pub use http::HttpConfig;

use crate::{Catalogue, Dispatcher, Service};
use schema::McpSchema;
use tasks::Tasks;

/// The protocol revisions the server speaks, oldest first: through
/// `initialize` up to 2025-11-25, and 2026-07-28, whose requests each name
/// their revision.
pub const PROTOCOL_VERSIONS: [&str; 5] = [
    "2024-11-05",
    "2025-03-26",
    "2025-06-18",
    "2025-11-25",
    "2026-07-28",
];

/// An MCP server over a [`Dispatcher`]. Cheap to clone: clones share the
/// dispatcher and the parsed schema.
pub struct McpServer<S: Service> {
    dispatcher: Dispatcher<S>,
    schema: Arc<McpSchema>,
    name: Arc<str>,
    version: Arc<str>,
    /// The tasks of the session this value serves; see
    /// [`McpServer::for_session`].
    tasks: Arc<Tasks>,
}

impl<S: Service> Clone for McpServer<S> {
    fn clone(&self) -> Self {
        McpServer {
            dispatcher: self.dispatcher.clone(),
            schema: self.schema.clone(),
            name: self.name.clone(),
            version: self.version.clone(),
            tasks: self.tasks.clone(),
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
            tasks: Arc::default(),
        })
    }

    /// Sets the name and version the server gives in `initialize`.
    #[must_use]
    pub fn named(mut self, name: &str, version: &str) -> Self {
        self.name = Arc::from(name);
        self.version = Arc::from(version);
        self
    }

    /// A server for one more session: the same dispatcher and schema, and
    /// a task list of its own, since tasks belong to the session that
    /// made them.
    fn for_session(&self) -> Self {
        McpServer {
            tasks: Arc::default(),
            ..self.clone()
        }
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
        let transport = stdio::LineTransport::new(reader, writer);
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
