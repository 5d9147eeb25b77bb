//! What the cursor is on, and where else it is: hover, go to definition,
//! find references and rename, for the names of a checked catalogue.
//!
//! Type names are PascalCase and every other name snake_case (TW103), so an
//! identifier token spelled like a declared type is a use of that type: the
//! token stream of each file is all the index references need.

use std::fmt::Write as _;

use crate::diag::Ctxt;
use crate::lang::{python, rust, typescript};
use crate::model::{
    Completion, Contents, Field, Model, Prompt, Resource, Tool, ToolKind, TypeDef, TypeId, TypeKind,
};
use crate::source::{FileId, Location, Sources, Span};
use crate::syntax::lexer::lex_with_comments;
use crate::syntax::token::{Token, TokenKind};

use super::workspace::Analysis;

/// The identifier tokens of one file.
pub(crate) fn identifiers(sources: &Sources, file: FileId) -> Vec<(String, Span)> {
    let mut cx = Ctxt::new();
    let (tokens, _) = lex_with_comments(file, sources.get(file).text(), false, &mut cx);
    // Lexical errors are already among the catalogue's diagnostics.
    let _ = cx.gate();
    tokens
        .into_iter()
        .filter_map(|Token { kind, start, end }| match kind {
            TokenKind::Ident(name) => Some((name, Span::new(file, start, end))),
            _ => None,
        })
        .collect()
}

/// The identifier at a byte offset (touching it from either side).
pub(crate) fn identifier_at(
    sources: &Sources,
    file: FileId,
    offset: usize,
) -> Option<(String, Span)> {
    identifiers(sources, file)
        .into_iter()
        .find(|(_, span)| (span.start as usize..=span.end as usize).contains(&offset))
}

/// A declared type named `name`, if the cursor's identifier is one.
pub(crate) fn declared_type<'m>(model: &'m Model, name: &str) -> Option<&'m TypeDef> {
    model
        .type_named(name)
        .filter(|t| matches!(t.origin, crate::model::Origin::Declared))
}

/// Every use of a type name across the catalogue's own files, its
/// declaration included.
pub(crate) fn references(analysis: &Analysis, name: &str) -> Vec<Span> {
    let mut spans = Vec::new();
    for (file, source) in analysis.sources.iter() {
        if source.is_builtin() {
            continue;
        }
        spans.extend(
            identifiers(&analysis.sources, file)
                .into_iter()
                .filter(|(ident, _)| ident == name)
                .map(|(_, span)| span),
        );
    }
    spans
}

/// Markdown for what the cursor is on: a type, tool, action, resource,
/// prompt, field, variant or enum value, with its docs and the names the
/// generators give it.
pub(crate) fn hover(analysis: &Analysis, ident: &str, span: Span) -> Option<String> {
    let model = analysis.model.as_ref()?;
    let at = analysis.sources.location(span);
    if let Some(def) = declared_type(model, ident) {
        return Some(type_hover(def));
    }
    if let Some(def) = model.types.iter().find(|t| t.name == ident) {
        return Some(type_hover(def));
    }
    for tool in &model.tools {
        if tool.name == ident && same_place(tool.location, at) {
            return Some(tool_hover(model, tool));
        }
        if let ToolKind::Actions(actions) = &tool.kind
            && let Some(action) = actions
                .iter()
                .find(|a| a.name == ident && same_place(a.location, at))
        {
            let mut out = format!(
                "```tool\naction {}.{} ({})\n```\n",
                tool.name,
                action.name,
                action.endpoint.timing.as_str()
            );
            docs(&mut out, action.docs.as_deref());
            return Some(out);
        }
    }
    if let Some(resource) = model
        .resources
        .iter()
        .find(|r| r.name == ident && same_place(r.location, at))
    {
        return Some(resource_hover(model, resource));
    }
    if let Some(prompt) = model
        .prompts
        .iter()
        .find(|p| p.name == ident && same_place(p.location, at))
    {
        return Some(prompt_hover(model, prompt));
    }
    for def in &model.types {
        for field in def.kind.fields() {
            if field.name == ident && same_place(field.location, at) {
                return Some(field_hover(def, field));
            }
        }
        let values: Vec<(&str, Option<&str>, Location, Option<&str>)> = match &def.kind {
            TypeKind::Enum(values) => values
                .iter()
                .map(|v| (v.name.as_str(), v.docs.as_deref(), v.location, None))
                .collect(),
            TypeKind::Union(variants) | TypeKind::Error(variants) => variants
                .iter()
                .map(|v| {
                    (
                        v.name.as_str(),
                        v.docs.as_deref(),
                        v.location,
                        v.code.as_deref(),
                    )
                })
                .collect(),
            TypeKind::Struct(_) => Vec::new(),
        };
        for (name, text, location, code) in values {
            if name == ident && same_place(location, at) {
                let mut out = format!("```tool\n{}.{name}\n```\n", def.name);
                if let Some(code) = code {
                    let _ = writeln!(out, "Error code `{code}`.\n");
                }
                docs(&mut out, text);
                let _ = write!(
                    out,
                    "\nRust `{}::{}`",
                    def.name,
                    rust::names::variant(name).ident
                );
                return Some(out);
            }
        }
    }
    None
}

fn same_place(a: Location, b: Location) -> bool {
    a.file == b.file && a.line == b.line && a.column == b.column
}

fn docs(out: &mut String, docs: Option<&str>) {
    if let Some(docs) = docs {
        let _ = writeln!(out, "{docs}\n");
    }
}

fn type_hover(def: &TypeDef) -> String {
    let kind = match def.kind {
        TypeKind::Struct(_) => "struct",
        TypeKind::Enum(_) => "enum",
        TypeKind::Union(_) => "union",
        TypeKind::Error(_) => "error",
    };
    let mut out = format!("```tool\n{kind} {}\n```\n", def.name);
    docs(&mut out, def.docs.as_deref());
    if let Some(d) = &def.deprecated {
        let _ = writeln!(
            out,
            "**Deprecated**{}\n",
            d.reason
                .as_deref()
                .map_or_else(String::new, |r| format!(": {r}"))
        );
    }
    let _ = write!(
        out,
        "Generated as Rust `{}`, TypeScript `{}`, Python `{}`",
        rust::names::type_ident(&def.name),
        typescript::names::type_name(&def.name),
        python::names::class(&def.name)
    );
    out
}

fn tool_hover(model: &Model, tool: &Tool) -> String {
    let mut out = format!("```tool\ntool {}\n```\n", tool.name);
    docs(&mut out, tool.docs.as_deref());
    if let ToolKind::Single(endpoint) = &tool.kind {
        let _ = writeln!(out, "Timing `{}`.\n", endpoint.timing.as_str());
        let name = |id: Option<crate::model::TypeId>| id.map(|id| model.type_def(id).name.clone());
        if let Some(request) = name(endpoint.request) {
            let _ = writeln!(out, "Request `{request}`.");
        }
        if let Some(response) = name(endpoint.response) {
            let _ = writeln!(out, "Response `{response}`.");
        }
    }
    let _ = write!(
        out,
        "\nRust `ToolRequest::{}`",
        rust::names::pascal(&tool.name)
    );
    out
}

fn resource_hover(model: &Model, resource: &Resource) -> String {
    let mut out = format!("```tool\nresource {}\n```\n", resource.name);
    docs(&mut out, resource.docs.as_deref());
    let what = if resource.template {
        "a template"
    } else {
        "a fixed URI"
    };
    let _ = writeln!(out, "URI `{}` ({what}).\n", resource.uri);
    let contents = match resource.contents {
        Contents::Text => "text".to_owned(),
        Contents::Bytes => "bytes".to_owned(),
        Contents::Typed(id) => format!("`{}`", model.type_def(id).name),
    };
    let _ = writeln!(out, "Reads {contents} as `{}`.", resource.mime);
    entry_types(&mut out, model, resource.arguments, resource.errors);
    out
}

fn prompt_hover(model: &Model, prompt: &Prompt) -> String {
    let mut out = format!("```tool\nprompt {}\n```\n", prompt.name);
    docs(&mut out, prompt.docs.as_deref());
    entry_types(&mut out, model, prompt.arguments, prompt.errors);
    out
}

/// The arguments and errors of a resource or prompt, with how each
/// argument completes.
fn entry_types(out: &mut String, model: &Model, arguments: Option<TypeId>, errors: Option<TypeId>) {
    if let Some(id) = arguments {
        let _ = writeln!(out, "Arguments `{}`.", model.type_def(id).name);
        for (field, completion) in model.completions(arguments) {
            let from = match completion {
                Completion::Enum(_) => "completes from its values",
                Completion::Handler => "completed by the handler",
                Completion::None => continue,
            };
            let _ = writeln!(out, "- `{}` {from}", field.name);
        }
    }
    if let Some(id) = errors {
        let _ = writeln!(out, "Errors `{}`.", model.type_def(id).name);
    }
}

fn field_hover(owner: &TypeDef, field: &Field) -> String {
    let mut out = format!(
        "```tool\n{}.{}: {}\n```\n",
        owner.name,
        field.name,
        field.ty.idl()
    );
    docs(&mut out, field.docs.as_deref());
    let c = &field.constraints;
    if let Some((lo, hi)) = c.range {
        let _ = writeln!(out, "`@range({lo}, {hi})`");
    }
    if let Some((lo, hi)) = c.length {
        let _ = writeln!(out, "`@length({lo}, {hi})`");
    }
    if let Some(p) = &c.pattern {
        let _ = writeln!(out, "`@pattern({p:?})`");
    }
    let _ = write!(
        out,
        "\nRust `{}`, Python `{}`",
        rust::names::field(&field.name).ident,
        python::names::attribute(&field.name)
    );
    out
}

/// Why a new type name cannot be used, if it cannot.
pub(crate) fn rename_problem(model: &Model, new_name: &str) -> Option<String> {
    let pascal = new_name.starts_with(|c: char| c.is_ascii_uppercase())
        && new_name.chars().all(|c| c.is_ascii_alphanumeric());
    if !pascal {
        return Some(format!(
            "`{new_name}` is not a type name: PascalCase, letters and digits"
        ));
    }
    if model.type_named(new_name).is_some() {
        return Some(format!("a type named `{new_name}` exists already"));
    }
    if crate::syntax::keywords::RESERVED_TYPES.contains(&new_name)
        || crate::model::Primitive::from_name(new_name).is_some()
    {
        return Some(format!("`{new_name}` is reserved"));
    }
    None
}
