//! TW6xx: declared examples (`example "Title" { ... }`).

use super::Code;
use crate::diag::Diagnostic;
use crate::source::Span;

/// A value in an example that its declared type or constraints refuse.
/// `request { a: "two" }` for `a: i64` → TW601.
pub(crate) fn example_value(span: Span, message: String, help: Option<String>) -> Diagnostic {
    Diagnostic::error(Code::ExampleValue, span, message)
        .label("does not fit the declared type")
        .help_opt(help)
}

/// A field an example's object must have and does not.
pub(crate) fn example_missing_field(span: Span, field: &str, ty: &str, of: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ExampleValue,
        span,
        format!("{of} has no `{field}`, which is required"),
    )
    .label(format!("`{field}: {ty}` is missing here"))
    .help(format!(
        "add `{field}: …`, or give the field a default or make it optional"
    ))
}

/// A key of an example's object that is no field of its type.
pub(crate) fn example_unknown_field(
    span: Span,
    key: &str,
    of: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    let help = match suggestion {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!("remove it: {of} declares no such field"),
    };
    Diagnostic::error(
        Code::ExampleValue,
        span,
        format!("`{key}` is not a field of {of}"),
    )
    .label("unknown field")
    .help(help)
}

/// An example's response or error that the tool cannot answer.
/// `response { … }` on a tool without a response → TW602.
pub(crate) fn example_outcome(
    span: Span,
    message: String,
    label: &str,
    help: String,
) -> Diagnostic {
    Diagnostic::error(Code::ExampleOutcome, span, message)
        .label(label)
        .help(help)
}

/// An example's error that names no variant of the tool's errors.
pub(crate) fn example_unknown_error(
    span: Span,
    variant: &str,
    errors: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    let help = match suggestion {
        Some(s) => format!("did you mean `{s}`?"),
        None => format!("name one of the variants of `{errors}`"),
    };
    Diagnostic::error(
        Code::ExampleOutcome,
        span,
        format!("`{variant}` is not one of the tool's errors (`{errors}`)"),
    )
    .label("unknown error")
    .help(help)
}

/// An example written where it cannot be, or a part or title given twice.
/// `example "A" { … } example "A" { … }` → TW603.
pub(crate) fn example_place(
    span: Span,
    message: String,
    label: &str,
    help: String,
    first: Option<Span>,
) -> Diagnostic {
    let d = Diagnostic::error(Code::ExamplePlace, span, message)
        .label(label)
        .help(help);
    match first {
        Some(first) => d.with_secondary(first, "first given here"),
        None => d,
    }
}
