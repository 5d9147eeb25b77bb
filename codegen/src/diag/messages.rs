//! The message catalogue: every diagnostic the frontend can emit, in one
//! place, each with a stable code. Phases call these constructors; none
//! formats a message of its own.

use super::Diagnostic;
use crate::source::Span;

macro_rules! codes {
    ($($variant:ident = $code:literal: $summary:literal,)*) => {
        /// A stable diagnostic code. Codes never change meaning; retired codes
        /// are not reused.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Code {
            $(
                #[doc = $summary]
                $variant,
            )*
        }

        impl Code {
            /// Every code, in numeric order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The code as printed, e.g. `TW101`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// One line saying what the code means.
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => $summary,)* }
            }

            /// The long explanation (Markdown): the rule, why it exists, an
            /// example that breaks it and its fix. One file per code in
            /// `diag/explain/`, so a code without one does not compile.
            pub fn explanation(self) -> &'static str {
                match self {
                    $(Code::$variant => include_str!(concat!("explain/", $code, ".md")),)*
                }
            }

            /// True for the codes of warnings (`TW4xx`).
            pub fn is_warning(self) -> bool {
                self.as_str().starts_with("TW4")
            }

            /// Parses `TW101` (any case).
            pub fn parse(code: &str) -> Option<Code> {
                Self::ALL.iter().copied().find(|c| c.as_str().eq_ignore_ascii_case(code))
            }
        }
    };
}

codes! {
    InvalidUtf8 = "TW001": "the file is not valid UTF-8",
    UnexpectedChar = "TW002": "a character that cannot start a token",
    UnterminatedString = "TW003": "a string literal without its closing quote",
    InvalidEscape = "TW004": "an unknown escape sequence in a string literal",
    BlockComment = "TW005": "block comments are not part of the IDL",
    InvalidNumber = "TW006": "a malformed or out-of-range number literal",
    Expected = "TW010": "the parser expected something else here",
    ExpectedItem = "TW011": "a top-level item was expected",
    UnknownClause = "TW012": "a word that is not a tool or action clause",
    MisplacedCategory = "TW013": "`category` must come first in a file, once",
    DanglingDoc = "TW014": "a doc comment not followed by anything it can document",
    TooDeep = "TW015": "a type nested deeper than the IDL allows",
    NonEmptyList = "TW016": "only the empty list `[]` is a valid list literal",
    UnknownType = "TW101": "a type name that is not declared",
    Duplicate = "TW102": "a name declared twice in the same namespace",
    NamingConvention = "TW103": "a name that breaks the snake_case / PascalCase convention",
    CaseCollision = "TW104": "two names that become the same after case conversion",
    ReservedName = "TW105": "a name the generated code or runtime already uses",
    WrongKind = "TW106": "a name that refers to the wrong kind of declaration",
    GenericArity = "TW107": "a type used with the wrong number of type arguments",
    NestedOptional = "TW108": "`?` anywhere but the outermost level of a field type",
    EmptyDeclaration = "TW109": "an enum, union or error with no variants",
    MissingTiming = "TW201": "a tool or action without a `timing`",
    UnknownTiming = "TW202": "a timing class that does not exist",
    DuplicateClause = "TW203": "a clause given twice in one tool or action",
    ClauseInAction = "TW204": "a clause that belongs on the tool, not on an action",
    ActionsWithShape = "TW205": "a tool with actions that also declares a request or response",
    ResponseNeverSent = "TW206": "a `fire_and_forget` tool that declares a response",
    UnknownAttribute = "TW301": "an attribute that does not exist",
    AttributeTarget = "TW302": "an attribute on something it cannot apply to",
    AttributeArguments = "TW303": "an attribute given the wrong number or kind of arguments",
    AttributeType = "TW304": "a field attribute that does not fit the field's type",
    DuplicateAttribute = "TW305": "the same attribute given twice",
    ConflictingAttributes = "TW306": "two attributes that contradict each other",
    InvalidBounds = "TW307": "bounds that are reversed or outside the type",
    InvalidPattern = "TW308": "a `@pattern` that is not a valid regular expression",
    DefaultType = "TW309": "a default value of the wrong type",
    DefaultOutOfRange = "TW310": "a default value outside the field's bounds",
    OptionalDefault = "TW311": "an optional field that also has a default",
    Uninhabited = "TW312": "a type that contains itself through required fields only",
    UnusedType = "TW401": "a declared type that no tool uses (warning)",
    DeprecatedUse = "TW402": "a deprecated item used by one that is not deprecated (warning)",
    MissingDocs = "TW403": "a tool, action or field without a doc comment (warning)",
    AsyncWithoutErrors = "TW404": "an `async_long` tool that declares no errors (warning)",
}

/// "1 file", "2 files".
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Formats `["a", "b", "c"]` as "`a`, `b` or `c`".
pub(crate) fn one_of(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

fn did_you_mean(suggestion: Option<&str>) -> Option<String> {
    suggestion.map(|s| format!("did you mean `{s}`?"))
}

// ---- lexical ---------------------------------------------------------------

pub(crate) fn invalid_utf8(span: Span) -> Diagnostic {
    Diagnostic::error(Code::InvalidUtf8, span, "this file is not valid UTF-8")
        .label("invalid byte sequence here")
        .help("save the file as UTF-8")
}

pub(crate) fn unexpected_char(span: Span, c: char) -> Diagnostic {
    // Show the character as it looks, unless it does not look like anything.
    let shown = if c.is_control() || c.is_whitespace() || c == '\u{FEFF}' {
        format!("U+{:04X}", u32::from(c))
    } else {
        c.to_string()
    };
    let d = Diagnostic::error(
        Code::UnexpectedChar,
        span,
        format!("unexpected character `{shown}`"),
    );
    match c {
        '#' => d.help("comments start with `//`"),
        '-' => d.help("`-` is only valid as the sign of a number literal"),
        '\'' => d.help("strings use double quotes: \"...\""),
        c if !c.is_ascii() && c.is_alphabetic() => {
            d.note("IDL names are ASCII so that every target language can spell them")
        }
        _ => d,
    }
}

pub(crate) fn unterminated_string(span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::UnterminatedString,
        span,
        "unterminated string literal",
    )
    .label("string starts here")
    .help("close it with `\"` on the same line")
}

pub(crate) fn invalid_escape(span: Span, seq: &str, reason: Option<&str>) -> Diagnostic {
    match reason {
        None => Diagnostic::error(
            Code::InvalidEscape,
            span,
            format!("unknown escape sequence `{seq}`"),
        )
        .help(r#"valid escapes are \\ \" \' \n \r \t \0 and \u{XXXX}"#),
        Some(reason) => Diagnostic::error(
            Code::InvalidEscape,
            span,
            format!("invalid escape sequence `{seq}`"),
        )
        .label(reason.to_owned()),
    }
}

pub(crate) fn single_quotes(span: Span) -> Diagnostic {
    Diagnostic::error(Code::UnexpectedChar, span, "strings use double quotes")
        .label("single-quoted")
        .help("write \"...\"")
}

pub(crate) fn block_comment(span: Span) -> Diagnostic {
    Diagnostic::error(Code::BlockComment, span, "block comments are not supported")
        .help("use `//` for comments and `///` for documentation")
}

pub(crate) fn invalid_number(span: Span, reason: &str) -> Diagnostic {
    Diagnostic::error(
        Code::InvalidNumber,
        span,
        format!("invalid number: {reason}"),
    )
}

// ---- syntax ----------------------------------------------------------------

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
        one_of(&["category", "tool", "struct", "enum", "union", "error"])
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

pub(crate) fn non_empty_list(span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::NonEmptyList,
        span,
        "only the empty list `[]` can be written as a literal",
    )
    .help("write `[]`; a list default is always empty")
}

// ---- names -----------------------------------------------------------------

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

pub(crate) fn duplicate_generated(
    span: Span,
    name: &str,
    what: &str,
    tool: &str,
    tool_span: Span,
) -> Diagnostic {
    Diagnostic::error(
        Code::Duplicate,
        span,
        format!("type `{name}` clashes with the {what} generated for tool `{tool}`"),
    )
    .label("declared here")
    .with_secondary(tool_span, format!("tool `{tool}` generates `{name}`"))
    .help(if what == "marker type" || what == "action enum" {
        "rename the type or the tool"
    } else {
        "rename the type, or use it as the tool's `request`/`response` by name"
    })
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
        format!("{what} `{name}` and `{other}` both become `{converted}`"),
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

// ---- tools -----------------------------------------------------------------

pub(crate) fn missing_timing(span: Span, what: &str, name: &str) -> Diagnostic {
    let help = if what == "action" {
        "add `timing sync` to the action, or a `timing` to the tool for all its actions"
    } else {
        "add `timing sync` for a tool that answers at once"
    };
    Diagnostic::error(
        Code::MissingTiming,
        span,
        format!("{what} `{name}` has no `timing`"),
    )
    .label("timing missing")
    .note(format!(
        "the timing class decides how the dispatcher answers: {}",
        one_of(crate::model::Timing::NAMES)
    ))
    .help(help)
}

pub(crate) fn unknown_timing(span: Span, found: &str, suggestions: &[&str]) -> Diagnostic {
    let d = Diagnostic::error(
        Code::UnknownTiming,
        span,
        format!("unknown timing class `{found}`"),
    )
    .label("not a timing class")
    .note(format!(
        "timing classes are {}",
        one_of(crate::model::Timing::NAMES)
    ));
    match suggestions {
        [] => d,
        [one] => d.help(format!("did you mean `{one}`?")),
        many => d.help(format!("did you mean {}?", one_of(many))),
    }
}

pub(crate) fn duplicate_clause(span: Span, clause: &str, first: Span) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateClause,
        span,
        format!("`{clause}` is given twice"),
    )
    .label("given again here")
    .with_secondary(first, "first given here")
}

pub(crate) fn clause_in_action(span: Span, clause: &str) -> Diagnostic {
    let note = if clause == "action" {
        "actions do not nest: an action tool has one level of actions"
    } else {
        "a tool has one error type and one stream type, shared by its actions"
    };
    Diagnostic::error(
        Code::ClauseInAction,
        span,
        format!("`{clause}` belongs on the tool, not on an action"),
    )
    .label("inside an action")
    .note(note)
    .help(format!("move `{clause}` into the tool's body"))
}

pub(crate) fn actions_with_shape(span: Span, clause: &str, tool: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ActionsWithShape,
        span,
        format!("tool `{tool}` has actions, so it cannot have a tool-level `{clause}`"),
    )
    .label(format!("tool-level `{clause}`"))
    .note("each action declares its own request and response")
    .help(format!("move the `{clause}` into the action that needs it"))
}

pub(crate) fn response_never_sent(span: Span, name: &str, timing: Option<Span>) -> Diagnostic {
    let d = Diagnostic::error(
        Code::ResponseNeverSent,
        span,
        format!("`{name}` is `fire_and_forget`, so its response would never be sent"),
    )
    .label("never sent")
    .note("a fire_and_forget call is acknowledged with a job id at once; failures are recorded on the job")
    .help("remove the `response`, or pick a timing such as `async_long` whose result can be polled");
    match timing {
        Some(t) => d.with_secondary(t, "timing set here"),
        None => d,
    }
}

// ---- attributes, fields, defaults -------------------------------------------

pub(crate) fn unknown_attribute(span: Span, name: &str, suggestion: Option<&str>) -> Diagnostic {
    Diagnostic::error(
        Code::UnknownAttribute,
        span,
        format!("unknown attribute `@{name}`"),
    )
    .label("not an attribute")
    .help_opt(suggestion.map(|s| format!("did you mean `@{s}`?")))
}

pub(crate) fn attribute_target(span: Span, name: &str, target: &str, allowed: &str) -> Diagnostic {
    Diagnostic::error(
        Code::AttributeTarget,
        span,
        format!("`@{name}` cannot be used on {target}"),
    )
    .label(format!("not allowed on {target}"))
    .note(format!("`@{name}` applies to {allowed}"))
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
