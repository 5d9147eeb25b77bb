//! The words of the `.tool` IDL that Toolwright's generator
//! (`toolwright-codegen`), macros and runtime (`toolwright`) all read:
//! each defined once here, with its one spelling, so the crates cannot
//! disagree on it. The runtime re-exports both as `toolwright::ToolTiming`
//! and `toolwright::ContentKind`.
//!
//! The same goes for a resource's URI template ([`uri_template`]): the
//! checker validates it and finds templates that overlap, the runtime
//! expands it and reads URIs back into its variables, with one
//! implementation.
//!
//! With the `serde` feature `ToolTiming` and `ContentKind` serialize as
//! the IDL spells them.

#![deny(missing_docs)]

mod content;
mod timing;
pub mod uri_template;

pub use content::ContentKind;
pub use timing::ToolTiming;
pub use uri_template::{TemplateError, TemplateErrorKind, UriTemplate};
