//! Tasks, in the two shapes MCP has given them, both over the job store
//! (a task's id is its job's id):
//! - `v2025_11_25`: the tasks utility of that revision, a session's tasks
//!   followed with `tasks/get`, `tasks/result`, `tasks/list` and
//!   `tasks/cancel`, whose methods are rerouted past rmcp;
//! - `v2026_07_28`: the tasks extension (SEP-2663), for clients that keep
//!   no session, with questions asked inside a task.

pub(super) mod clock;
pub(super) mod v2025_11_25;
pub(super) mod v2026_07_28;
