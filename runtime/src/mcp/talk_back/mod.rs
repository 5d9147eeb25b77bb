//! A handler reaching the client that called it: what it tells the client
//! (log messages, progress) as notifications, and its questions to the
//! client's model (sampling) and user (elicitation), as requests on the
//! session (2025-11-25 and earlier) or as `input_required` rounds
//! (2026-07-28).

// MCP 2026-07-28 deprecates server-to-client requests and logging in favour
// of results that ask for input (SEP-2577); up to 2025-11-25 they are how a
// server logs, samples and elicits, and rmcp marks them deprecated.
#[allow(deprecated)]
pub(super) mod caller;
pub(super) mod progress;
#[allow(deprecated)]
mod questions;
pub(super) mod rounds;
pub(super) mod seal;
#[allow(deprecated)]
pub(super) mod told;
