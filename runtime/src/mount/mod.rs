//! Mounting other MCP servers (seed 004's `source`): a server serves the
//! tools, resources and prompts of other MCP servers beside its own
//! catalogue's, each under a name prefix.
//!
//! ```no_run
//! # async fn run<P: toolwright::port::CallPort>(port: P) -> Result<(), Box<dyn std::error::Error>> {
//! use toolwright::mcp::McpServer;
//! use toolwright::mount::Mount;
//!
//! let server = McpServer::new(port)?
//!     .mount(Mount::http("search", "http://127.0.0.1:9000/mcp")?)
//!     .mount(Mount::command("fs", "mcp-server-filesystem", ["/srv/data"])?);
//! # let _ = server; Ok(())
//! # }
//! ```
//!
//! - A mounted server's tool `t` is served as `<prefix>_t`, its prompt `p`
//!   as `<prefix>_p`, and a resource `scheme://rest` as
//!   `scheme://<prefix>/rest` (templates alike).
//! - Calls are proxied as JSON (a mounted tool has no IDL): its result
//!   passes through as its server gave it, a tool error as a tool error.
//!   The events of `GET /api/events` carry `source: "mcp"`.
//! - Each mount is kept connected by a task of its own: a server that
//!   stops answering (its process exits, its HTTP endpoint refuses, a
//!   ping fails) leaves the listings, and a call of one of its tools is
//!   answered `UNAVAILABLE`; it is reconnected with backoff and listed
//!   again when back. Sessions hear `notifications/tools/list_changed`
//!   both times.
//! - Completion of a mounted prompt's or template's argument is proxied;
//!   a subscription to a mounted resource is one subscription to the
//!   mounted server however many sessions hold it, sent again when it
//!   reconnects, and its updates reach each session with the served URI.
//! - A mounted name that is also a catalogue's is the catalogue's: the
//!   mounted one is not listed.

mod complete;
mod connect;
mod listing;
mod names;
mod set;
mod state;
mod subscribed;
mod supervise;

pub use names::{InvalidPrefix, Mount};
pub(crate) use set::Mounts;
pub(crate) use state::Proxied;
pub(crate) use subscribed::Subscribed;
