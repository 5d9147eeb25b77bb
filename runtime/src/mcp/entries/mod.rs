//! Resources, prompts and completion as MCP serves them, from the
//! catalogue's generated MCP schema (docs/schemas.md, "Resources and
//! prompts") and the port's [`entry`](crate::port::CallPort::entry).
//!
//! - [`McpEntries`]: the lists, and for each resource and prompt how it is
//!   read or got: its URI template, its arguments' types, its completions.
//! - [`answer`]: an entry's answer as rmcp's result types.

pub(crate) mod answer;
mod catalogue;

pub(crate) use catalogue::{Completions, Entry, McpEntries, scopes_of};
