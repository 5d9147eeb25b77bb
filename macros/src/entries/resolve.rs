//! Pairs the marked methods with the catalogue's resources, prompts and
//! handler-completed arguments, with an error for a mark that names
//! nothing, a second handler, a completion of an argument that needs
//! none, a signature of the wrong shape, and everything left unbound.

use proc_macro2::{Span, TokenStream};
use syn::{FnArg, Ident, ReceiverKind, ReturnType, Type};

use super::describe::{EntryDesc, EntryKind};
use super::marks::{EntryMark, MarkKind};
use crate::diag::Errors;
use crate::messages::type_name;
use crate::suggest;

/// The last segment of a context parameter's type.
const CONTEXT: &str = "Context";

/// A handler whose signature has the right shape.
pub(crate) struct EntryHandler {
    pub(crate) method: Ident,
    /// Called with `.await`: an `async fn`, or one returning `impl Future`.
    pub(crate) awaits: bool,
    /// The arguments (or completion request) parameter's type.
    pub(crate) input: Option<Type>,
    /// The context parameter's type, when it takes one.
    pub(crate) context: Option<Type>,
    /// The return type as written: where a wrong one is reported.
    pub(crate) output: Type,
    pub(crate) cfgs: Vec<TokenStream>,
}

/// How every entry and every handler-completed argument is answered:
/// `None` with `NOT_IMPLEMENTED` (opted into, or after an error shown).
pub(crate) struct EntryAnswers<'a> {
    pub(crate) entries: Vec<(&'a EntryDesc, Option<EntryHandler>)>,
    pub(crate) completions: Vec<(&'a EntryDesc, &'a str, Option<EntryHandler>)>,
}

/// Pairs `marks` with `entries`. With `every_unbound` (`#[tools(not_implemented)]`)
/// an entry or completion without a handler answers `NOT_IMPLEMENTED`;
/// otherwise it is an error at `self_ty`.
pub(crate) fn resolve<'a>(
    entries: &'a [EntryDesc],
    marks: &[EntryMark],
    every_unbound: bool,
    self_ty: Span,
    errors: &mut Errors,
) -> EntryAnswers<'a> {
    let mut bound: Vec<Option<(String, Option<EntryHandler>)>> =
        entries.iter().map(|_| None).collect();
    let completed: Vec<(usize, &str)> = entries
        .iter()
        .enumerate()
        .flat_map(|(i, e)| e.complete.iter().map(move |a| (i, a.as_str())))
        .collect();
    let mut completers: Vec<Option<(String, Option<EntryHandler>)>> =
        completed.iter().map(|_| None).collect();
    // Entries a mark of the wrong kind names: fixing the mark binds them,
    // so they are not reported missing too.
    let mut misplaced = Vec::new();

    for mark in marks {
        let Some(index) = entries.iter().position(|e| e.name == mark.entry) else {
            let close = suggest::closest(&mark.entry, entries.iter().map(|e| e.name.as_str()));
            let what = match &mark.kind {
                MarkKind::Entry(kind) => kind.word(),
                MarkKind::Complete { .. } => "resource or prompt",
            };
            let hint = close
                .map(|c| format!("; did you mean `{c}`?"))
                .unwrap_or_default();
            errors.at(
                mark.span,
                format!("no {what} is called `{}`{hint}", mark.entry),
            );
            continue;
        };
        let entry = &entries[index];
        let method = mark.sig.ident.to_string();
        match &mark.kind {
            MarkKind::Entry(kind) if *kind != entry.kind => {
                misplaced.push(index);
                let is = entry.kind.word();
                errors.at(
                    mark.span,
                    format!(
                        "`{}` is a {is}, not a {}: mark it `#[{is}]`",
                        entry.name,
                        kind.word()
                    ),
                );
            }
            MarkKind::Entry(_) => {
                if let Some((first, _)) = &bound[index] {
                    errors.at(
                        mark.span,
                        format!(
                            "{} `{}` has two handlers: `{first}` and `{method}`",
                            entry.kind.word(),
                            entry.name
                        ),
                    );
                    continue;
                }
                let input = entry.arguments.is_some();
                bound[index] = Some((method, check(mark, entry, input, errors)));
            }
            MarkKind::Complete { argument } => {
                let Some(slot) = completed
                    .iter()
                    .position(|(i, a)| *i == index && a == argument)
                else {
                    errors.at(
                        mark.span,
                        format!(
                            "`{}.{argument}` is not completed by a handler: only arguments marked \
                             `@complete` in the IDL are (an enum's values complete without one)",
                            entry.name
                        ),
                    );
                    continue;
                };
                if let Some((first, _)) = &completers[slot] {
                    errors.at(
                        mark.span,
                        format!(
                            "`{}.{argument}` has two completion handlers: `{first}` and `{method}`",
                            entry.name
                        ),
                    );
                    continue;
                }
                completers[slot] = Some((method, check(mark, entry, true, errors)));
            }
        }
    }

    let entries_answered = entries
        .iter()
        .zip(bound)
        .enumerate()
        .map(|(index, (entry, bound))| match bound {
            Some((_, handler)) => (entry, handler),
            None => {
                if !every_unbound && !misplaced.contains(&index) {
                    errors.at(self_ty, missing(entry));
                }
                (entry, None)
            }
        })
        .collect();
    let completions = completed
        .iter()
        .zip(completers)
        .map(|(&(index, argument), bound)| {
            let entry = &entries[index];
            match bound {
                Some((_, handler)) => (entry, argument, handler),
                None => {
                    if !every_unbound {
                        errors.at(self_ty, missing_completion(entry, argument));
                    }
                    (entry, argument, None)
                }
            }
        })
        .collect();
    EntryAnswers {
        entries: entries_answered,
        completions,
    }
}

/// `mark`'s method as a handler taking `&self`, its input when `input`,
/// and optionally a context last; `None` after recording what is wrong.
fn check(
    mark: &EntryMark,
    entry: &EntryDesc,
    input: bool,
    errors: &mut Errors,
) -> Option<EntryHandler> {
    let sig = &mark.sig;
    let usage = usage(entry, mark);
    let receiver_ok = matches!(
        sig.inputs.first(),
        Some(FnArg::Receiver(r)) if matches!(r.kind, ReceiverKind::Reference(_, _, None)) && r.mutability.is_none()
    );
    let mut params: Vec<&Type> = sig
        .inputs
        .iter()
        .filter_map(|arg| match arg {
            FnArg::Typed(param) => Some(&*param.ty),
            FnArg::Receiver(_) => None,
        })
        .collect();
    let context = match params.last() {
        Some(last) if is_context(last) => params.pop().cloned(),
        _ => None,
    };
    let arity_ok = params.len() == usize::from(input);
    let output = match &sig.output {
        ReturnType::Type(_, ty) => Some((**ty).clone()),
        ReturnType::Default => None,
    };
    let (true, true, Some(output)) = (receiver_ok, arity_ok, output) else {
        errors.spanned(
            sig,
            format!("`{}` does not fit: expected {usage}", sig.ident),
        );
        return None;
    };
    Some(EntryHandler {
        method: sig.ident.clone(),
        awaits: sig.asyncness.is_some() || matches!(output, Type::ImplTrait(_)),
        input: params.first().map(|t| (*t).clone()),
        context,
        output,
        cfgs: mark.cfgs.clone(),
    })
}

fn is_context(ty: &Type) -> bool {
    matches!(ty, Type::Path(path) if path.path.segments.last().is_some_and(|s| s.ident == CONTEXT))
}

/// The signature a handler should have, for messages.
fn usage(entry: &EntryDesc, mark: &EntryMark) -> String {
    let method = mark.sig.ident.to_string();
    match &mark.kind {
        MarkKind::Complete { .. } => format!(
            "`fn {method}(&self, request: toolwright::entry::CompletionRequest) -> Vec<String>` \
             (or a `Completion`, or a `Result` of either; `async` and a `Context` last allowed)"
        ),
        MarkKind::Entry(_) => format!(
            "`{}` (`async` and a `Context` last allowed)",
            entry_signature(entry, &method)
        ),
    }
}

fn entry_signature(entry: &EntryDesc, method: &str) -> String {
    let arguments = entry
        .arguments
        .as_ref()
        .map(|ty| format!(", arguments: {}", type_name(ty)))
        .unwrap_or_default();
    let output = match (entry.kind, &entry.contents) {
        (EntryKind::Prompt, _) => "toolwright::entry::PromptMessages".to_owned(),
        (_, Some(super::Contents::Json(ty))) => type_name(ty),
        (_, Some(super::Contents::Bytes)) => "Vec<u8>".to_owned(),
        _ => "String".to_owned(),
    };
    let error = entry.error.as_ref().map_or("ToolError".into(), type_name);
    format!("fn {method}(&self{arguments}) -> Result<{output}, {error}>")
}

fn missing(entry: &EntryDesc) -> String {
    format!(
        "{kind} `{name}` has no handler (declared at {declared})\n\
         add `#[{kind}] {signature}` to this impl block,\n\
         or answer NOT_IMPLEMENTED for every entry without a handler with `#[tools(not_implemented)]`",
        kind = entry.kind.word(),
        name = entry.name,
        declared = entry.declared,
        signature = entry_signature(entry, &entry.name),
    )
}

fn missing_completion(entry: &EntryDesc, argument: &str) -> String {
    format!(
        "argument `{argument}` of {kind} `{name}` is `@complete` but nothing completes it \
         (declared at {declared})\n\
         add `#[complete({name}.{argument})] fn complete_{argument}(&self, request: \
         toolwright::entry::CompletionRequest) -> Vec<String>` to this impl block",
        kind = entry.kind.word(),
        name = entry.name,
        declared = entry.declared,
    )
}

#[cfg(test)]
mod tests {
    use quote::quote;
    use syn::{ItemImpl, parse_quote};

    use super::*;
    use crate::catalogue::Catalogue;

    fn run(block: ItemImpl, every_unbound: bool) -> (usize, usize, Vec<String>) {
        let catalogue: Catalogue = syn::parse2(quote! {
            resource "cas_object" {
                arguments CasObjectArguments, contents bytes, declared "cas.tool:6:1", complete "hash",
            }
            prompt "compose" { arguments ComposeArguments, declared "cas.tool:20:1", }
        })
        .unwrap();
        let mut block = block;
        let mut errors = Errors::default();
        let marks = super::super::collect(&mut block, &mut errors);
        let answers = resolve(
            &catalogue.entries,
            &marks,
            every_unbound,
            Span::call_site(),
            &mut errors,
        );
        let bound = answers.entries.iter().filter(|(_, h)| h.is_some()).count();
        let completing = answers
            .completions
            .iter()
            .filter(|(_, _, h)| h.is_some())
            .count();
        (bound, completing, errors.messages())
    }

    #[test]
    fn binds_every_entry_and_completion() {
        let (bound, completing, errors) = run(
            parse_quote! {
                impl Studio {
                    #[resource]
                    async fn cas_object(&self, arguments: CasObjectArguments, cx: Context) -> Result<Vec<u8>, CasError> {}
                    #[prompt]
                    fn compose(&self, arguments: ComposeArguments) -> Result<PromptMessages, ToolError> {}
                    #[complete(cas_object.hash)]
                    fn hashes(&self, request: CompletionRequest) -> Vec<String> {}
                }
            },
            false,
        );
        assert_eq!((bound, completing), (2, 1));
        assert!(errors.is_empty(), "{errors:?}");
    }

    #[test]
    fn says_what_is_wrong_and_what_is_missing() {
        let (bound, _, errors) = run(
            parse_quote! {
                impl Studio {
                    #[resource]
                    fn compose(&self, arguments: ComposeArguments) -> String {}
                    #[prompt(name = "compse")]
                    fn other(&self) -> String {}
                    #[resource]
                    fn cas_object(&self) -> Vec<u8> {}
                    #[complete(compose.key)]
                    fn keys(&self, request: CompletionRequest) -> Vec<String> {}
                }
            },
            false,
        );
        assert_eq!(bound, 0);
        assert_eq!(errors.len(), 5, "{errors:#?}");
        assert_eq!(
            errors[0],
            "`compose` is a prompt, not a resource: mark it `#[prompt]`"
        );
        assert_eq!(
            errors[1],
            "no prompt is called `compse`; did you mean `compose`?"
        );
        assert!(errors[2].starts_with("`cas_object` does not fit: expected `fn cas_object(&self, arguments: CasObjectArguments) -> Result<Vec<u8>, ToolError>`"), "{}", errors[2]);
        assert!(
            errors[3].starts_with("`compose.key` is not completed by a handler"),
            "{}",
            errors[3]
        );
        // `cas_object` has a handler, if a wrong one, and `compose` a mark of
        // the wrong kind: neither is reported missing too.
        assert!(
            errors[4].starts_with("argument `hash` of resource `cas_object` is `@complete`"),
            "{}",
            errors[4]
        );
    }

    #[test]
    fn not_implemented_covers_every_unbound_entry() {
        let (bound, completing, errors) = run(parse_quote!(impl Studio {}), true);
        assert_eq!((bound, completing), (0, 0));
        assert!(errors.is_empty(), "{errors:?}");
    }
}
