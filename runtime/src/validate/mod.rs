//! What the IDL's `@range`, `@length` and `@pattern` promise, kept: every
//! request is checked before a handler sees it, whichever transport brought
//! it (MsgPack, JSON, MCP, HOOT01, HTTP) and also when a Rust caller builds
//! it by hand and hands it to [`Dispatcher::call`](crate::Dispatcher::call).
//!
//! The generated code implements [`Validate`] for every type a request can
//! hold that carries a constraint, directly or through its fields; the
//! checks themselves are the functions of [`check`]. A failed check is a
//! [`Violation`], which names the field path and the bound and becomes an
//! `INVALID_REQUEST` [`ToolError`].

pub mod check;
mod pattern;

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value as Json};

use crate::{Bytes, ToolError};

pub use pattern::Pattern;

/// A value that can be checked against its IDL constraints.
///
/// The default method accepts everything: types without constraints (and
/// hand-written catalogues) implement it with an empty `impl`.
pub trait Validate {
    /// Checks every constraint of `self` and of everything it holds.
    ///
    /// # Errors
    /// The first constraint that does not hold, with the path of the field
    /// it is on.
    fn validate(&self) -> Result<(), Violation> {
        Ok(())
    }
}

/// A constraint that does not hold: what was found, the bound it broke,
/// and where.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// Path segments from the innermost outwards; reversed when shown.
    path: Vec<Segment>,
    /// "100 is above the maximum 24".
    message: String,
    /// `constraint` and the bounds, for `ToolError::details`.
    details: Map<String, Json>,
}

#[derive(Clone, Debug, PartialEq)]
enum Segment {
    Field(&'static str),
    Index(usize),
    Key(String),
}

impl Violation {
    /// A violation of `constraint` (`range`, `length`, `pattern`) at the
    /// value being checked; the callers up the tree add the path.
    pub fn new(constraint: &'static str, message: String, bounds: Map<String, Json>) -> Self {
        let mut details = Map::new();
        details.insert("constraint".into(), Json::from(constraint));
        details.extend(bounds);
        Violation {
            path: Vec::new(),
            message,
            details,
        }
    }

    /// The same violation, inside the field `name` of a struct or variant.
    #[must_use]
    pub fn at(mut self, name: &'static str) -> Self {
        self.path.push(Segment::Field(name));
        self
    }

    /// The same violation, inside entry `index` of a list.
    #[must_use]
    pub fn at_index(mut self, index: usize) -> Self {
        self.path.push(Segment::Index(index));
        self
    }

    /// The same violation, inside entry `key` of a map.
    #[must_use]
    pub fn at_key(mut self, key: &str) -> Self {
        self.path.push(Segment::Key(key.to_owned()));
        self
    }

    /// The path of the offending value, as decode errors write it:
    /// `options.mode`, `items[2].name`; empty at the top level.
    pub fn field(&self) -> String {
        let mut out = String::new();
        for segment in self.path.iter().rev() {
            match segment {
                Segment::Field(name) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(name);
                }
                Segment::Index(i) => out.push_str(&format!("[{i}]")),
                Segment::Key(key) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(key);
                }
            }
        }
        out
    }

    /// What is wrong, without the path: "100 is above the maximum 24".
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = self.field();
        if field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "field `{field}`: {}", self.message)
        }
    }
}

impl std::error::Error for Violation {}

impl From<Violation> for ToolError {
    /// `INVALID_REQUEST` with the violation as the message and, as details,
    /// `field`, `constraint` and its bounds.
    fn from(violation: Violation) -> Self {
        let mut details = violation.details.clone();
        details.insert("field".into(), Json::from(violation.field()));
        let mut error = ToolError::invalid_request(violation.to_string());
        error.details = Some(Json::Object(details));
        error
    }
}

impl<T: Validate + ?Sized> Validate for Box<T> {
    fn validate(&self) -> Result<(), Violation> {
        (**self).validate()
    }
}

impl<T: Validate> Validate for Option<T> {
    fn validate(&self) -> Result<(), Violation> {
        self.as_ref().map_or(Ok(()), Validate::validate)
    }
}

impl<T: Validate> Validate for Vec<T> {
    fn validate(&self) -> Result<(), Violation> {
        for (index, item) in self.iter().enumerate() {
            item.validate().map_err(|v| v.at_index(index))?;
        }
        Ok(())
    }
}

impl<T: Validate> Validate for BTreeMap<String, T> {
    fn validate(&self) -> Result<(), Violation> {
        for (key, value) in self {
            value.validate().map_err(|v| v.at_key(key))?;
        }
        Ok(())
    }
}

// The scalars hold no constraint of their own: a field's bounds are
// checked by its owner, which knows them.
macro_rules! accept {
    ($($t:ty),* $(,)?) => { $(impl Validate for $t {})* };
}
accept!(
    (),
    bool,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    f32,
    f64,
    String,
    Bytes,
    Json
);

#[cfg(test)]
mod tests;
