//! The JSON edge: what every transport that takes a tool call as JSON
//! arguments shares, free of any protocol's types. MCP uses it today; the
//! HTTP endpoints for web frontends build on the same pieces.
//!
//! - [`request_msgpack`]: arguments → the MsgPack request a
//!   [`CallPort`](crate::port::CallPort) takes, tool first, action second.
//! - [`explain`]: a decode error with the expected type of the field.
//! - [`route`]: an action tool's `action` checked before the call, and its
//!   `help` and `schema` answered from the catalogue.
//! - [`chunk_text`]: a stream chunk as JSON text, for progress messages,
//!   and [`msgpack_to_json`]: any MsgPack value as JSON, `bin` as base64.
//! - [`Schema`]: the catalogue's generated MCP schema text, parsed once.
//! - [`drop_absent_nulls`]: a `null` a property's schema does not admit,
//!   as providers' strict modes send for a property left out, read as absent.

#[cfg(feature = "mcp")]
mod actions;
mod chunk;
#[cfg(feature = "mcp")]
mod nulls;
#[cfg(any(feature = "mcp", all(feature = "client", feature = "hoot")))]
mod request;
#[cfg(feature = "mcp")]
mod schema;
#[cfg(feature = "mcp")]
mod validation;

#[cfg(feature = "mcp")]
pub(crate) use actions::{Answer, Route, Served, route};
#[cfg(feature = "mcp")]
pub(crate) use chunk::text as chunk_text;
pub(crate) use chunk::to_json as msgpack_to_json;
#[cfg(feature = "mcp")]
pub(crate) use nulls::drop_absent as drop_absent_nulls;
#[cfg(any(feature = "mcp", all(feature = "client", feature = "hoot")))]
pub(crate) use request::request_msgpack;
#[cfg(feature = "mcp")]
pub(crate) use schema::Schema;
#[cfg(feature = "mcp")]
pub(crate) use validation::explain;

/// A JSON object: a call's arguments, a schema.
#[cfg(any(feature = "mcp", all(feature = "client", feature = "hoot")))]
pub(crate) type JsonObject = serde_json::Map<String, crate::Json>;
