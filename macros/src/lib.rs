//! Procedural macros for Toolwright.
//!
//! This crate will hold the `#[tools]` / `#[tool]` handler-binding macros and
//! the include macro; it exports nothing yet.
