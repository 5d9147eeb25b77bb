//! The checks the generated [`Validate`](super::Validate) impls call, one
//! per constraint and kind of value. Each returns a [`Violation`] without a
//! path; the caller adds the field.

use serde_json::{Map, Value as Json};

use super::{Pattern, Violation};

/// `@range(min, max)` on an integer field.
///
/// # Errors
/// When `value` is outside `min..=max`.
pub fn int(value: impl Into<i128>, min: i128, max: i128) -> Result<(), Violation> {
    let value = value.into();
    if value < min {
        Err(range(
            format!("{value} is below the minimum {min}"),
            int_json(min),
            int_json(max),
        ))
    } else if value > max {
        Err(range(
            format!("{value} is above the maximum {max}"),
            int_json(min),
            int_json(max),
        ))
    } else {
        Ok(())
    }
}

/// A bound as a JSON number: the IDL keeps bounds within the field's
/// type, so one of the two fits.
fn int_json(n: i128) -> Json {
    i64::try_from(n)
        .map(Json::from)
        .or_else(|_| u64::try_from(n).map(Json::from))
        .unwrap_or(Json::Null)
}

/// `@range(min, max)` on a float field. NaN is within no range.
///
/// # Errors
/// When `value` is outside `min..=max` or NaN.
pub fn float(value: impl Into<f64>, min: f64, max: f64) -> Result<(), Violation> {
    let value = value.into();
    if value < min {
        Err(range(
            format!("{value} is below the minimum {min}"),
            min,
            max,
        ))
    } else if value > max {
        Err(range(
            format!("{value} is above the maximum {max}"),
            min,
            max,
        ))
    } else if value.is_nan() {
        Err(range(format!("NaN is not within {min}..={max}"), min, max))
    } else {
        Ok(())
    }
}

fn range(message: String, min: impl Into<Json>, max: impl Into<Json>) -> Violation {
    let mut bounds = Map::new();
    bounds.insert("minimum".into(), min.into());
    bounds.insert("maximum".into(), max.into());
    Violation::new("range", message, bounds)
}

/// `@length(min, max)` on a string field: a count of characters (Unicode
/// scalar values), as JSON Schema, TypeScript and Python count them.
///
/// # Errors
/// When the string has fewer than `min` or more than `max` characters.
pub fn chars(value: &str, min: u64, max: u64) -> Result<(), Violation> {
    // A character takes 1 to 4 bytes: most strings are decided without
    // counting.
    let bytes = value.len() as u64;
    if bytes >= min && bytes <= max {
        return Ok(());
    }
    length(value.chars().count(), "characters", min, max)
}

/// `@length(min, max)` on a `bytes` field.
///
/// # Errors
/// When it holds fewer than `min` or more than `max` bytes.
pub fn bytes(value: &[u8], min: u64, max: u64) -> Result<(), Violation> {
    length(value.len(), "bytes", min, max)
}

/// `@length(min, max)` on a list or map field: a count of entries.
///
/// # Errors
/// When it holds fewer than `min` or more than `max` entries.
pub fn entries(count: usize, min: u64, max: u64) -> Result<(), Violation> {
    length(count, "entries", min, max)
}

fn length(count: usize, unit: &str, min: u64, max: u64) -> Result<(), Violation> {
    let count = count as u64;
    let message = if count < min {
        format!("{count} {unit} are fewer than the minimum {min}")
    } else if count > max {
        format!("{count} {unit} are more than the maximum {max}")
    } else {
        return Ok(());
    };
    let mut bounds = Map::new();
    bounds.insert("minimum".into(), min.into());
    bounds.insert("maximum".into(), max.into());
    Err(Violation::new("length", message, bounds))
}

/// `@pattern(re)` on a string field: the expression matches somewhere in
/// the string, as in JSON Schema (anchor it with `^…$` to match whole).
///
/// # Errors
/// When `value` does not match.
pub fn pattern(value: &str, pattern: &Pattern) -> Result<(), Violation> {
    if pattern.is_match(value) {
        return Ok(());
    }
    let mut bounds = Map::new();
    bounds.insert("pattern".into(), pattern.source().into());
    let message = format!(
        "{} does not match the pattern `{}`",
        shown(value),
        pattern.source()
    );
    Err(Violation::new("pattern", message, bounds))
}

/// A string for a message: quoted, escaped, and cut after 40 characters.
fn shown(value: &str) -> String {
    const MAX: usize = 40;
    let mut out: String = value.chars().take(MAX).collect();
    if out.len() < value.len() {
        out.push('…');
    }
    format!("{out:?}")
}
