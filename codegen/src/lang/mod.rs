//! Backends: one folder per target language, each turning the checked model
//! into files. Used by [`crate::generate`] and [`crate::generate_bindings`].

pub(crate) mod docs;
pub(crate) mod header;
pub(crate) mod metadata;
pub(crate) mod python;
pub(crate) mod rust;
pub(crate) mod schema;
pub(crate) mod templates;
pub(crate) mod typescript;
