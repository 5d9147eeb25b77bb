//! Prompts: their clauses, and arguments MCP can send (strings).

use super::attrs::{self, Target};
use super::clauses::Clauses;
use super::resources::arguments_and_errors;
use super::symbols::{EntryItem, Symbols};
use crate::diag::{Ctxt, messages};
use crate::model::{Primitive, Prompt, Type, TypeDef, TypeKind};
use crate::source::Sources;
use crate::syntax::ast::EntryKind;

/// Checks every prompt and builds its model.
pub(crate) fn lower(
    symbols: &Symbols<'_>,
    types: &[TypeDef],
    sources: &Sources,
    cx: &mut Ctxt,
) -> Vec<Prompt> {
    symbols
        .entries
        .iter()
        .filter(|item| item.entry.kind == EntryKind::Prompt)
        .map(|item| lower_prompt(symbols, types, sources, cx, item))
        .collect()
}

/// Checks one prompt and builds its model.
/// `prompt p { arguments { n: u32 } }` → TW506.
fn lower_prompt(
    symbols: &Symbols<'_>,
    types: &[TypeDef],
    sources: &Sources,
    cx: &mut Ctxt,
    item: &EntryItem<'_>,
) -> Prompt {
    let entry = item.entry;
    let name = &entry.name.name;
    let attrs = attrs::lower(cx, &entry.meta.attrs, Target::Prompt);
    let clauses = Clauses::gather(cx, &entry.clauses, false);
    let (arguments, errors) = arguments_and_errors(symbols, cx, &clauses, "getting it");
    let arguments = arguments.map(|(_, id)| id);
    if let Some(TypeKind::Struct(fields)) = arguments.map(|id| &types[id.index()].kind) {
        for field in fields {
            let fits = match field.ty.strip_optional() {
                Type::Primitive(p) => *p == Primitive::String,
                Type::Named(r) => matches!(types[r.id.index()].kind, TypeKind::Enum(_)),
                _ => false,
            };
            if !fits {
                let ty = field.ty.strip_optional().idl();
                cx.push(messages::argument_type(
                    sources.name_span(field.location),
                    format!("argument `{}` of prompt `{name}` is a `{ty}`", field.name),
                    format!("a `{ty}`"),
                    "MCP sends a prompt's arguments as strings, so each is a `string` or an `enum`",
                    "make it a `string` (and parse it in the handler) or an `enum`".to_owned(),
                ));
            }
        }
    }
    Prompt {
        name: name.clone(),
        category: item.category.clone(),
        docs: entry.meta.docs.as_ref().map(|d| d.text.clone()),
        title: clauses.title.map(str::to_owned),
        arguments,
        errors,
        scopes: super::scopes::effective(
            attrs.scopes.as_deref(),
            item.category_scopes.as_deref(),
            sources,
        ),
        deprecated: attrs.deprecated,
        location: sources.location(entry.name.span),
    }
}
