//! Syntax errors (`TW01x`): token sequences the parser cannot use.

use super::super::Diagnostic;
use super::Code;
use super::{did_you_mean, one_of};
use crate::source::Span;

pub(crate) fn expected(span: Span, what: &str, found: &str) -> Diagnostic {
    Diagnostic::error(
        Code::Expected,
        span,
        format!("expected {what}, found {found}"),
    )
    .label(format!("expected {what}"))
}

pub(crate) fn expected_with_help(span: Span, what: &str, found: &str, help: &str) -> Diagnostic {
    expected(span, what, found).help(help)
}

pub(crate) fn expected_item(span: Span, found: &str, suggestion: Option<&str>) -> Diagnostic {
    Diagnostic::error(
        Code::ExpectedItem,
        span,
        format!("expected an item, found {found}"),
    )
    .label("not an item")
    .note(format!(
        "a file holds {}",
        one_of(crate::syntax::keywords::ITEMS)
    ))
    .help_opt(did_you_mean(suggestion))
}

pub(crate) fn unknown_clause(
    span: Span,
    found: &str,
    allowed: &[&str],
    suggestion: Option<&str>,
) -> Diagnostic {
    Diagnostic::error(Code::UnknownClause, span, format!("unknown clause {found}"))
        .label("not a clause")
        .note(format!("clauses are {}", one_of(allowed)))
        .help_opt(did_you_mean(suggestion))
}

/// A clause of another kind of body: `timing` in a resource, `uri` in a
/// tool.
pub(crate) fn clause_elsewhere(
    span: Span,
    clause: &str,
    body: &str,
    allowed: &[&str],
    help: String,
) -> Diagnostic {
    let article = if body.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    Diagnostic::error(
        Code::UnknownClause,
        span,
        format!("`{clause}` is not a clause of {article} {body}"),
    )
    .label(format!("not {article} {body} clause"))
    .note(format!("{body} clauses are {}", one_of(allowed)))
    .help(help)
}

pub(crate) fn misplaced_category(span: Span, first: Option<Span>) -> Diagnostic {
    let d = Diagnostic::error(
        Code::MisplacedCategory,
        span,
        "`category` must be the first item of a file, given once",
    );
    match first {
        Some(first) => d
            .label("second `category`")
            .with_secondary(first, "category declared here"),
        None => d
            .label("after other items")
            .help("move `category ...;` to the top of the file, after the file's doc comment"),
    }
}

pub(crate) fn dangling_doc(span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::DanglingDoc,
        span,
        "doc comment is not followed by anything to document",
    )
    .label("documents nothing")
    .help("put it right above an item, action, field, variant or enum value, or use `//` for a plain comment")
}

pub(crate) fn too_deep(span: Span, limit: usize) -> Diagnostic {
    Diagnostic::error(
        Code::TooDeep,
        span,
        format!("type is nested more than {limit} levels deep"),
    )
    .label("too deeply nested")
    .help("name an inner part with a `struct`")
}

pub(crate) fn data_too_deep(span: Span, limit: usize) -> Diagnostic {
    Diagnostic::error(
        Code::TooDeep,
        span,
        format!("example data is nested more than {limit} levels deep"),
    )
    .label("too deeply nested")
    .help("an example's data is as deep as the types it fits; check for unclosed brackets")
}

pub(crate) fn non_empty_list(span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::NonEmptyList,
        span,
        "only the empty list `[]` can be written as a literal",
    )
    .help("write `[]`; a list default is always empty")
}
