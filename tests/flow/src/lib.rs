//! Holds `tests/user_flow.rs`, which copies `template/` (a user's crate with
//! a `.tool` catalogue, a build script and a bound service) to a temporary
//! directory and drives `cargo build` through the edits a user makes.
