//! Pairs the `#[tool]` methods with the catalogue's tools: one answer per
//! tool, in declaration order, and an error for every method that binds no
//! tool, a second handler, a handler for a job tool, every name in
//! `not_implemented(...)` that is no tool, a job tool, a bound tool or
//! there twice, and every tool left without a handler.

use std::collections::{HashMap, HashSet};

use proc_macro2::Span;
use syn::ext::IdentExt;

use crate::catalogue::{Catalogue, ToolEntry};
use crate::diag::Errors;
use crate::handlers::Marked;
use crate::messages;
use crate::options::NotImplemented;
use crate::signature::{self, Handler};
use crate::suggest;

/// How many tools without a handler get an error each; the rest share one.
const MISSING_LISTED: usize = 5;

/// How a tool is answered.
pub(crate) enum Answer {
    /// By the user's handler.
    Handler(Box<Handler>),
    /// With `NOT_IMPLEMENTED` (opted into for every unbound tool or for
    /// this one, or after an error already shown).
    NotImplemented,
    /// By the dispatcher: a job tool.
    Builtin,
}

/// The answer for each tool of `catalogue`, in its order. Errors about
/// handlers point at them, errors about the names in `not_implemented(...)`
/// at those names, and errors about missing handlers at `self_ty`.
pub(crate) fn resolve<'a>(
    catalogue: &'a Catalogue,
    marked: &[Marked],
    not_implemented: Option<&NotImplemented>,
    self_ty: Span,
    errors: &mut Errors,
) -> Vec<(&'a ToolEntry, Answer)> {
    let by_name: HashMap<&str, usize> = catalogue
        .tools
        .iter()
        .enumerate()
        .map(|(index, tool)| (tool.name.as_str(), index))
        .collect();
    // The method bound to each tool, and whether its signature passed.
    let mut bound: Vec<Option<(&Marked, Option<Handler>)>> =
        catalogue.tools.iter().map(|_| None).collect();
    // Tools offered as "did you mean": fixing the typo binds them, so they
    // are not reported as missing too.
    let mut suggested = Vec::new();

    for method in marked {
        let Some(&index) = by_name.get(method.tool.as_str()) else {
            let bindable = catalogue.tools.iter().filter(|t| !t.builtin);
            let close = suggest::closest(&method.tool, bindable.map(|t| t.name.as_str()));
            errors.at(method.span, messages::unknown_tool(&method.tool, close));
            suggested.extend(close);
            continue;
        };
        let tool = &catalogue.tools[index];
        if tool.builtin {
            errors.at(method.span, messages::builtin_handler(tool));
        } else if let Some((first, _)) = &bound[index] {
            let (first, second) = (first.sig.ident.to_string(), method.sig.ident.to_string());
            let message = messages::duplicate_handler(&tool.name, &first, &second);
            errors.at(method.span, message);
        } else {
            bound[index] = Some((method, signature::check(method, tool, errors)));
        }
    }

    let every_unbound = matches!(not_implemented, Some(NotImplemented::All(_)));
    let (in_list, list_names) = match not_implemented {
        Some(NotImplemented::Listed { tools, .. }) => {
            let names: Vec<_> = tools.iter().collect();
            check_listed(catalogue, &by_name, &bound, &names, &mut suggested, errors)
        }
        _ => (vec![false; catalogue.tools.len()], Vec::new()),
    };

    let mut missing = Vec::new();
    let answers = catalogue
        .tools
        .iter()
        .zip(bound)
        .zip(in_list)
        .map(|((tool, bound), in_list)| {
            let answer = match bound {
                _ if tool.builtin => Answer::Builtin,
                Some((_, Some(handler))) => Answer::Handler(Box::new(handler)),
                // The signature's errors are shown already.
                Some((_, None)) => Answer::NotImplemented,
                None => {
                    if !every_unbound && !in_list && !suggested.contains(&tool.name.as_str()) {
                        missing.push(tool);
                    }
                    Answer::NotImplemented
                }
            };
            (tool, answer)
        })
        .collect();

    // A catalogue of hundreds of tools bound by an empty block should not
    // print hundreds of errors: the first few, then one that lists the rest.
    let listed = if missing.len() > MISSING_LISTED + 1 {
        MISSING_LISTED
    } else {
        missing.len()
    };
    for tool in &missing[..listed] {
        errors.at(self_ty, messages::missing_handler(tool, &list_names));
    }
    if listed < missing.len() {
        let rest: Vec<&str> = missing[listed..].iter().map(|t| t.name.as_str()).collect();
        errors.at(self_ty, messages::more_missing(&rest));
    }
    answers
}

/// Checks the names of `not_implemented(...)`: which tools they list (by
/// index), and those tools' names in the order written, for the hint of a
/// missing handler. A name that is no tool, a job tool, a tool with a
/// handler, or a name written twice is an error at that name; the tool a
/// misspelt name resembles joins `suggested`, so that it is not reported
/// missing as well.
fn check_listed<'a>(
    catalogue: &'a Catalogue,
    by_name: &HashMap<&str, usize>,
    bound: &[Option<(&Marked, Option<Handler>)>],
    names: &[&syn::Ident],
    suggested: &mut Vec<&'a str>,
    errors: &mut Errors,
) -> (Vec<bool>, Vec<&'a str>) {
    let mut listed = vec![false; catalogue.tools.len()];
    let mut listed_names = Vec::new();
    let written: HashSet<String> = names.iter().map(|n| n.unraw().to_string()).collect();
    let mut seen = HashSet::new();
    for ident in names {
        let name = ident.unraw().to_string();
        if !seen.insert(name.clone()) {
            errors.at(ident.span(), messages::listed_twice(&name));
            continue;
        }
        let Some(&index) = by_name.get(name.as_str()) else {
            // Only a tool that could be listed is worth suggesting: one
            // without a handler, not a job tool, not listed already.
            let candidates = catalogue
                .tools
                .iter()
                .zip(bound)
                .filter(|(t, b)| !t.builtin && b.is_none() && !written.contains(&t.name))
                .map(|(t, _)| t.name.as_str());
            let close = suggest::closest(&name, candidates);
            errors.at(
                ident.span(),
                messages::unknown_not_implemented(&name, close),
            );
            suggested.extend(close);
            continue;
        };
        let tool = &catalogue.tools[index];
        if tool.builtin {
            errors.at(ident.span(), messages::listed_builtin(tool));
        } else if bound[index].is_some() {
            errors.at(ident.span(), messages::listed_with_handler(&tool.name));
        } else {
            listed[index] = true;
            listed_names.push(tool.name.as_str());
        }
    }
    (listed, listed_names)
}
