//! HTTP, for every door served on it (MCP's Streamable HTTP, the web
//! routes): one [`HttpConfig`] and one access guard — the `Host` and
//! `Origin` rules against DNS rebinding and other sites' pages, and the
//! bearer token — applied alike to every route.

mod access;
mod config;

pub(crate) use access::Access;
pub use config::HttpConfig;
