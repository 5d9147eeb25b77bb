//! A handler reaching the client that called it: what it tells the client
//! (log messages, progress) as notifications, and its questions to the
//! client's model (sampling) and user (elicitation), as requests on the
//! session (2025-11-25 and earlier) or as `input_required` rounds
//! (2026-07-28).

pub(super) mod caller;
pub(super) mod progress;
mod questions;
pub(super) mod rounds;
pub(super) mod seal;
pub(super) mod told;
