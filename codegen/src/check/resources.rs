//! Resources: their clauses, what a read returns (`contents`, `mime`), the
//! URI and its arguments (`uri.rs`), and the attributes of MCP annotations
//! and caching.

use super::attrs::{self, Target};
use super::clauses::Clauses;
use super::names;
use super::symbols::{EntryItem, Kind, Symbols};
use super::{tools, uri};
use crate::diag::{Ctxt, messages};
use crate::model::{Cache, CacheScope, Contents, Resource, TypeDef, TypeId};
use crate::source::{Sources, Span};
use crate::suggest;
use crate::syntax::ast::{EntryKind, Ident, Quoted};
use crate::syntax::keywords;

/// Checks every resource and builds its model; then the resources whose
/// URIs overlap (TW507).
pub(crate) fn lower(
    symbols: &Symbols<'_>,
    types: &[TypeDef],
    sources: &Sources,
    cx: &mut Ctxt,
) -> Vec<Resource> {
    let mut parsed = Vec::new();
    let resources = symbols
        .entries
        .iter()
        .filter(|item| item.entry.kind == EntryKind::Resource)
        .filter_map(|item| lower_resource(symbols, types, sources, cx, item, &mut parsed))
        .collect();
    uri::overlaps(cx, &parsed);
    resources
}

/// Checks one resource and builds its model; adds its parsed URI to
/// `parsed`. `resource r { contents bytes }` → TW501.
fn lower_resource<'a>(
    symbols: &Symbols<'_>,
    types: &[TypeDef],
    sources: &Sources,
    cx: &mut Ctxt,
    item: &'a EntryItem<'_>,
    parsed: &mut Vec<uri::Parsed<'a>>,
) -> Option<Resource> {
    let entry = item.entry;
    let name = &entry.name.name;
    let attrs = attrs::lower(cx, &entry.meta.attrs, Target::Resource);
    let clauses = Clauses::gather(cx, &entry.clauses, false);
    let (arguments, errors) = arguments_and_errors(symbols, cx, &clauses, "a read");
    let contents = contents(symbols, cx, clauses.contents);
    // `None` when it is not a MIME type (reported), or the contents are
    // not known.
    let mime = match clauses.mime {
        Some(written) => mime(cx, written),
        None => contents.map(|c| c.default_mime().to_owned()),
    };
    let scopes = attrs.scopes.as_deref().or(item.category_scopes.as_deref());
    let cache = attrs.cache.map(|(span, ttl_ms, scope)| Cache {
        ttl_ms,
        scope: cache_scope(cx, span, scope, scopes),
    });
    let Some(uri) = clauses.uri else {
        // One that did not parse was reported already.
        if !clauses.invalid.contains(&keywords::URI) {
            cx.push(messages::missing_uri(entry.name.span, name));
        }
        return None;
    };
    let template = uri::parse(cx, uri)?;
    uri::bind(
        cx,
        symbols,
        types,
        sources,
        name,
        (uri, &template),
        arguments,
    );
    if let Some((span, _)) = attrs.size
        && template.is_template()
    {
        cx.push(messages::size_on_template(span, name));
    }
    let is_template = template.is_template();
    let variables = template.variables().map(|(v, _)| v.to_owned()).collect();
    // Its URI is compared with the others' even when it fails otherwise.
    parsed.push(uri::Parsed {
        resource: name,
        template,
        span: uri.span,
    });
    Some(Resource {
        name: name.clone(),
        category: item.category.clone(),
        docs: entry.meta.docs.as_ref().map(|d| d.text.clone()),
        title: clauses.title.map(str::to_owned),
        uri: uri.value.clone(),
        template: is_template,
        variables,
        mime: mime?,
        contents: contents?,
        arguments: arguments.map(|(_, id)| id),
        errors,
        subscribable: attrs.subscribable,
        audience: attrs.audience,
        priority: attrs.priority,
        size: attrs.size.map(|(_, size)| size),
        cache,
        scopes: super::scopes::effective(attrs.scopes.as_deref(), scopes, sources),
        deprecated: attrs.deprecated,
        location: sources.location(entry.name.span),
    })
}

/// The `arguments` (with the clause's span) and `errors` of a resource or
/// prompt; `what` fails with the errors ("a read").
/// `arguments Key` where `Key` is an enum → TW106.
pub(super) fn arguments_and_errors(
    symbols: &Symbols<'_>,
    cx: &mut Ctxt,
    clauses: &Clauses<'_>,
    what: &str,
) -> (Option<(Span, TypeId)>, Option<TypeId>) {
    let arguments = clauses.arguments.and_then(|(span, shape)| {
        let why = "MCP sends arguments as an object of named values, so `arguments` is a struct";
        tools::shape_type(symbols, cx, shape, why).map(|id| (span, id))
    });
    let errors = clauses.errors.and_then(|e| {
        tools::reference(
            symbols,
            cx,
            e,
            &[Kind::Error],
            "an error type",
            &format!("`errors` names the `error` type whose variants {what} fails with"),
        )
    });
    (arguments, errors)
}

/// What `contents` names: `text` when not written.
/// `contents string` → TW508 with "did you mean `text`?".
fn contents(symbols: &Symbols<'_>, cx: &mut Ctxt, ident: Option<&Ident>) -> Option<Contents> {
    let Some(ident) = ident else {
        return Some(Contents::Text);
    };
    match ident.name.as_str() {
        keywords::TEXT => Some(Contents::Text),
        keywords::BYTES => Some(Contents::Bytes),
        name if names::is_pascal(name) => tools::reference(
            symbols,
            cx,
            ident,
            &[Kind::Struct, Kind::Enum, Kind::Union],
            "a struct, enum or union",
            "`contents` names the type of what a read returns, sent as its JSON; \
             what a read fails with is its `errors`",
        )
        .map(Contents::Typed),
        name => {
            let suggestion = match name {
                "string" | "str" => Some(keywords::TEXT),
                "blob" | "binary" => Some(keywords::BYTES),
                _ => suggest::closest(name, [keywords::TEXT, keywords::BYTES]),
            };
            cx.push(messages::invalid_contents(ident.span, name, suggestion));
            None
        }
    }
}

/// The `mime` written, if it is a MIME type.
/// `mime "markdown"` → TW508.
fn mime(cx: &mut Ctxt, mime: &Quoted) -> Option<String> {
    match mime_problem(&mime.value) {
        None => Some(mime.value.clone()),
        Some(problem) => {
            cx.push(messages::invalid_mime(mime.span, &mime.value, problem));
            None
        }
    }
}

/// Why `text` is not `type/subtype` followed by `; name=value` parameters
/// (RFC 6838 names, RFC 9110 tokens and quoted values), if it is not.
pub(crate) fn mime_problem(text: &str) -> Option<&'static str> {
    let token = |s: &str| !s.is_empty() && s.chars().all(super::header::tchar);
    let (essence, mut params) = text.split_once(';').unwrap_or((text, ""));
    let Some((ty, subtype)) = essence.trim_end().split_once('/') else {
        return Some("it has no `/` between the type and the subtype");
    };
    if !token(ty) {
        return Some("the type is not a token (letters, digits and `!#$&-^_.+`)");
    }
    if !token(subtype) {
        return Some("the subtype is not a token (letters, digits and `!#$&-^_.+`)");
    }
    while !params.is_empty() {
        let (name, rest) = params
            .trim_start()
            .split_once('=')
            .unwrap_or((params.trim_start(), ""));
        if !token(name) {
            return Some("a parameter is not `name=value`");
        }
        // A value is a token, or a quoted string (which may hold `;`).
        let end = if let Some(quoted) = rest.strip_prefix('"') {
            let mut escaped = false;
            let close = quoted.char_indices().find(|&(_, c)| {
                let closes = c == '"' && !escaped;
                escaped = c == '\\' && !escaped;
                closes
            });
            match close {
                Some((i, _)) => i + 2,
                None => return Some("a quoted parameter value is not closed"),
            }
        } else {
            rest.find(';').unwrap_or(rest.len())
        };
        let (value, after) = rest.split_at(end);
        if !value.starts_with('"') && !token(value.trim_end()) {
            return Some("a parameter has no value, or one that is not a token");
        }
        params = match after.trim_start().strip_prefix(';') {
            Some(next) => next,
            None if after.trim().is_empty() => "",
            None => return Some("parameters are separated by `;`"),
        };
    }
    None
}

/// The cache scope of `@cache`: as written, else `private` for a resource
/// that needs scopes (what it returns depends on who reads it) and
/// `public` otherwise. `public` on a resource that needs scopes → TW306.
fn cache_scope(
    cx: &mut Ctxt,
    span: Span,
    written: Option<CacheScope>,
    scopes: Option<&[(String, Span)]>,
) -> CacheScope {
    let needs = scopes.and_then(|s| s.first()).map(|(_, span)| *span);
    match (written, needs) {
        (Some(CacheScope::Public), Some(scope)) => {
            cx.push(messages::conflicting_attributes(
                span,
                "cache",
                "scopes",
                scope,
                "a public cache may hand what one reader was allowed to read to readers without the scope; a resource that needs scopes is cached `private`",
            ));
            CacheScope::Private
        }
        (Some(scope), _) => scope,
        (None, Some(_)) => CacheScope::Private,
        (None, None) => CacheScope::Public,
    }
}

#[cfg(test)]
mod tests {
    use super::mime_problem;
    use crate::diag::Code;
    use crate::model::{CacheScope, Completion, Contents, Model};
    use crate::{Sources, check};

    fn model(text: &str) -> Model {
        let mut sources = Sources::new();
        sources.add("cas.tool", text);
        check(&sources)
            .unwrap_or_else(|d| panic!("{}", d.render(&sources, crate::ColorChoice::Never)))
    }

    fn codes(text: &str) -> Vec<Code> {
        let mut sources = Sources::new();
        sources.add("cas.tool", text);
        check(&sources)
            .err()
            .map_or_else(Vec::new, |d| d.iter().map(|d| d.code).collect())
    }

    const STORE: &str = "@scopes(\"cas:read\") category cas;\n\
        resource cas_object { uri \"cas://objects/{hash}{?v}\" contents Blob errors CasError\n\
            arguments { @complete hash: string, v: Version? } }\n\
        @scopes() @cache(10) resource cas_about { uri \"cas://about\" }\n\
        prompt cas_help { arguments { topic: Topic, @complete about: string = \"\" } }\n\
        struct Blob { data: bytes }\nerror CasError { missing }\n\
        enum Version { v1, v2 }\nenum Topic { reading, writing }";

    #[test]
    fn arguments_are_requests_and_contents_and_errors_responses() {
        let m = model(STORE);
        let object = m.resource("cas_object").unwrap();
        let id = |name: &str| m.type_named(name).unwrap().id.index();
        assert_eq!(object.variables, ["hash", "v"]);
        assert!(object.template);
        assert_eq!(object.mime, "application/json");
        assert!(matches!(object.contents, Contents::Typed(_)));
        let (requests, responses, errors) =
            (m.request_types(), m.response_types(), m.error_types());
        for arguments in ["CasObjectArguments", "CasHelpArguments", "Version", "Topic"] {
            assert!(requests[id(arguments)], "{arguments}");
        }
        assert!(!requests[id("Blob")] && responses[id("Blob")]);
        assert!(responses[id("CasError")] && errors[id("CasError")]);
        assert!(!responses[id("CasObjectArguments")]);
    }

    #[test]
    fn scopes_and_the_cache_follow_the_category_default() {
        let m = model(STORE);
        assert_eq!(m.scopes(), ["cas:read"]);
        let scopes = |name: &str| m.resource(name).unwrap().scopes.len();
        assert_eq!((scopes("cas_object"), scopes("cas_about")), (1, 0));
        assert_eq!(m.prompt("cas_help").unwrap().scopes[0].name, "cas:read");
        // Public: it needs no scope.
        let cache = m.resource("cas_about").unwrap().cache.unwrap();
        assert_eq!((cache.ttl_ms, cache.scope), (10, CacheScope::Public));
        let private = model("@scopes(\"a\") @cache(5) resource r { uri \"r:x\" }");
        assert_eq!(
            private.resources[0].cache.unwrap().scope,
            CacheScope::Private,
            "a resource that needs scopes is cached privately"
        );
    }

    #[test]
    fn completions_come_from_enums_or_the_handler() {
        let m = model(STORE);
        let sources = |name: &str, arguments| {
            m.completions(arguments)
                .into_iter()
                .map(|(f, c)| (f.name.clone(), c))
                .collect::<Vec<_>>()
                .into_iter()
                .find(|(f, _)| f == name)
                .map(|(_, c)| c)
        };
        let object = m.resource("cas_object").unwrap().arguments;
        let help = m.prompt("cas_help").unwrap().arguments;
        assert_eq!(sources("hash", object), Some(Completion::Handler));
        assert_eq!(
            sources("v", object),
            Some(Completion::Enum(vec!["v1", "v2"]))
        );
        assert_eq!(
            sources("topic", help),
            Some(Completion::Enum(vec!["reading", "writing"]))
        );
        assert_eq!(sources("about", help), Some(Completion::Handler));
        assert!(m.completions(None).is_empty());
    }

    #[test]
    fn tools_resources_and_prompts_share_one_namespace() {
        assert_eq!(
            codes("tool cas { timing sync }\nresource cas { uri \"cas:x\" }"),
            [Code::Duplicate]
        );
        assert_eq!(
            codes("prompt cas_2 { }\nresource cas2 { uri \"cas:x\" }"),
            [Code::CaseCollision]
        );
        assert_eq!(
            codes(
                "prompt p { }\nstruct PArguments { }\nprompt q { arguments { } }\nstruct QArguments { }"
            ),
            [Code::Duplicate],
            "only an anonymous `arguments` generates its name"
        );
    }

    #[test]
    fn mime_types_are_type_slash_subtype_with_parameters() {
        for good in [
            "text/plain",
            "application/vnd.toolwright+json",
            "text/markdown; charset=utf-8",
            "text/plain;charset=utf-8;format=flowed",
            "multipart/mixed; boundary=\"a;b c\"",
        ] {
            assert_eq!(mime_problem(good), None, "{good}");
        }
        for bad in [
            "",
            "markdown",
            "text/",
            "/plain",
            "text plain/x",
            "text/plain; charset",
            "text/plain; =utf-8",
            "text/plain; charset=\"utf-8",
            "text/plain; a=b c",
            "téxt/plain",
        ] {
            assert!(mime_problem(bad).is_some(), "{bad:?}");
        }
    }
}
