//! The JSON edge: what every transport that takes a tool call as JSON
//! arguments shares, free of any protocol's types. MCP uses it today; the
//! HTTP endpoints for web frontends build on the same pieces.
//!
//! - [`request_msgpack`]: arguments → the MsgPack request a
//!   [`CallPort`](crate::port::CallPort) takes, tool first, action second.
//! - [`explain`]: a decode error with the expected type of the field.
//! - [`route`]: an action tool's `action` checked before the call, and its
//!   `help` and `schema` answered from the catalogue.
//! - [`chunk_text`]: a stream chunk as JSON text, for progress messages.
//! - [`Schema`]: the catalogue's generated MCP schema text, parsed once.

mod actions;
mod chunk;
mod request;
mod schema;
mod validation;

pub(crate) use actions::{Answer, Route, route};
pub(crate) use chunk::text as chunk_text;
pub(crate) use request::request_msgpack;
pub(crate) use schema::Schema;
pub(crate) use validation::explain;

/// A JSON object: a call's arguments, a schema.
pub(crate) type JsonObject = serde_json::Map<String, crate::Json>;
