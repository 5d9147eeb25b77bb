//! Resources and prompts: binding `#[resource]`, `#[prompt]` and
//! `#[complete(entry.argument)]` methods and writing `Service::entry`.
//!
//! - [`describe`]: their description in the generated catalogue.
//! - [`marks`]: the methods marked for them in the user's block.
//! - [`resolve`]: each entry and each completed argument paired with its
//!   method, and an error for every one left without.
//! - [`emit`]: `fn entry`, one arm per entry.

mod describe;
mod emit;
mod marks;
mod resolve;

pub(crate) use describe::{Contents, EntryDesc, EntryKind};
pub(crate) use emit::entry_fn;
pub(crate) use marks::collect;
pub(crate) use resolve::resolve;
