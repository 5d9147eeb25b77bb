//! Checks a handler's signature against its tool: `&self`, the request
//! when the tool takes one, an optional `Context` last, and a return type
//! that can be the tool's `Result`. Whether the types are the right ones is
//! left to rustc, which `emit` makes point at these same tokens.

use proc_macro2::TokenStream;
use syn::{FnArg, Ident, PatType, ReceiverKind, ReturnType, Signature, Type};

use crate::catalogue::ToolEntry;
use crate::diag::Errors;
use crate::handlers::Marked;
use crate::messages;

/// The last segment of a context parameter's type.
const CONTEXT: &str = "Context";

/// A handler whose signature has the right shape.
pub(crate) struct Handler {
    /// The method, with the user's span.
    pub(crate) method: Ident,
    /// The call is awaited: an `async fn`, or one returning `impl Future`.
    pub(crate) awaits: bool,
    /// The request parameter's type; `Some` exactly when the tool takes one.
    pub(crate) request: Option<Type>,
    /// The context parameter's type, when the handler takes one.
    pub(crate) context: Option<Type>,
    /// The return type as written.
    pub(crate) output: Type,
    /// The predicates of the method's `#[cfg]`s: the arm that calls it
    /// exists only when they hold.
    pub(crate) cfgs: Vec<TokenStream>,
}

/// `method` as the handler of `tool`, or `None` after recording what is
/// wrong.
pub(crate) fn check(method: &Marked, tool: &ToolEntry, errors: &mut Errors) -> Option<Handler> {
    let sig = &method.sig;
    let is_async = sig.asyncness.is_some();
    let name = sig.ident.to_string();
    let mut ok = check_receiver(sig, tool, errors);

    let mut params: Vec<&PatType> = sig
        .inputs
        .iter()
        .filter_map(|arg| match arg {
            FnArg::Typed(param) => Some(param),
            FnArg::Receiver(_) => None,
        })
        .collect();
    let context = match params.last() {
        Some(last) if is_context(&last.ty, tool) => params.pop().map(|p| (*p.ty).clone()),
        _ => None,
    };
    let expected = usize::from(tool.request.is_some());
    if let Some(extra) = params.get(expected) {
        errors.spanned(extra, messages::too_many_parameters(tool, &name, is_async));
        ok = false;
    } else if params.len() < expected {
        let span = sig.paren_token.span.join();
        errors.at(span, messages::missing_request(tool, &name, is_async));
        ok = false;
    }

    let output = match &sig.output {
        ReturnType::Type(_, ty) if could_be_result(ty) => Some((**ty).clone()),
        ReturnType::Type(_, ty) => {
            errors.spanned(ty, messages::not_a_result(tool, &name, is_async));
            None
        }
        ReturnType::Default => {
            errors.at(
                sig.ident.span(),
                messages::not_a_result(tool, &name, is_async),
            );
            None
        }
    };

    let output = output.filter(|_| ok)?;
    Some(Handler {
        method: sig.ident.clone(),
        awaits: is_async || matches!(output, Type::ImplTrait(_)),
        request: params.first().map(|p| (*p.ty).clone()),
        context,
        output,
        cfgs: method.cfgs.clone(),
    })
}

/// `&self` first; records what else is there.
fn check_receiver(sig: &Signature, tool: &ToolEntry, errors: &mut Errors) -> bool {
    let is_async = sig.asyncness.is_some();
    let method = sig.ident.to_string();
    match sig.inputs.first() {
        Some(FnArg::Receiver(receiver)) => match &receiver.kind {
            ReceiverKind::Reference(_, _, None) if receiver.mutability.is_none() => true,
            ReceiverKind::Reference(_, _, Some(_)) => {
                errors.spanned(receiver, messages::mut_self(tool, &method, is_async));
                false
            }
            _ => {
                errors.spanned(receiver, messages::needs_ref_self(tool, &method, is_async));
                false
            }
        },
        _ => {
            let span = sig.paren_token.span.join();
            errors.at(span, messages::needs_ref_self(tool, &method, is_async));
            false
        }
    }
}

/// A `Context`, `toolwright::Context<Chunk>`, … parameter, unless the tool's
/// own request type is called `Context` too.
fn is_context(ty: &Type, tool: &ToolEntry) -> bool {
    let is_named_context = |ty: &Type| {
        matches!(ty, Type::Path(path)
            if path.path.segments.last().is_some_and(|s| s.ident == CONTEXT))
    };
    is_named_context(ty) && !tool.request.as_ref().is_some_and(is_named_context)
}

/// False for types that cannot name a `Result`: `()`, `&T`, `[T]`, `!`, …
/// Paths (`Result<..>`, an alias), `impl Future` and macro types may.
fn could_be_result(ty: &Type) -> bool {
    !matches!(
        ty,
        Type::Tuple(_)
            | Type::Never(_)
            | Type::Reference(_)
            | Type::Ptr(_)
            | Type::Slice(_)
            | Type::Array(_)
            | Type::FnPtr(_)
            | Type::TraitObject(_)
            | Type::Infer(_)
    )
}
