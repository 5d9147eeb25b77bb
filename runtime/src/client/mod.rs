//! The batch client: `call_tools` over any [`ToolTransport`], with an MCP
//! transport (child process on stdio, Streamable HTTP) and, with feature
//! `hoot`, a HOOT01 transport straight to backends. Used by programs that
//! call a Toolwright server (or any MCP server) rather than serve one.
//!
//! A batch is a list of [`ToolCall`]s, each with an id the caller chooses.
//! [`Client::call_tools`] answers one [`ToolResult`] per call, in request
//! order, whatever happened to the others: a call that fails or misses the
//! batch deadline is a failed result, never a failed batch. The only error of
//! the batch as a whole is a malformed batch (a duplicate call id).
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use toolwright::client::{BatchOptions, Client, McpTransport, ToolCall};
//!
//! let mut command = tokio::process::Command::new("studio");
//! command.args(["serve", "--stdio"]);
//! let client = Client::new(McpTransport::spawn(command).await?);
//!
//! let batch = [
//!     ToolCall::new("first", "add", serde_json::json!({"a": 1, "b": 2})),
//!     ToolCall::new("second", "multiply", serde_json::json!({"a": 3, "b": 4})),
//! ];
//! let options = BatchOptions::default().parallel(true).timeout(Duration::from_secs(5));
//! for result in client.call_tools(&batch, &options).await? {
//!     println!("{}: {:?}", result.call_id, result.outcome);
//! }
//! # Ok(()) }
//! ```

mod batch;
mod call;
#[cfg(feature = "hoot")]
mod hoot;
mod mcp;
mod options;
mod transport;

pub use batch::{BatchError, Client};
pub use call::{ToolCall, ToolResult};
#[cfg(feature = "hoot")]
pub use hoot::HootTransport;
pub use mcp::{ConnectError, McpTransport};
#[cfg(feature = "mount")]
pub(crate) use mcp::{service_error, tool_outcome};
pub use options::BatchOptions;
pub use transport::{ToolTransport, codes};
