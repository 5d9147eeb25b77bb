//! The JSON edge: the one stage every door that takes a tool call as JSON
//! arguments goes through (MCP, the web routes, the TOON WebSocket, the
//! HOOT01 batch client), free of any protocol's types.
//!
//! - [`Edge`]: the stage itself — arguments → action routing (`help`,
//!   `schema`, `status`) → MsgPack → the port → errors explained.
//! - [`request_msgpack`]: arguments → the MsgPack request a
//!   [`CallPort`](crate::port::CallPort) takes, tool first, action second.
//! - [`explain`]: a decode error with the expected type of the field.
//! - [`route`]: an action tool's `action` checked before the call, and its
//!   `help` and `schema` answered from the catalogue.
//! - [`chunk_text`]: a stream chunk as JSON text, for progress messages,
//!   and [`msgpack_to_json`]: any MsgPack value as JSON, `bin` as base64.
//! - [`Schema`]: the catalogue's generated MCP schema text, parsed once.
//! - [`Entries`]: its resources and prompts, with how each is read or got,
//!   and [`entry_json`]: an entry's request through the port and its
//!   answer as JSON.
//! - [`drop_absent_nulls`]: a `null` a property's schema does not admit,
//!   as providers' strict modes send for a property left out, read as absent.

/// Declares `$item`s that only a JSON door uses: MCP, the web routes, or
/// the HOOT01 batch client (`client` with `hoot`). One spelling of the
/// condition instead of one per item.
macro_rules! for_json_doors {
    ($($item:item)*) => {
        $(
            #[cfg(any(
                feature = "mcp",
                feature = "web",
                all(feature = "client", feature = "hoot")
            ))]
            $item
        )*
    };
}

mod chunk;
pub(crate) use chunk::to_json as msgpack_to_json;

for_json_doors! {
    mod actions;
    mod call;
    mod nulls;
    mod request;
    mod schema;
    mod validation;

    pub(crate) use actions::{Answer, Route, Served, route};
    pub(crate) use call::Edge;
    pub(crate) use nulls::drop_absent as drop_absent_nulls;
    pub(crate) use request::request_msgpack;
    pub(crate) use schema::Schema;
    pub(crate) use validation::explain;

    /// A JSON object: a call's arguments, a schema.
    pub(crate) type JsonObject = serde_json::Map<String, crate::Json>;
}

// What fewer doors use.
// The web routes read resources, prompts and completions; the lists,
// subscriptions and capabilities in it are MCP's alone.
#[cfg(any(feature = "mcp", feature = "web"))]
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
mod entries;
#[cfg(any(feature = "mcp", feature = "web"))]
pub(crate) mod entry_json;
#[cfg(any(feature = "web", all(feature = "client", feature = "hoot")))]
pub(crate) use call::Outcome;
#[cfg(any(feature = "mcp", feature = "web"))]
pub(crate) use call::Prepared;
#[cfg(any(feature = "mcp", all(feature = "client", feature = "hoot")))]
pub(crate) use call::job_handle;
#[cfg(feature = "web")]
pub(crate) use chunk::Arguments;
#[cfg(feature = "mcp")]
pub(crate) use chunk::text as chunk_text;
#[cfg(feature = "mcp")]
pub(crate) use entries::{APP_MIME, scopes_of};
#[cfg(any(feature = "mcp", feature = "web"))]
pub(crate) use entries::{App, Completions, Entries, Entry};
#[cfg(feature = "web")]
pub(crate) use request::WithTag;
#[cfg(any(feature = "mcp", feature = "web"))]
pub(crate) use request::request_msgpack_tagged;
