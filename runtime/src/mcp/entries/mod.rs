//! Resources, prompts and completion as MCP serves them: the
//! catalogue's entries ([`Entries`](crate::edge::Entries), shared with the
//! web routes) answered through the port's
//! [`entry`](crate::port::CallPort::entry).
//!
//! - [`answer`]: an entry's answer as rmcp's result types.

pub(crate) mod answer;
