//! Resources, prompts and completion (`TW5xx`): URIs and their templates,
//! arguments, contents and `@complete`.

use super::super::Diagnostic;
use super::Code;
use super::did_you_mean;
use crate::source::Span;

/// A resource without `uri`.
pub(crate) fn missing_uri(span: Span, resource: &str) -> Diagnostic {
    Diagnostic::error(
        Code::MissingUri,
        span,
        format!("resource `{resource}` has no `uri`"),
    )
    .label("uri missing")
    .note("a resource is read by its URI: a fixed one (`garden://regions`) or a template (`cas://objects/{hash}`)")
    .help("add `uri \"scheme://...\"` to its body")
}

/// A `uri` that is not a URI or a template (TW502), or a template
/// Toolwright does not support (TW505). `problem` is the template error's
/// sentence.
pub(crate) fn invalid_uri(
    span: Span,
    supported: bool,
    problem: &str,
    label: &str,
    help: Option<String>,
) -> Diagnostic {
    let (code, headline) = if supported {
        (Code::InvalidUri, "invalid `uri`")
    } else {
        (Code::UnsupportedTemplate, "unsupported URI template")
    };
    let note = if supported {
        "a `uri` is a URI with a scheme (`garden://regions`), or an RFC 6570 template of one (`cas://objects/{hash}`)"
    } else {
        "Toolwright reads a URI back into its template's variables, so a template uses each \
         variable once and whole, shows where each value ends, and uses the operators \
         `+ # . / ; ? &` or none"
    };
    Diagnostic::error(code, span, format!("{headline}: {problem}"))
        .label(label.to_owned())
        .note(note)
        .help_opt(help)
}

/// A template variable that no field of `arguments` receives.
pub(crate) fn unbound_variable(
    span: Span,
    variable: &str,
    resource: &str,
    field: &str,
    arguments: Option<Span>,
) -> Diagnostic {
    let d = Diagnostic::error(
        Code::UnboundVariable,
        span,
        format!("template variable `{variable}` of resource `{resource}` is not one of its arguments"),
    )
    .label("no field receives it")
    .note("a read's URI is taken apart into the template's variables, each a field of the resource's `arguments`, which the handler receives");
    match arguments {
        Some(at) => d
            .with_secondary(at, "the arguments")
            .help(format!("add the field `{field}` to `arguments`")),
        None => d.help(format!("declare it: `arguments {{ {field} }}`")),
    }
}

/// A field of a resource's arguments that its template does not use.
pub(crate) fn unused_argument(span: Span, field: &str, resource: &str, uri: Span) -> Diagnostic {
    Diagnostic::error(
        Code::UnusedArgument,
        span,
        format!("argument `{field}` of resource `{resource}` is not a variable of its URI"),
    )
    .label("not in the URI")
    .with_secondary(uri, "the URI")
    .note("a resource's arguments are its template's variables: a read has nothing else to fill them from")
    .help(format!(
        "use it in the URI (`{{{field}}}`, or `{{?{field}}}` for a query parameter), or remove the field"
    ))
}

/// `arguments` on a resource whose URI is not a template.
pub(crate) fn arguments_on_fixed_uri(span: Span, resource: &str, uri: Span) -> Diagnostic {
    Diagnostic::error(
        Code::UnusedArgument,
        span,
        format!("resource `{resource}` has a fixed URI, so it takes no arguments"),
    )
    .label("nothing fills these")
    .with_secondary(uri, "no `{…}` in the URI")
    .note("a URI without expressions names one resource; a template's variables are its arguments")
    .help("remove `arguments`, or make the URI a template: `scheme://items/{id}`")
}

/// A template variable or prompt argument of a type it cannot have.
pub(crate) fn argument_type(
    span: Span,
    headline: String,
    label: String,
    why: &str,
    help: String,
) -> Diagnostic {
    Diagnostic::error(Code::ArgumentType, span, headline)
        .label(label)
        .note(why.to_owned())
        .help(help)
}

/// Two resources whose URIs can match one URI.
pub(crate) fn overlapping_resources(
    span: Span,
    resource: &str,
    other: &str,
    other_span: Span,
    witness: &str,
) -> Diagnostic {
    Diagnostic::error(
        Code::OverlappingResources,
        span,
        format!("resources `{other}` and `{resource}` can both be read as `{witness}`"),
    )
    .label(format!("matches `{witness}`"))
    .with_secondary(other_span, format!("`{other}` matches it too"))
    .note("a read names its resource by URI alone, so one URI must not match two resources")
    .help("tell them apart with a literal, such as a path segment of their own")
}

/// `contents` that is not `text`, `bytes` or a type name.
pub(crate) fn invalid_contents(span: Span, found: &str, suggestion: Option<&str>) -> Diagnostic {
    Diagnostic::error(
        Code::InvalidContents,
        span,
        format!("`{found}` is not a kind of resource contents"),
    )
    .label("not `text`, `bytes` or a type")
    .note("a read returns `text` (a string), `bytes` (a blob, base64 in JSON) or a value of a declared type, sent as its JSON")
    .help_opt(did_you_mean(suggestion))
}

/// A `mime` that is not `type/subtype[; name=value…]`.
pub(crate) fn invalid_mime(span: Span, mime: &str, problem: &str) -> Diagnostic {
    Diagnostic::error(
        Code::InvalidContents,
        span,
        format!("`{mime}` is not a MIME type: {problem}"),
    )
    .label("not `type/subtype`")
    .note("a MIME type (RFC 6838) is `type/subtype`, each a token, then any parameters: `text/markdown; charset=utf-8`")
    .help("write the media type a client should expect, such as `text/markdown` or `image/png`")
}

/// `@complete` where no completion applies; `problem` says why.
pub(crate) fn complete_target(span: Span, problem: &str, help: &str) -> Diagnostic {
    Diagnostic::error(
        Code::CompleteTarget,
        span,
        format!("`@complete` {problem}"),
    )
    .label("nothing to complete here")
    .note("`@complete` says a handler completes an argument as a user types it: a `string` or integer field of a resource's or prompt's `arguments`")
    .help(help.to_owned())
}

/// `@size` on a resource whose URI is a template.
pub(crate) fn size_on_template(span: Span, resource: &str) -> Diagnostic {
    Diagnostic::error(
        Code::AttributeTarget,
        span,
        format!("`@size` cannot be used on resource `{resource}`, whose URI is a template"),
    )
    .label("one size for many resources")
    .note("`@size` is the size of one resource, known before it is read: a template names many")
    .help("drop `@size`; the contents of each read carry their own length")
}
