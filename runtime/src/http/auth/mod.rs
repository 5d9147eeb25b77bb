//! OAuth 2.1 on the HTTP doors, as the MCP authorization spec has a
//! resource server do it: the protected-resource metadata of RFC 9728,
//! a `401` challenge that points to it, and JWT access tokens checked
//! against the keys their issuer publishes, for this resource alone
//! (RFC 8707). A token that passes becomes the call's
//! [`Principal`](crate::Principal); the scopes tools declare in the IDL
//! are checked against it before any handler runs.
//!
//! - [`Auth`]: what the server accepts (its resource, its issuers).
//! - `keys`: each issuer's keys, found through its metadata and cached.
//! - `token`: one token checked, or why not.
//! - `metadata`: the RFC 9728 document and the challenge.
//! - `fetch`: a bounded HTTPS GET of a JSON document.

mod config;
mod fetch;
mod keys;
mod metadata;
mod settings;
mod token;
mod verified;

pub use config::Auth;
pub(crate) use metadata::{metadata_url, routes};
