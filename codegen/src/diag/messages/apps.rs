//! A tool's MCP App (`TW510`–`TW512`): the HTML file `@app` names, the
//! origins of its Content-Security-Policy, and its `ui://` URI.

use super::super::Diagnostic;
use super::Code;
use crate::source::Span;

/// Why the file `@app("…")` names cannot be served.
pub(crate) enum AppFileProblem {
    /// Nothing is at the path.
    Missing,
    /// It is there but cannot be read; the reason.
    Unreadable(String),
    /// A byte at this offset is not UTF-8.
    NotUtf8(usize),
    /// It has this many bytes, more than the cap.
    TooLarge(u64, u64),
}

/// `@app("apps/add.html")` whose file is missing, unreadable, not UTF-8 or
/// too large. `resolved` is the path it was looked for at.
pub(crate) fn app_file(
    span: Span,
    path: &str,
    resolved: &str,
    problem: AppFileProblem,
) -> Diagnostic {
    let (message, label) = match problem {
        AppFileProblem::Missing => (
            format!("the app `{path}` does not exist"),
            "no such file".to_owned(),
        ),
        AppFileProblem::Unreadable(why) => (
            format!("the app `{path}` cannot be read: {why}"),
            "not readable".to_owned(),
        ),
        AppFileProblem::NotUtf8(at) => (
            format!("the app `{path}` is not UTF-8"),
            format!("byte {at} is not UTF-8"),
        ),
        AppFileProblem::TooLarge(size, cap) => (
            format!("the app `{path}` is {size} bytes, more than the {cap} an app may have"),
            "too large".to_owned(),
        ),
    };
    Diagnostic::error(Code::AppFile, span, message)
        .label(label)
        .note("an app is an HTML file, UTF-8, found relative to the `.tool` file that names it; the catalogue serves its content as the tool's `ui://` resource")
        .help(format!("it was looked for at `{resolved}`"))
}

/// An `@app_connect`, `@app_resources`, `@app_frames` or `@app_base_uri`
/// string that is not an origin.
pub(crate) fn app_origin(span: Span, attribute: &str, value: &str, problem: &str) -> Diagnostic {
    Diagnostic::error(
        Code::AppOrigin,
        span,
        format!("`{value}` in `@{attribute}` is not an origin"),
    )
    .label(problem.to_owned())
    .note("a host builds the app's Content-Security-Policy from these origins: a scheme, a host (`*.` for any subdomain) and an optional port, with no path")
    .help("write `https://api.example.com`, `https://*.example.com` or `http://localhost:8080`")
}

/// An attribute of a tool's app (`@app_connect`, `@app_border`, …) on a
/// tool without `@app`.
pub(crate) fn app_attribute_without_app(span: Span, attribute: &str, tool: &str) -> Diagnostic {
    Diagnostic::error(
        Code::AttributeTarget,
        span,
        format!("`@{attribute}` on tool `{tool}`, which has no app"),
    )
    .label("no `@app` to apply to")
    .note(format!(
        "`@{attribute}` says what the tool's app's resource asks of its host: it applies to tools with `@app`"
    ))
    .help("add `@app` (a generated app) or `@app(\"apps/<file>.html\")`, or drop the attribute")
}

/// An app whose `ui://` URI a declared resource's URI also matches.
pub(crate) fn app_uri_taken(
    span: Span,
    tool: &str,
    uri: &str,
    resource: &str,
    resource_uri: Span,
) -> Diagnostic {
    Diagnostic::error(
        Code::AppUriTaken,
        span,
        format!("the app of tool `{tool}` is `{uri}`, which resource `{resource}` also matches"),
    )
    .label("the app's URI")
    .with_secondary(resource_uri, format!("matches `{uri}`"))
    .note("a tool's app is the resource `ui://<tool>`, and a read names its resource by URI alone")
    .help(format!("give resource `{resource}` another URI"))
}
