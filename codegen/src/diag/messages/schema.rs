//! The schema backend's own errors: a generated JSON Schema the 2020-12
//! metaschema rejects, reported at the declaration it came from, under the
//! code of the IDL rule it comes closest to.

use super::super::Diagnostic;
use super::Code;
use crate::source::Span;

/// `keyword` is the schema keyword the metaschema refused, `what` the
/// declaration (`field \`a\` of \`B\``), `reason` the validator's words.
pub(crate) fn schema_rejected(span: Span, keyword: &str, what: &str, reason: &str) -> Diagnostic {
    match keyword {
        "pattern" => Diagnostic::error(
            Code::InvalidPattern,
            span,
            format!("the `@pattern` of {what} is not a valid JSON Schema pattern"),
        )
        .label(reason)
        .note("JSON Schema `pattern` uses ECMA-262 (JavaScript) syntax; keep to classes, anchors, groups and quantifiers"),
        "minimum" | "maximum" | "minLength" | "maxLength" | "minItems" | "maxItems"
        | "minProperties" | "maxProperties" => Diagnostic::error(
            Code::InvalidBounds,
            span,
            format!("the bounds of {what} cannot be written in JSON Schema"),
        )
        .label(reason)
        .note("JSON numbers are finite and fit in 64 bits"),
        "default" => Diagnostic::error(
            Code::DefaultType,
            span,
            format!("the default of {what} cannot be written in JSON Schema"),
        )
        .label(reason)
        .note("JSON numbers are finite and fit in 64 bits"),
        _ => Diagnostic::error(
            Code::AttributeType,
            span,
            format!("the JSON Schema generated for {what} is not valid JSON Schema 2020-12"),
        )
        .label(reason)
        .note("every generated schema is checked against the JSON Schema 2020-12 metaschema"),
    }
}
