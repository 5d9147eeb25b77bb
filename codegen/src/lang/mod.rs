//! Backends: one folder per target language, each turning the checked model
//! into files. Used by [`crate::generate`].

pub(crate) mod rust;
