//! A resource's `uri`: a fixed URI or an RFC 6570 template, read with
//! `toolwright_vocab::uri_template` (the runtime matches URIs with the
//! same code); its variables against the resource's `arguments`; and
//! resources whose URIs can match the same URI.

use heck::ToSnakeCase;
use toolwright_vocab::uri_template::{Operator, TemplateError, TemplateErrorKind, UriTemplate};

use super::symbols::Symbols;
use crate::diag::{Ctxt, messages};
use crate::model::{Field, Primitive, Type, TypeDef, TypeId, TypeKind};
use crate::source::{Sources, Span};
use crate::syntax::ast::Quoted;

/// Parses a `uri`. `uri "cas://{a}{b}"` → TW505; `uri "objects/{hash}"`
/// → TW502 (no scheme).
pub(super) fn parse(cx: &mut Ctxt, uri: &Quoted) -> Option<UriTemplate> {
    UriTemplate::parse(&uri.value)
        .map_err(|e| cx.push(invalid(uri, &e)))
        .ok()
}

/// TW502 or TW505, with a caret on the culprit when the literal has no
/// escapes.
fn invalid(uri: &Quoted, e: &TemplateError) -> crate::Diagnostic {
    let span = uri.span.in_literal(&uri.value, e.span());
    let (supported, label, help) = match &e.kind {
        TemplateErrorKind::NoScheme => (
            true,
            "no scheme",
            Some("name the scheme, as in `cas://objects/{hash}` or `garden:regions`".to_owned()),
        ),
        TemplateErrorKind::InvalidCharacter('%') => (true, "not a percent-escape", None),
        TemplateErrorKind::InvalidCharacter('#') => (true, "a second `#`", None),
        TemplateErrorKind::InvalidCharacter(_) => (true, "not a URI character", None),
        TemplateErrorKind::Unclosed => (true, "not closed", None),
        TemplateErrorKind::Unopened => (true, "not opened", None),
        TemplateErrorKind::Empty if e.len == 0 => (true, "empty", None),
        TemplateErrorKind::Empty => (
            true,
            "no variable",
            Some("name the variable: `{name}`".to_owned()),
        ),
        TemplateErrorKind::InvalidVariableName(name) => (
            true,
            "not snake_case",
            Some(format!(
                "a variable is a field of `arguments`, so it is spelt like one: `{}`",
                name.to_snake_case()
            )),
        ),
        TemplateErrorKind::Modifier(':') => (
            false,
            "a prefix modifier",
            Some(
                "use the whole value (`{hash}`); `@length` on its field bounds its length"
                    .to_owned(),
            ),
        ),
        TemplateErrorKind::Modifier(_) => (
            false,
            "a modifier",
            Some("a variable is one value: `{name}`".to_owned()),
        ),
        TemplateErrorKind::ReservedOperator(_) => (
            false,
            "a reserved operator",
            Some("use one of the operators `+ # . / ; ? &`, or none".to_owned()),
        ),
        TemplateErrorKind::RepeatedVariable(_) => (
            false,
            "used again here",
            Some(
                "use each variable once; a handler that needs it twice has it in its arguments"
                    .to_owned(),
            ),
        ),
        TemplateErrorKind::AdjacentExpressions => (false, "no literal between them", None),
    };
    messages::invalid_uri(span, supported, &e.to_string(), label, help)
}

/// Checks a resource's template against its `arguments`: each variable a
/// field of a type a URI can carry, each field a variable; a fixed URI
/// takes none. `uri "cas://objects/{hash}"` without a `hash` field →
/// TW503; a field the template does not use → TW504; `hash: f64` → TW506.
pub(super) fn bind(
    cx: &mut Ctxt,
    symbols: &Symbols<'_>,
    types: &[TypeDef],
    sources: &Sources,
    resource: &str,
    (uri, template): (&Quoted, &UriTemplate),
    arguments: Option<(Span, TypeId)>,
) {
    if !template.is_template() {
        if let Some((clause, _)) = arguments {
            cx.push(messages::arguments_on_fixed_uri(clause, resource, uri.span));
        }
        return;
    }
    let fields: &[Field] = match arguments.map(|(_, id)| &types[id.index()].kind) {
        Some(TypeKind::Struct(fields)) => fields,
        _ => &[],
    };
    // A field whose type did not resolve is not in the model; its error is
    // reported already.
    let written = arguments.map_or(&[][..], |(_, id)| symbols.struct_fields(id));
    for (variable, operator) in template.variables() {
        let in_query = matches!(operator, Operator::Query | Operator::QueryContinuation);
        let Some(field) = fields.iter().find(|f| f.name == variable) else {
            if written.iter().any(|f| f.name.name == variable) {
                continue;
            }
            let expression = template.variable_span(variable).unwrap_or(0..0);
            let optional = if in_query { "?" } else { "" };
            cx.push(messages::unbound_variable(
                uri.span.in_literal(&uri.value, expression),
                variable,
                resource,
                &format!("{variable}: string{optional}"),
                arguments.map(|(clause, _)| clause),
            ));
            continue;
        };
        let span = sources.name_span(field.location);
        if !carried_by_uri(types, &field.ty) {
            let ty = field.ty.strip_optional().idl();
            cx.push(messages::argument_type(
                span,
                format!("template variable `{variable}` of resource `{resource}` is a `{ty}`"),
                format!("a `{ty}`"),
                "a URI is text: a variable is read back from it as a `string`, an integer or an `enum` value",
                "make it a `string` (and parse it in the handler), an integer or an `enum`".to_owned(),
            ));
        } else if !field.required && !in_query {
            cx.push(messages::argument_type(
                span,
                format!(
                    "template variable `{variable}` of resource `{resource}` is optional, but not a query parameter"
                ),
                "optional".to_owned(),
                "a URI without one of its path variables is another URI: only the variables of `{?…}` and `{&…}` may be left out",
                format!(
                    "make it required (no `?`, no default), or read it from the query: `{{?{variable}}}`"
                ),
            ));
        }
    }
    for field in fields {
        if !template.variables().any(|(v, _)| v == field.name) {
            let span = sources.name_span(field.location);
            cx.push(messages::unused_argument(
                span,
                &field.name,
                resource,
                uri.span,
            ));
        }
    }
}

/// True for what a URI can carry: a string, an integer or an enum value.
fn carried_by_uri(types: &[TypeDef], ty: &Type) -> bool {
    match ty.strip_optional() {
        Type::Primitive(p) => *p == Primitive::String || p.int_bounds().is_some(),
        Type::Named(r) => matches!(types[r.id.index()].kind, TypeKind::Enum(_)),
        _ => false,
    }
}

/// A resource's parsed URI, for [`overlaps`].
pub(super) struct Parsed<'a> {
    pub(super) resource: &'a str,
    pub(super) template: UriTemplate,
    pub(super) span: Span,
}

/// TW507 for every two resources that can be read with the same URI,
/// reported on the later one with a URI both match.
/// `uri "file:///{+path}"` beside `uri "file:///readme.md"` → TW507.
pub(super) fn overlaps(cx: &mut Ctxt, parsed: &[Parsed<'_>]) {
    let scheme = |t: &UriTemplate| t.as_str().split(':').next().unwrap_or_default().to_owned();
    let schemes: Vec<String> = parsed.iter().map(|p| scheme(&p.template)).collect();
    for (j, later) in parsed.iter().enumerate() {
        for (i, earlier) in parsed[..j].iter().enumerate() {
            // URIs of different schemes never match one URI: skip the
            // automata.
            if schemes[i] != schemes[j] {
                continue;
            }
            if let Some(witness) = earlier.template.overlap(&later.template) {
                cx.push(messages::overlapping_resources(
                    later.span,
                    later.resource,
                    earlier.resource,
                    earlier.span,
                    &witness,
                ));
            }
        }
    }
}
