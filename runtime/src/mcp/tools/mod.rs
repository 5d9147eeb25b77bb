//! `tools/list` and `tools/call`: the catalogue's tools as MCP sees them,
//! one call from its arguments to its result, the toolsets a server is
//! limited to, and HIP-0300's envelope around results.

pub(super) mod call;
pub(super) mod catalogue;
pub(super) mod result;
pub(super) mod toolsets;
pub(super) mod unified_envelope;
