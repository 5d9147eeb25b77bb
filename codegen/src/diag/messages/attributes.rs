//! Attributes, fields and defaults (`TW3xx`).

use super::super::Diagnostic;
use super::Code;
use super::did_you_mean;
use crate::source::Span;

pub(crate) fn unknown_attribute(span: Span, name: &str, suggestion: Option<&str>) -> Diagnostic {
    Diagnostic::error(
        Code::UnknownAttribute,
        span,
        format!("unknown attribute `@{name}`"),
    )
    .label("not an attribute")
    .help_opt(suggestion.map(|s| format!("did you mean `@{s}`?")))
}

pub(crate) fn attribute_target(
    span: Span,
    name: &str,
    target: &str,
    allowed: &str,
    hint: Option<&str>,
) -> Diagnostic {
    Diagnostic::error(
        Code::AttributeTarget,
        span,
        format!("`@{name}` cannot be used on {target}"),
    )
    .label(format!("not allowed on {target}"))
    .note(format!("`@{name}` applies to {allowed}"))
    .help_opt(hint.map(str::to_owned))
}

pub(crate) fn attribute_arguments(span: Span, name: &str, expected: &str) -> Diagnostic {
    Diagnostic::error(
        Code::AttributeArguments,
        span,
        format!("`@{name}` takes {expected}"),
    )
    .label("wrong arguments")
}

pub(crate) fn attribute_type(span: Span, name: &str, ty: &str, allowed: &str) -> Diagnostic {
    Diagnostic::error(
        Code::AttributeType,
        span,
        format!("`@{name}` does not apply to a field of type `{ty}`"),
    )
    .label(format!("field is `{ty}`"))
    .note(format!("`@{name}` applies to {allowed}"))
}

pub(crate) fn duplicate_attribute(span: Span, name: &str, first: Span) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateAttribute,
        span,
        format!("`@{name}` is given twice"),
    )
    .label("again here")
    .with_secondary(first, "first here")
}

pub(crate) fn conflicting_attributes(
    span: Span,
    a: &str,
    b: &str,
    other: Span,
    why: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::ConflictingAttributes,
        span,
        format!("`@{a}` contradicts `@{b}`"),
    )
    .label(format!("`@{a}`"))
    .with_secondary(other, format!("`@{b}`"))
    .note(why.to_owned())
}

pub(crate) fn invalid_bounds(span: Span, reason: &str) -> Diagnostic {
    Diagnostic::error(
        Code::InvalidBounds,
        span,
        format!("invalid bounds: {reason}"),
    )
    .label("these bounds")
}

pub(crate) fn invalid_pattern(span: Span, reason: &str, hint: Option<&str>) -> Diagnostic {
    Diagnostic::error(Code::InvalidPattern, span, "invalid regular expression")
        .label(reason.to_owned())
        .help_opt(hint.map(str::to_owned))
        .note("a pattern is ECMA-262 (with the `u` flag) and must mean the same in JSON Schema, TypeScript, Python and Rust: literals, `.`, classes, `\\d \\w \\s`, `^ $ \\b`, groups, `|` and quantifiers")
}

pub(crate) fn default_type(span: Span, ty: &str, found: &str, help: Option<String>) -> Diagnostic {
    Diagnostic::error(
        Code::DefaultType,
        span,
        format!("default {found} does not fit type `{ty}`"),
    )
    .label(format!("expected a value of type `{ty}`"))
    .help_opt(help)
}

pub(crate) fn unknown_enum_default(
    span: Span,
    value: &str,
    enum_name: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    Diagnostic::error(
        Code::DefaultType,
        span,
        format!("`{value}` is not a value of enum `{enum_name}`"),
    )
    .label("unknown value")
    .help_opt(did_you_mean(suggestion))
}

pub(crate) fn default_out_of_range(span: Span, reason: &str, bound: Option<Span>) -> Diagnostic {
    let d = Diagnostic::error(
        Code::DefaultOutOfRange,
        span,
        format!("default value is out of bounds: {reason}"),
    )
    .label("out of bounds");
    match bound {
        Some(b) => d.with_secondary(b, "bound set here"),
        None => d,
    }
}

pub(crate) fn optional_default(span: Span, question: Span) -> Diagnostic {
    Diagnostic::error(
        Code::OptionalDefault,
        span,
        "an optional field cannot also have a default",
    )
    .label("default given here")
    .with_secondary(question, "field is optional")
    .note("a field with a default is already optional on the wire: a caller may leave it out")
    .help("remove the `?`")
}

pub(crate) fn uninhabited(span: Span, name: &str, path: &str, is_union: bool) -> Diagnostic {
    let help = if is_union {
        format!(
            "give `{name}` a variant that does not contain it, or make the field optional in every variant"
        )
    } else {
        "break the cycle by making one of those fields optional (`T?`) or a `list<T>`".to_owned()
    };
    Diagnostic::error(
        Code::Uninhabited,
        span,
        format!("`{name}` contains itself through required fields, so no value of it can exist"),
    )
    .label("infinitely nested")
    .note(format!("the cycle: {path}"))
    .help(help)
}

pub(crate) fn unknown_content_kind(
    span: Span,
    name: &str,
    kinds: &[&str],
    suggestion: Option<&str>,
) -> Diagnostic {
    Diagnostic::error(
        Code::AttributeArguments,
        span,
        format!("`{name}` is not a kind of MCP content"),
    )
    .label("not a content kind")
    .note(format!("`@content` takes one of {}", super::one_of(kinds)))
    .help_opt(did_you_mean(suggestion))
}

/// `@content("image")` on a field whose type is not what an image block
/// carries.
pub(crate) fn content_shape(span: Span, kind: &str, problem: &str, shape: &str) -> Diagnostic {
    Diagnostic::error(
        Code::AttributeType,
        span,
        format!("`@content(\"{kind}\")` does not fit this field: {problem}"),
    )
    .label(format!("not {kind} content"))
    .note(format!(
        "`@content(\"{kind}\")` takes {shape}, or a list or optional of it"
    ))
}

/// `@content` on a field of a type that is not a tool's response.
pub(crate) fn content_placement(span: Span, owner: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ContentPlacement,
        span,
        format!("`@content` on a field of `{owner}`, which no tool answers with"),
    )
    .label("only a response's own fields can be content")
    .help("put the field in the tool's `response`, or drop `@content`")
}

/// `@form` on a type, or a form field, that MCP elicitation cannot ask for.
pub(crate) fn form_field(span: Span, problem: &str) -> Diagnostic {
    Diagnostic::error(Code::FormField, span, format!("a `@form` {problem}"))
        .label("elicitation cannot ask for this")
        .note(
            "a form is a struct whose fields are each a string, a boolean, a number, \
             an enum or a list of enum values, optional or not",
        )
}

/// `@header` on a field that is not an argument of a tool without actions.
pub(crate) fn header_placement(span: Span, owner: &str, why: &str) -> Diagnostic {
    Diagnostic::error(
        Code::HeaderField,
        span,
        format!("`@header` on a field of `{owner}`, {why}"),
    )
    .label("not mirrored into a header")
    .note(
        "MCP clients mirror a tool's own arguments into `Mcp-Param-*` headers; \
         an action tool's arguments are its actions' fields merged, so none is the tool's own",
    )
    .help("put `@header` on a field of a tool's `request`, or drop it")
}

/// `@header("…")` naming something that is not an HTTP header name.
pub(crate) fn header_name(span: Span, name: &str, problem: &str) -> Diagnostic {
    Diagnostic::error(
        Code::HeaderField,
        span,
        format!("`@header(\"{name}\")` {problem}"),
    )
    .label("not a header name")
    .note(
        "the header is `Mcp-Param-` followed by this name, so the name must be an \
         HTTP token (RFC 9110): one or more ASCII letters, digits and the symbols \
         ! # $ % & ' * + - . ^ _ ` | ~",
    )
    .help("use a name such as `Region` or `Tenant-Id`")
}

/// Two fields of one request mirrored into the same header.
pub(crate) fn duplicate_header(span: Span, name: &str, first: &str) -> Diagnostic {
    Diagnostic::error(
        Code::HeaderField,
        span,
        format!("`@header(\"{name}\")` names the header of field `{first}` again"),
    )
    .label("the same header")
    .note("header names are compared without regard to case, so each field needs its own")
}

/// `@scopes("…")` naming something that is not an OAuth scope token.
pub(crate) fn invalid_scope(span: Span, scope: &str, problem: &str) -> Diagnostic {
    Diagnostic::error(
        Code::InvalidScope,
        span,
        format!("`{scope}` is not an OAuth scope: it {problem}"),
    )
    .label("not a scope token")
    .note(
        "a scope is an OAuth scope-token (RFC 6749 §3.3): one or more printable \
         ASCII characters other than space, `\"` and `\\`",
    )
    .help("spell each scope as its authorization server does, e.g. `cas:read`; several scopes are separate strings: `@scopes(\"cas:read\", \"cas:write\")`")
}

/// The same scope twice in one `@scopes`.
pub(crate) fn duplicate_scope(span: Span, scope: &str, first: Span) -> Diagnostic {
    Diagnostic::error(
        Code::Duplicate,
        span,
        format!("scope `{scope}` is listed twice"),
    )
    .label("listed again here")
    .with_secondary(first, "first listed here")
    .help("a call needs each scope once: remove this one")
}

/// An attribute argument that is not one of the words it takes:
/// `@audience(admin)`, `@cache(5000, shared)`.
pub(crate) fn unknown_attribute_value(
    span: Span,
    attribute: &str,
    found: &str,
    allowed: &[&str],
    suggestion: Option<&str>,
) -> Diagnostic {
    Diagnostic::error(
        Code::AttributeArguments,
        span,
        format!("`{found}` is not a value `@{attribute}` takes"),
    )
    .label("not one of its values")
    .note(format!(
        "here `@{attribute}` takes {}",
        super::one_of(allowed)
    ))
    .help_opt(did_you_mean(suggestion))
}

/// The same value twice in one attribute that takes names:
/// `@app_visibility(app, app)`.
pub(crate) fn duplicate_attribute_value(
    span: Span,
    attribute: &str,
    value: &str,
    first: Span,
) -> Diagnostic {
    Diagnostic::error(
        Code::Duplicate,
        span,
        format!("`{value}` is listed twice in `@{attribute}`"),
    )
    .label("listed again here")
    .with_secondary(first, "first listed here")
    .help("list each value once")
}

/// The same role twice in one `@audience`.
pub(crate) fn duplicate_role(span: Span, role: &str, first: Span) -> Diagnostic {
    Diagnostic::error(
        Code::Duplicate,
        span,
        format!("`{role}` is listed twice in `@audience`"),
    )
    .label("listed again here")
    .with_secondary(first, "first listed here")
    .help("list each role once: `@audience(user, assistant)` is for both")
}
