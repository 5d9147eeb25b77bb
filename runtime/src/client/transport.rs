//! `ToolTransport`: what the batch client needs from a connection.

use std::future::Future;

use crate::{Json, ToolError};

/// Error codes the client itself gives a call, next to the runtime's
/// [`codes`](crate::codes) (`TIMEOUT` for a call that missed the batch
/// deadline) and the tools' own codes.
pub mod codes {
    /// The connection failed: the request could not be sent, or the
    /// connection closed before the answer came.
    pub const TRANSPORT: &str = "TRANSPORT";
    /// The server answered with a protocol error instead of a tool result
    /// (an MCP JSON-RPC error: unknown tool, invalid parameters).
    /// `details` holds `{"jsonrpc_code": i32, "data"?: any}`.
    pub const PROTOCOL: &str = "PROTOCOL";
    /// The tool failed without a structured error: the message is the
    /// text the server sent.
    pub const TOOL_ERROR: &str = "TOOL_ERROR";
}

/// A connection to a server that calls tools one at a time. The batch logic
/// (order, concurrency, deadline) lives in [`Client`](super::Client); a
/// transport only sends one call and reports how it ended.
///
/// Implementations must allow several calls in flight on one connection
/// (`&self`), since parallel batches overlap them.
pub trait ToolTransport: Send + Sync {
    /// Calls tool `name` with `arguments`: its result, or why it failed.
    /// Dropping the future abandons the call (an MCP transport tells the
    /// server it is cancelled).
    fn call_tool(
        &self,
        name: &str,
        arguments: Json,
    ) -> impl Future<Output = Result<Json, ToolError>> + Send;

    /// Checks that the server answers.
    fn ping(&self) -> impl Future<Output = Result<(), ToolError>> + Send;
}
