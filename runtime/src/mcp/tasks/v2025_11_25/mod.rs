//! MCP 2025-11-25's tasks utility: the tasks of a session (`store`), the
//! rerouting of the methods rmcp cannot read (`intercept`), and the
//! answers to them (`methods`).

mod follow;
pub(in crate::mcp) mod intercept;
mod methods;
mod rpc_errors;
#[cfg(feature = "redis")]
mod shared;
pub(in crate::mcp) mod store;
