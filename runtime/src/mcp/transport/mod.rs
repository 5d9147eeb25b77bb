//! The transports in front of rmcp: line-delimited JSON-RPC on stdio (or
//! any byte stream pair) and Streamable HTTP, with the JSON-RPC checks
//! both apply before rmcp reads a message.

pub(super) mod http;
pub(super) mod jsonrpc;
pub(super) mod stdio;
