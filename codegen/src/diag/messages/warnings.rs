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

/// `full` is the tool's name as a client passes it on (after its prefix);
/// `refusals` each provider that refuses it, with why. Providers refusing
/// it for the same reason are named together.
pub(crate) fn provider_name(
    span: Span,
    full: &str,
    prefix: &str,
    refusals: &[(&str, String)],
) -> Diagnostic {
    let providers: Vec<&str> = refusals.iter().map(|(p, _)| *p).collect();
    let mut reasons: Vec<(Vec<&str>, &str)> = Vec::new();
    for (provider, why) in refusals {
        match reasons.iter_mut().find(|(_, w)| *w == why.as_str()) {
            Some((named, _)) => named.push(provider),
            None => reasons.push((vec![provider], why)),
        }
    }
    let mut d = Diagnostic::warning(
        Code::ProviderName,
        span,
        format!("tool name `{full}` is refused by {}", and_list(&providers)),
    )
    .label(format!("refused by {}", and_list(&providers)));
    for (named, why) in reasons {
        d = d.note(format!("{}: {why}", and_list(&named)));
    }
    let help = if prefix.is_empty() {
        "shorten the name: OpenAI and Anthropic take at most 64 characters of `A-Z a-z 0-9 _ -`"
            .to_owned()
    } else {
        format!(
            "shorten the name: the client prefix `{prefix}` counts, and OpenAI and Anthropic take at most 64 characters of `A-Z a-z 0-9 _ -`"
        )
    };
    d.help(help)
}

/// TW406: a request field a targeted provider profile cannot state.
pub(crate) fn profile_unfaithful(
    span: Span,
    field: &str,
    kind: crate::lint::Unstated,
    required: bool,
    tools: &[&str],
    fates: &[(&str, &str)],
) -> Diagnostic {
    let providers: Vec<&str> = fates.iter().map(|(p, _)| *p).collect();
    let quoted: Vec<String> = tools.iter().map(|t| format!("`{t}`")).collect();
    let quoted: Vec<&str> = quoted.iter().map(String::as_str).collect();
    let mut d = Diagnostic::warning(
        Code::ProfileUnfaithful,
        span,
        format!(
            "field `{field}` cannot be stated faithfully to {}",
            and_list(&providers)
        ),
    )
    .label(format!(
        "{}, in the request of {}",
        kind.what(),
        and_list(&quoted)
    ));
    for (provider, fate) in fates {
        let mut note = format!("{provider}: {fate}");
        if required && *provider == "Gemini" && kind != crate::lint::Unstated::Recursive {
            note.push_str("; it is required, so Gemini's model cannot make a call that decodes");
        }
        d = d.note(note);
    }
    d.note("the server still checks every request against the full declaration")
        .help(kind.fix())
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A scope only one tool needs, a few edits from one others need.
/// `(kind, name)` is what needs the scope: a tool, resource or prompt.
pub(crate) fn scope_typo(
    span: Span,
    scope: &str,
    (kind, name): (&str, &str),
    other: &str,
    other_span: Span,
) -> Diagnostic {
    let each_use = match kind {
        "resource" => "read of the resource",
        "prompt" => "get of the prompt",
        _ => "call of the tool",
    };
    Diagnostic::warning(
        Code::ScopeTypo,
        span,
        format!("scope `{scope}` is needed by `{name}` only and is close to `{other}`"),
    )
    .label(format!("needed by this {kind} only"))
    .with_secondary(other_span, format!("`{other}` is needed here"))
    .note(format!(
        "a misspelt scope is one no token carries: every {each_use} would be refused"
    ))
    .help(format!("did you mean `{other}`?"))
}
