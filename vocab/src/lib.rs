//! The words of the `.tool` IDL that Toolwright's generator
//! (`toolwright-codegen`), macros and runtime (`toolwright`) all read:
//! each defined once here, with its one spelling, so the crates cannot
//! disagree on it. The runtime re-exports both as `toolwright::ToolTiming`
//! and `toolwright::ContentKind`.
//!
//! With the `serde` feature both serialize as the IDL spells them.

#![deny(missing_docs)]

mod content;
mod timing;

pub use content::ContentKind;
pub use timing::ToolTiming;
