//! Resources, prompts and completion as MCP serves them: the
//! catalogue's entries ([`Entries`](crate::edge::Entries), shared with the
//! web routes) answered through the port's
//! [`entry`](crate::port::CallPort::entry); and the tools' MCP Apps,
//! answered from the catalogue.
//!
//! - [`answer`]: an entry's answer as rmcp's result types.
//! - [`apps`]: how the server declares the MCP Apps extension.

pub(crate) mod answer;
pub(crate) mod apps;
