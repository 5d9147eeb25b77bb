//! The MCP server: serves any [`CallPort`] — an in-process [`Dispatcher`],
//! or a HOOT01 client to remote workers, which makes it a gateway — to MCP
//! clients over stdio or Streamable HTTP, with the official Rust SDK (rmcp)
//! speaking the protocol.
//!
//! [`CallPort`]: crate::port::CallPort
//! [`Dispatcher`]: crate::Dispatcher
//!
//! - `tools/list` is the catalogue's generated MCP schema.
//! - `tools/call` turns the arguments into the MsgPack request the port
//!   decodes as every other transport's, so a bad argument is a tool result
//!   with `isError: true` naming the field and the type it takes.
//! - Each call is answered as its timing class says: `sync` inline,
//!   `async_short`/`async_medium` inline when they end within their wait
//!   budget, `async_long` and `fire_and_forget` with a job handle at once.
//!   A job handle tells the model how to poll with the job tools.
//! - A caller that gives a `progressToken` is sent `notifications/progress`
//!   while it waits: the chunks of an `async_short`/`async_medium` call
//!   waited on, and the chunks and progress of the jobs a `job_poll` waits
//!   for.
//! - A handler's [`Context`](crate::Context) reaches the client that called
//!   it: its log messages go out as `notifications/message` (the server
//!   declares `logging`; `logging/setLevel` sets the session's least
//!   severe level), its progress as `notifications/progress`, and it may
//!   ask the client's model (`sampling/createMessage`) or user
//!   (`elicitation/create`) when the client declared that capability.
//! - `notifications/cancelled` cancels the call's job and stops its handler.
//! - A client on 2025-11-25 may call a job-capable tool as a task and follow
//!   it with `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`;
//!   the task is the job (`tasks/v2025_11_25/intercept.rs` says how those
//!   methods get past rmcp).
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

//! # Where things are
//!
//! | folder | what it holds |
//! |---|---|
//! | `server/` | [`McpServer`]: what every session shares, what one holds, the rmcp handler |
//! | `tools/` | `tools/list` and `tools/call`: the catalogue as MCP sees it, one call, its result, toolsets, HIP-0300's envelope |
//! | `tasks/v2025_11_25/` | the tasks utility: a session's tasks, and the methods rerouted past rmcp |
//! | `tasks/v2026_07_28/` | the tasks extension over the job store, and questions asked inside a task |
//! | `talk_back/` | a handler reaching its client: logs, progress, sampling, elicitation, 2026-07-28 rounds |
//! | `discovery/` | progressive discovery: `search_tools`, `describe_tools`, `select_toolsets` |
//! | `transport/` | stdio and Streamable HTTP in front of rmcp, and the JSON-RPC checks they share |
//!
//! Modules import down this list's layers and never back: `server/` knows
//! the state each feature keeps, the features add their behaviour to
//! [`McpServer`], and the transports serve it (`scripts/module-cycles`).

mod discovery;
mod entries;
mod revision;
mod server;
mod talk_back;
mod tasks;
mod tools;
mod transport;

pub use crate::ServeError;
pub use crate::http::HttpConfig;
pub use revision::{PROTOCOL_VERSIONS, Revision};
pub use server::McpServer;
pub use tools::toolsets::UnknownToolset;
#[cfg(feature = "redis")]
pub use transport::http::RedisSessions;
