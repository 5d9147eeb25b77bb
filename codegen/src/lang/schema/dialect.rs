//! The JSON Schema dialect the schema backend writes: every type file
//! declares it, and so does an input schema that uses `$defs`; the
//! metaschema check compiles it.

/// The dialect every type file declares.
pub(super) const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";
