//! `fn entry`: one arm per resource and prompt, calling its handler, and
//! one per entry for its completions, each argument's handler in turn.
//!
//! A handler's result is bound with the entry's declared contents and
//! error types (its return type located at the user's), so a mismatch is
//! reported in the handler's signature, as for tools.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote_spanned};

use super::describe::{Contents, EntryDesc, EntryKind};
use super::resolve::{EntryAnswers, EntryHandler};
use crate::emit::{ends, local, private_path, spanned_group};
use crate::input::BindInput;

struct Names {
    span: Span,
    private: TokenStream,
    service: proc_macro2::Ident,
    call: proc_macro2::Ident,
    cx: proc_macro2::Ident,
    input: proc_macro2::Ident,
    result: proc_macro2::Ident,
}

/// `fn entry`, or nothing when the catalogue has no resource or prompt
/// (the trait's default answers every entry `UNKNOWN_ENTRY`).
pub(crate) fn entry_fn(input: &BindInput, answers: &EntryAnswers<'_>) -> Option<TokenStream> {
    if answers.entries.is_empty() {
        return None;
    }
    let anchor = input.anchor();
    let span = Span::call_site().located_at(anchor);
    let names = Names {
        span,
        private: private_path(input, span),
        service: local("service", anchor),
        call: local("call", anchor),
        cx: local("cx", anchor),
        input: local("input", anchor),
        result: local("result", anchor),
    };
    let Names {
        private,
        service,
        call,
        cx,
        ..
    } = &names;
    let arms = answers
        .entries
        .iter()
        .map(|(entry, handler)| entry_arm(input, &names, entry, handler.as_ref()));
    let completion_arms = answers.entries.iter().map(|(entry, _)| {
        let handlers = answers
            .completions
            .iter()
            .filter(|(e, _, _)| e.name == entry.name)
            .map(|(_, argument, handler)| (*argument, handler.as_ref()));
        completion_arm(input, &names, entry, handlers)
    });
    Some(quote_spanned! {span=>
        fn entry(
            #service: &#private::Arc<Self>,
            #call: #private::entry::EntryCall,
            #cx: #private::CallContext,
        ) -> impl #private::Future<
            Output = #private::Result<#private::entry::EntryAnswer, #private::ToolError>,
        > + ::core::marker::Send + 'static {
            let #service = #private::Arc::clone(#service);
            #private::entry::answer(async move {
                // Unused in a block whose entries all answer NOT_IMPLEMENTED.
                let _ = (&#service, &#cx);
                match (#call.kind(), #call.name()) {
                    #(#arms)*
                    #(#completion_arms)*
                    _ => #private::Result::Err(#call.unknown()),
                }
            })
        }
    })
}

/// `(EntryKind::Resource, "name") => { … }`, and its `NOT_IMPLEMENTED`
/// twin where a `#[cfg]` leaves the handler out.
fn entry_arm(
    input: &BindInput,
    names: &Names,
    entry: &EntryDesc,
    handler: Option<&EntryHandler>,
) -> TokenStream {
    let Names { span, private, .. } = names;
    let span = *span;
    let kind = match entry.kind {
        EntryKind::Resource => quote_spanned!(span=> Resource),
        EntryKind::Prompt => quote_spanned!(span=> Prompt),
    };
    let name = &entry.name;
    let pattern = quote_spanned!(span=> (#private::entry::EntryKind::#kind, #name));
    let unbound = quote_spanned!(span=>
        #pattern => #private::Result::Err(#private::ToolError::not_implemented(#name)),
    );
    let Some(handler) = handler else {
        return unbound;
    };
    let body = entry_body(input, names, entry, handler);
    with_cfgs(
        span,
        handler,
        quote_spanned!(span=> #pattern => #body),
        unbound,
    )
}

fn entry_body(
    input: &BindInput,
    names: &Names,
    entry: &EntryDesc,
    handler: &EntryHandler,
) -> TokenStream {
    let Names {
        span,
        private,
        call,
        result,
        ..
    } = names;
    let span = *span;
    let module = &input.module;
    let permit = permit(names, entry);
    let decode = match &entry.arguments {
        Some(ty) => {
            let value = &names.input;
            quote_spanned!(span=> let #value: #module::#ty = #call.arguments()?;)
        }
        None => quote_spanned!(span=> #call.no_arguments()?;),
    };
    let invoke = invoke(input, names, handler);
    let error = match &entry.error {
        Some(ty) => quote_spanned!(span=> #module::#ty),
        None => quote_spanned!(span=> #private::ToolError),
    };
    let value = local("value", span);
    let (ok, answer) = match (entry.kind, &entry.contents) {
        (EntryKind::Prompt, _) => (
            quote_spanned!(span=> _),
            quote_spanned!(span=> #private::entry::EntryAnswer::Prompt(::core::convert::Into::into(#value))),
        ),
        (_, Some(Contents::Json(ty))) => (
            quote_spanned!(span=> #module::#ty),
            quote_spanned!(span=> #private::entry::json(&#value)?),
        ),
        (_, Some(Contents::Bytes)) => (
            quote_spanned!(span=> _),
            quote_spanned!(span=> #private::entry::blob(#value)),
        ),
        _ => (
            quote_spanned!(span=> _),
            quote_spanned!(span=> #private::entry::text(#value)),
        ),
    };
    quote_spanned! {span=>
        {
            #permit
            #decode
            let #result: #private::Result<#ok, #error> = #invoke;
            let #value = #result.map_err(#private::IntoToolError::into_tool_error)?;
            #private::Result::Ok(#answer)
        }
    }
}

/// `(EntryKind::Complete, "name") => { … match argument { … } }`: an
/// argument no handler completes (an enum's, completed by the edge from
/// the schema, or one that completes not at all) has no values here.
fn completion_arm<'a>(
    input: &BindInput,
    names: &Names,
    entry: &EntryDesc,
    handlers: impl Iterator<Item = (&'a str, Option<&'a EntryHandler>)>,
) -> TokenStream {
    let Names {
        span,
        private,
        call,
        ..
    } = names;
    let span = *span;
    let name = &entry.name;
    let request = &names.input;
    let permit = permit(names, entry);
    let arms: Vec<TokenStream> = handlers
        .map(|(argument, handler)| {
            let unbound = quote_spanned!(span=>
                #argument => #private::Result::Err(#private::ToolError::not_implemented(#name)),
            );
            let Some(handler) = handler else {
                return unbound;
            };
            let invoke = invoke(input, names, handler);
            let body = quote_spanned!(span=>
                #argument => #private::Result::Ok(#private::entry::EntryAnswer::Completion(
                    #private::entry::IntoCompletion::into_completion(#invoke)?,
                )),
            );
            with_cfgs(span, handler, body, unbound)
        })
        .collect();
    quote_spanned! {span=>
        (#private::entry::EntryKind::Complete, #name) => {
            #permit
            let #request: #private::entry::CompletionRequest = #call.arguments()?;
            match #request.argument.as_str() {
                #(#arms)*
                _ => #private::Result::Ok(#private::entry::EntryAnswer::Completion(
                    ::core::default::Default::default(),
                )),
            }
        }
    }
}

/// The scope check before an entry's handler, when it declares scopes.
fn permit(names: &Names, entry: &EntryDesc) -> TokenStream {
    let Names {
        span, private, cx, ..
    } = names;
    let span = *span;
    if entry.scopes.is_empty() {
        return TokenStream::new();
    }
    let name = &entry.name;
    let scopes = &entry.scopes;
    quote_spanned!(span=> #private::entry::permit(&#cx, #name, &[#(#scopes),*])?;)
}

/// `<Self>::method(&*service, input, Context::new(cx))`, `.await`ed when
/// it is async, spanning the handler's return type.
fn invoke(input: &BindInput, names: &Names, handler: &EntryHandler) -> TokenStream {
    let Names {
        span, service, cx, ..
    } = names;
    let span = *span;
    let mut args = vec![quote_spanned!(span=> &*#service)];
    if handler.input.is_some() {
        args.push(names.input.to_token_stream());
    }
    if let Some(ty) = &handler.context {
        let (first, _) = ends(ty, span);
        let context = private_path(input, first);
        args.push(
            quote_spanned!(first=> #context::Context::<()>::new(::core::clone::Clone::clone(&#cx))),
        );
    }
    let self_ty = &input.item.self_ty;
    let method = &handler.method;
    // Spanning the return type: a handler returning the wrong contents
    // or error is told so there.
    let (first, last) = ends(&handler.output, span);
    let mut call = quote_spanned!(first=> <#self_ty>::#method);
    let args = quote_spanned!(span=> #(#args),*);
    if handler.awaits {
        call.extend([spanned_group(args, first)]);
        call.extend(quote_spanned!(last=> .await));
    } else {
        call.extend([spanned_group(args, last)]);
    }
    call
}

/// `arm`, and where the handler's `#[cfg]`s leave it out, `unbound`.
fn with_cfgs(
    span: Span,
    handler: &EntryHandler,
    arm: TokenStream,
    unbound: TokenStream,
) -> TokenStream {
    if handler.cfgs.is_empty() {
        return arm;
    }
    let cfg = match &handler.cfgs[..] {
        [one] => one.clone(),
        all => quote_spanned!(span=> all(#(#all),*)),
    };
    quote_spanned! {span=>
        #[cfg(#cfg)]
        #arm
        #[cfg(not(#cfg))]
        #unbound
    }
}
