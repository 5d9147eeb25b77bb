//! The Toolwright runtime.
//!
//! This crate will hold the `Tool` trait, envelopes, codecs and the
//! dispatcher that serve a generated catalogue; it exports nothing yet.
