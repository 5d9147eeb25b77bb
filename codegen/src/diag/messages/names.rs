//! Names and types (`TW1xx`): unknown, duplicate, reserved and colliding names.

use super::super::Diagnostic;
use super::Code;
use super::{did_you_mean, plural};
use crate::source::Span;

pub(crate) fn unknown_type(span: Span, name: &str, suggestion: Option<&str>) -> Diagnostic {
    Diagnostic::error(Code::UnknownType, span, format!("unknown type `{name}`"))
        .label("not declared in any file of the catalogue")
        .help_opt(did_you_mean(suggestion))
}

pub(crate) fn unknown_type_of_kind(
    span: Span,
    kind: &str,
    name: &str,
    suggestion: Option<&str>,
) -> Diagnostic {
    Diagnostic::error(Code::UnknownType, span, format!("unknown {kind} `{name}`"))
        .label(format!("no {kind} of this name"))
        .help_opt(did_you_mean(suggestion))
}

pub(crate) fn duplicate(span: Span, what: &str, name: &str, first: Span) -> Diagnostic {
    Diagnostic::error(
        Code::Duplicate,
        span,
        format!("{what} `{name}` is declared twice"),
    )
    .label("declared again here")
    .with_secondary(first, "first declared here")
}

/// A name a tool, resource or prompt already holds.
pub(crate) fn duplicate_across(
    span: Span,
    what: &str,
    name: &str,
    holder: &str,
    first: Span,
) -> Diagnostic {
    Diagnostic::error(
        Code::Duplicate,
        span,
        format!("{what} `{name}` has the name of a {holder}"),
    )
    .label("declared again here")
    .with_secondary(first, format!("{holder} `{name}` declared here"))
    .note("tools, resources and prompts share one namespace: MCP clients and the generated code name each by its name alone")
    .help(format!("rename the {what} or the {holder}"))
}

/// A declared type named like one generated for `owner` ("tool `abc`").
pub(crate) fn duplicate_generated(
    span: Span,
    name: &str,
    what: &str,
    owner: &str,
    owner_span: Span,
) -> Diagnostic {
    let help = match what {
        "marker type" | "action enum" => "rename the type or the tool".to_owned(),
        "arguments struct" => format!(
            "rename the type, or use it as the {}'s `arguments` by name",
            owner.split(' ').next().unwrap_or("resource")
        ),
        _ => "rename the type, or use it as the tool's `request`/`response` by name".to_owned(),
    };
    Diagnostic::error(
        Code::Duplicate,
        span,
        format!("type `{name}` clashes with the {what} generated for {owner}"),
    )
    .label("declared here")
    .with_secondary(owner_span, format!("{owner} generates `{name}`"))
    .help(help)
}

pub(crate) fn naming_convention(
    span: Span,
    what: &str,
    name: &str,
    style: &str,
    fixed: &str,
) -> Diagnostic {
    let d = Diagnostic::error(
        Code::NamingConvention,
        span,
        format!("{what} `{name}` should be {style}"),
    )
    .label(format!("not {style}"));
    if fixed.is_empty() || fixed == name {
        d
    } else {
        d.help(format!("rename it `{fixed}`"))
    }
}

pub(crate) fn case_collision(
    span: Span,
    what: &str,
    name: &str,
    other: &str,
    other_span: Span,
    converted: &str,
    purpose: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::CaseCollision,
        span,
        format!("{what} `{name}` and {other} both become `{converted}`"),
    )
    .label(format!("becomes `{converted}`"))
    .with_secondary(other_span, format!("also becomes `{converted}`"))
    .note(purpose.to_owned())
    .help("rename one of them")
}

pub(crate) fn reserved_enum_value(span: Span, name: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ReservedName,
        span,
        format!("an enum value cannot be named `{name}`"),
    )
    .label("reads as a boolean literal")
    .note(format!(
        "a default written `= {name}` would be the boolean, not this value"
    ))
    .help("choose another name, such as `on`/`off` or `yes`/`no`")
}

pub(crate) fn reserved_tag_field(span: Span, field: &str, tool: &str, clause: &str) -> Diagnostic {
    let what = match tool.split_once('.') {
        Some((tool, action)) => format!("action `{tool}.{action}`"),
        None => format!("tool `{tool}`"),
    };
    Diagnostic::error(
        Code::ReservedName,
        span,
        format!("the {clause} of {what} cannot have a field named `{field}`"),
    )
    .label(format!("`{field}` is a key of the call itself"))
    .note(format!(
        "a call is written as one map whose first keys are `tool` and `action`, followed by the {clause}'s fields; a field `{field}` would repeat that key, and JSON readers keep only one of the two"
    ))
    .help(format!("rename the field, e.g. `{field}_name`"))
}

pub(crate) fn reserved_type(span: Span, name: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ReservedName,
        span,
        format!("`{name}` is reserved for the generated code"),
    )
    .label("reserved name")
    .help("choose another name")
}

pub(crate) fn reserved_action_enum(span: Span, names: &[&str], tool: &str) -> Diagnostic {
    let (enums, listed) = match names {
        [one] => ("enum", format!("`{one}`")),
        _ => (
            "enums",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" and "),
        ),
    };
    Diagnostic::error(
        Code::ReservedName,
        span,
        format!(
            "tool `{tool}` would generate the {enums} {listed}, which the runtime already defines"
        ),
    )
    .label(format!("generates {listed}"))
    .note("an action tool's actions are gathered in enums named after the tool")
    .help("rename the tool")
}

pub(crate) fn reserved_generated(span: Span, name: &str, tool: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ReservedName,
        span,
        format!(
            "tool `{tool}` would generate the type `{name}`, which the runtime already defines"
        ),
    )
    .label(format!("generates `{name}`"))
    .note("an anonymous request or response is named after its tool")
    .help(format!(
        "rename the tool, or name this struct yourself: `{} {tool_pascal}Args {{ ... }}`",
        if name.ends_with("Request") {
            "request"
        } else {
            "response"
        },
        tool_pascal = name
            .trim_end_matches("Request")
            .trim_end_matches("Response"),
    ))
}

pub(crate) fn generated_collision(
    span: Span,
    mine: &str,
    theirs: &str,
    other_span: Span,
    name: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::CaseCollision,
        span,
        format!("{mine} and {theirs} both generate the type `{name}`"),
    )
    .label(format!("generates `{name}`"))
    .with_secondary(other_span, format!("also generates `{name}`"))
    .note("an anonymous request or response is named after its tool and action")
    .help("rename one of them, or name one struct yourself: `request MyName { ... }`")
}

pub(crate) fn differ_in_case(span: Span, name: &str, other: &str, other_span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::CaseCollision,
        span,
        format!("types `{name}` and `{other}` differ only in case"),
    )
    .label("declared here")
    .with_secondary(other_span, format!("`{other}` declared here"))
    .note("each type gets a generated file named after it, and some file systems ignore case")
    .help("rename one of them")
}

pub(crate) fn category_from_file_name(span: Span, file: &str, fixed: &str) -> Diagnostic {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    Diagnostic::error(
        Code::NamingConvention,
        span,
        format!("the file name `{base}` is not a valid category name"),
    )
    .label("this file has no `category` line")
    .note("a file without `category name;` takes its category from its file name, which must be snake_case")
    .help(format!("add `category {fixed};` at the top of the file, or rename the file `{fixed}.tool`"))
}

pub(crate) fn reserved_action(span: Span, name: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ReservedName,
        span,
        format!("action `{name}` is built in"),
    )
    .label("reserved action name")
    .note("every action tool answers `help` and `schema` on its own")
    .help("choose another name")
}

pub(crate) fn wrong_kind(span: Span, name: &str, is: &str, wanted: &str, why: &str) -> Diagnostic {
    Diagnostic::error(
        Code::WrongKind,
        span,
        format!("`{name}` is {is}, but {wanted} is expected here"),
    )
    .label(format!("expected {wanted}"))
    .note(why.to_owned())
}

pub(crate) fn generic_arity(
    span: Span,
    name: &str,
    expected: usize,
    found: usize,
    help: Option<&str>,
) -> Diagnostic {
    let d = Diagnostic::error(
        Code::GenericArity,
        span,
        format!(
            "`{name}` takes {}, but {} given",
            if expected == 0 {
                "no type arguments".to_owned()
            } else {
                plural(expected, "type argument", "type arguments")
            },
            if found == 1 {
                "1 was".to_owned()
            } else {
                format!("{found} were")
            }
        ),
    )
    .label(if expected == 0 {
        "no `<...>` here"
    } else {
        "wrong number of type arguments"
    });
    match help {
        Some(h) => d.help(h.to_owned()),
        None => d,
    }
}

pub(crate) fn nested_optional(span: Span, context: &str) -> Diagnostic {
    Diagnostic::error(
        Code::NestedOptional,
        span,
        format!("`?` is not allowed {context}"),
    )
    .label("optional here")
    .note(if context == "twice" {
        "a field is either optional or not; one `?` says so"
    } else {
        "only a field itself can be optional; lists and maps hold values, never gaps"
    })
}

pub(crate) fn empty_declaration(span: Span, what: &str, name: &str) -> Diagnostic {
    let members = if what == "enum" { "values" } else { "variants" };
    Diagnostic::error(
        Code::EmptyDeclaration,
        span,
        format!("{what} `{name}` declares no {members}"),
    )
    .label("empty")
    .note("no value of it could ever be built")
}
