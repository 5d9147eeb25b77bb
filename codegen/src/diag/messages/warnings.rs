//! Warnings (`TW4xx`): what a valid catalogue probably got wrong.
//! `crate::lint` decides when each applies.

use super::super::Diagnostic;
use super::Code;
use crate::source::Span;

pub(crate) fn unused_type(span: Span, name: &str) -> Diagnostic {
    Diagnostic::warning(
        Code::UnusedType,
        span,
        format!("type `{name}` is declared but no tool uses it"),
    )
    .label("reached by no request, response, error or stream")
    .note("every backend still generates it, so clients see a type nothing sends")
    .help("use it in a tool, or remove it")
}

pub(crate) fn deprecated_use(
    span: Span,
    user: &str,
    used: &str,
    owner: &str,
    reason: Option<&str>,
    declared: Span,
) -> Diagnostic {
    let d = Diagnostic::warning(
        Code::DeprecatedUse,
        span,
        format!("{user} uses the deprecated {used}"),
    )
    .label(format!("uses {used}"))
    .with_secondary(declared, "deprecated here");
    let d = match reason {
        Some(reason) => d.note(format!("deprecated: {reason}")),
        None => d,
    };
    d.help(format!(
        "stop using {used}, or mark {owner} `@deprecated` too"
    ))
}

pub(crate) fn missing_docs(span: Span, what: &str) -> Diagnostic {
    Diagnostic::warning(Code::MissingDocs, span, format!("{what} has no doc comment"))
        .label("undocumented")
        .note("doc comments become the descriptions a model reads in MCP `tools/list` and in the JSON Schemas")
        .help("add a `///` comment above it saying what it is for")
}

pub(crate) fn async_long_without_errors(span: Span, tool: &str) -> Diagnostic {
    Diagnostic::warning(
        Code::AsyncWithoutErrors,
        span,
        format!("`async_long` tool `{tool}` declares no errors"),
    )
    .label("no `errors` clause")
    .note("a caller who polls a long job learns of a failure only as an untyped `INTERNAL` error")
    .help("declare `errors SomeError` with the ways the job can fail")
}
