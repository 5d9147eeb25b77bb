//! Writes the `Service` impl: one match arm per tool, calling its handler,
//! answering `NOT_IMPLEMENTED`, or leaving job tools to the dispatcher.
//!
//! Where the user's signature can be wrong, the tokens that rustc will
//! complain about carry the location of the user's own tokens: the request
//! argument sits on the parameter's type, the context argument on the
//! context's type, and the call on the return type, so a mismatched type
//! is reported in the handler's signature. Everything else points at the
//! `#[tools]` attribute rather than into the generated catalogue file.

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote_spanned};
use syn::Type;

use crate::catalogue::ToolEntry;
use crate::input::BindInput;
use crate::resolve::Answer;
use crate::signature::Handler;

/// The message of the arm that job tools never reach: the dispatcher takes
/// them out of the request before it calls the service.
const JOB_TOOL: &str = "job tools are answered by the dispatcher";

/// Names and locations shared by every arm.
struct Scope<'a> {
    input: &'a BindInput,
    /// Where generated code points: at the `#[tools]` attribute.
    span: Span,
    service: Ident,
    request: Ident,
    cx: Ident,
}

/// `<runtime>::__private`, every token located at `at`: the runtime's path
/// comes from the generated catalogue, whose spans must not leak into
/// messages.
pub(crate) fn private_path(input: &BindInput, at: Span) -> TokenStream {
    let runtime = match &input.runtime {
        Some(path) => path.to_token_stream(),
        None => quote_spanned!(at=> ::toolwright),
    };
    let mut out: TokenStream = runtime
        .into_iter()
        .map(|mut t| {
            t.set_span(at);
            t
        })
        .collect();
    out.extend(quote_spanned!(at=> ::__private));
    out
}

/// A local variable shown at `at`: mixed-site hygiene, so that no name of
/// the user's (a `const request`, say) can capture it.
pub(crate) fn local(name: &str, at: Span) -> Ident {
    Ident::new(name, Span::mixed_site().located_at(at))
}

/// `impl Service for <the block's type>`.
pub(crate) fn service_impl(
    input: &BindInput,
    answers: &[(&ToolEntry, Answer)],
    entry_fn: Option<TokenStream>,
) -> TokenStream {
    let anchor = input.anchor();
    let span = Span::call_site().located_at(anchor);
    let handlers = || {
        answers.iter().filter_map(|(_, a)| match a {
            Answer::Handler(handler) => Some(handler),
            _ => None,
        })
    };
    // Unused parameters get an underscore rather than an `allow`.
    let used = |yes: bool, name: &str| {
        if yes {
            name.to_owned()
        } else {
            format!("_{name}")
        }
    };
    let scope = Scope {
        input,
        span,
        service: local(&used(handlers().next().is_some(), "service"), anchor),
        request: local("request", anchor),
        cx: local(&used(handlers().any(|h| h.context.is_some()), "cx"), anchor),
    };
    let arms = answers
        .iter()
        .map(|(tool, answer)| arm(&scope, tool, answer));
    let call_inline = call_inline(&scope, answers);
    let call_inline_msgpack = call_inline_msgpack(&scope, answers);
    let not_served = not_served(span, answers);

    let module = &input.module;
    let self_ty = &input.item.self_ty;
    let (impl_generics, _, where_clause) = input.item.generics.split_for_impl();
    let Scope {
        service,
        request,
        cx,
        ..
    } = &scope;
    let private = private_path(input, span);
    let clone = handlers()
        .next()
        .map(|_| quote_spanned!(span=> let #service = #private::Arc::clone(#service);));
    // With every handler under `#[cfg]` compiled out, nothing else reads them.
    let touch = handlers()
        .any(|h| !h.cfgs.is_empty())
        .then(|| quote_spanned!(span=> let _ = (&#service, &#cx);));
    quote_spanned! {span=>
        // Deprecated tools are still served: naming their variants and
        // markers here is the catalogue's business, not the user's.
        #[allow(deprecated)]
        impl #impl_generics #private::Service for #self_ty #where_clause {
            type Catalogue = #module::ToolCatalogue;

            #not_served

            fn call(
                #service: &#private::Arc<Self>,
                #request: #module::ToolRequest,
                #cx: #private::CallContext,
            ) -> impl #private::Future<
                Output = #private::Result<#module::ToolResponse, #private::ToolError>,
            > + ::core::marker::Send + 'static {
                #clone
                async move {
                    #touch
                    match #request {
                        #(#arms)*
                    }
                }
            }

            #call_inline

            #call_inline_msgpack

            #entry_fn
        }
    }
}

/// `const NOT_SERVED`: the tools answered `NOT_IMPLEMENTED`, those with a
/// handler under `#[cfg]` where it is compiled out; nothing (the trait's
/// empty default) when every tool has a handler.
fn not_served(span: Span, answers: &[(&ToolEntry, Answer)]) -> TokenStream {
    let names: Vec<TokenStream> = answers
        .iter()
        .filter_map(|(tool, answer)| {
            let name = &tool.name;
            match answer {
                Answer::NotImplemented => Some(quote_spanned!(span=> #name)),
                Answer::Handler(handler) if !handler.cfgs.is_empty() => {
                    let cfg = cfg_predicate(span, handler);
                    Some(quote_spanned!(span=> #[cfg(not(#cfg))] #name))
                }
                _ => None,
            }
        })
        .collect();
    if names.is_empty() {
        return TokenStream::new();
    }
    quote_spanned!(span=> const NOT_SERVED: &'static [&'static str] = &[#(#names),*];)
}

/// The predicate of a handler's `#[cfg]`s: itself for one, `all(..)` for
/// several.
fn cfg_predicate(span: Span, handler: &Handler) -> TokenStream {
    match &handler.cfgs[..] {
        [one] => one.clone(),
        all => quote_spanned!(span=> all(#(#all),*)),
    }
}

/// The handlers answered without a future: plain functions taking no
/// context, not under `#[cfg]`, of tools that are not paged (the
/// dispatcher opens a paged call's cursor before its handler runs).
fn inline_handlers<'a>(
    answers: &'a [(&'a ToolEntry, Answer)],
) -> impl Iterator<Item = (&'a ToolEntry, &'a Handler)> {
    answers.iter().filter_map(|(tool, answer)| match answer {
        Answer::Handler(h)
            if !h.awaits && h.context.is_none() && h.cfgs.is_empty() && !tool.paged =>
        {
            Some((*tool, &**h))
        }
        _ => None,
    })
}

/// `fn call_inline`: the handlers that are plain functions taking no
/// context, called at once (see `Service::call_inline`); nothing when
/// there are none, which leaves the trait's default.
fn call_inline(scope: &Scope, answers: &[(&ToolEntry, Answer)]) -> Option<TokenStream> {
    let span = scope.span;
    let module = &scope.input.module;
    let private = private_path(scope.input, span);
    let finish = local("finish", span);
    let arms: Vec<TokenStream> = inline_handlers(answers)
        .map(|(tool, h)| {
            let variant = &tool.variant;
            let pattern = match tool.request {
                Some(_) => {
                    let request = &scope.request;
                    quote_spanned!(span=> #module::ToolRequest::#variant(#request))
                }
                None => quote_spanned!(span=> #module::ToolRequest::#variant),
            };
            let body = call(scope, tool, h);
            quote_spanned!(span=> #pattern => #private::Result::Ok(#finish(#body)),)
        })
        .collect();
    if arms.is_empty() {
        return None;
    }
    let Scope {
        service, request, ..
    } = scope;
    let other = local("other", span);
    let answer = local("__Answer", span);
    Some(quote_spanned! {span=>
        fn call_inline<#answer>(
            &self,
            #request: #module::ToolRequest,
            #finish: impl ::core::ops::FnOnce(
                #private::Result<#module::ToolResponse, #private::ToolError>,
            ) -> #answer,
        ) -> #private::Result<#answer, #module::ToolRequest> {
            let #service = self;
            match #request {
                #(#arms)*
                // Unreachable only in a catalogue built without the job
                // tools whose every handler is answered here.
                #[allow(unreachable_patterns)]
                #other => #private::Result::Err(#other),
            }
        }
    })
}

/// `fn call_inline_msgpack`: the same handlers as `call_inline`, of
/// `sync` tools, answered straight from a MsgPack call's bytes (see
/// `Service::call_inline_msgpack`); nothing when there are none.
fn call_inline_msgpack(scope: &Scope, answers: &[(&ToolEntry, Answer)]) -> Option<TokenStream> {
    let span = scope.span;
    let module = &scope.input.module;
    let private = private_path(scope.input, span);
    let call = local("call", span);
    let arms: Vec<TokenStream> = inline_handlers(answers)
        .map(|(tool, h)| {
            let name = &tool.name;
            let marker = &tool.marker;
            let tool_ty = quote_spanned!(span=> <#module::#marker as #private::Tool>);
            let body = self::call(scope, tool, h);
            let answer = match tool.request {
                Some(_) => {
                    let request = &scope.request;
                    quote_spanned!(span=>
                        #call.answer(|#request: #tool_ty::Request| #body)
                    )
                }
                None => quote_spanned!(span=> #call.answer_unit(|| #body)),
            };
            // The timing is a constant of the tool: a guard the compiler
            // folds away, true or false.
            quote_spanned!(span=>
                #name if ::core::matches!(#tool_ty::TIMING, #private::ToolTiming::Sync) => {
                    #private::Result::Ok(#answer)
                }
            )
        })
        .collect();
    if arms.is_empty() {
        return None;
    }
    let service = &scope.service;
    Some(quote_spanned! {span=>
        fn call_inline_msgpack<'__a, '__de>(
            &self,
            #call: #private::MsgpackCall<'__a, '__de>,
        ) -> #private::Result<#private::InlineAnswer, #private::MsgpackCall<'__a, '__de>> {
            let #service = self;
            match #call.tool() {
                #(#arms)*
                _ => #private::Result::Err(#call),
            }
        }
    })
}

fn arm(scope: &Scope, tool: &ToolEntry, answer: &Answer) -> TokenStream {
    let span = scope.span;
    let module = &scope.input.module;
    let variant = &tool.variant;
    let private = private_path(scope.input, span);
    let pattern = |binding: TokenStream| match tool.request {
        Some(_) => quote_spanned!(span=> #module::ToolRequest::#variant(#binding)),
        None => quote_spanned!(span=> #module::ToolRequest::#variant),
    };
    match answer {
        Answer::Handler(handler) if handler.cfgs.is_empty() => {
            let pattern = pattern(scope.request.to_token_stream());
            let body = call(scope, tool, handler);
            quote_spanned!(span=> #pattern => #body)
        }
        // A handler under `#[cfg]`: where the method is compiled out, the
        // tool answers `NOT_IMPLEMENTED`.
        Answer::Handler(handler) => {
            let bound = pattern(scope.request.to_token_stream());
            let body = call(scope, tool, handler);
            let unbound = pattern(quote_spanned!(span=> _));
            let name = &tool.name;
            let cfg = cfg_predicate(span, handler);
            quote_spanned! {span=>
                #[cfg(#cfg)]
                #bound => #body
                #[cfg(not(#cfg))]
                #unbound => #private::Result::Err(#private::ToolError::not_implemented(#name)),
            }
        }
        Answer::NotImplemented => {
            let pattern = pattern(quote_spanned!(span=> _));
            let name = &tool.name;
            quote_spanned! {span=>
                #pattern => #private::Result::Err(#private::ToolError::not_implemented(#name)),
            }
        }
        Answer::Builtin => {
            let pattern = pattern(quote_spanned!(span=> _));
            quote_spanned! {span=>
                #pattern => #private::Result::Err(#private::ToolError::internal(#JOB_TOOL)),
            }
        }
    }
}

/// `{ let result: Result<Response, Error> = <Type>::method(&*service, ..).await;
/// result.map(..).map_err(..) }`
fn call(scope: &Scope, tool: &ToolEntry, handler: &Handler) -> TokenStream {
    let span = scope.span;
    let module = &scope.input.module;
    let marker = &tool.marker;
    let variant = &tool.variant;
    let private = private_path(scope.input, span);
    let tool_ty = quote_spanned!(span=> <#module::#marker as #private::Tool>);

    // The request and context go through bindings typed as the user wrote
    // them, the values located at those types: a wrong parameter type is
    // "expected `String`, found `MathOperands`" on the parameter itself.
    let service = &scope.service;
    let mut bindings = TokenStream::new();
    let mut args = vec![quote_spanned!(span=> &*#service)];
    if let Some(ty) = &handler.request {
        let (first, _) = ends(ty, span);
        let request = &scope.request;
        let value = local(&request.to_string(), first).into_token_stream();
        bindings.extend(bind_as(span, request, ty, value));
        args.push(request.to_token_stream());
    }
    if let Some(ty) = &handler.context {
        let (first, last) = ends(ty, span);
        let cx = &scope.cx;
        // Not `#private`, whose tokens point at `#[tools]`.
        let context = private_path(scope.input, first);
        let mut value = quote_spanned!(first=> #context::Context::<#tool_ty::Chunk>::new);
        value.extend([spanned_group(cx.to_token_stream(), last)]);
        bindings.extend(bind_as(span, cx, ty, value));
        args.push(cx.to_token_stream());
    }

    // The call spans the return type, from its first token to its last, so
    // that a wrong response or error type is "expected `Result<MathResult,
    // MathError>`, found `Result<String, MathError>`" there.
    let (first, last) = ends(&handler.output, span);
    let self_ty = &scope.input.item.self_ty;
    let method = &handler.method;
    let mut call = quote_spanned!(first=> <#self_ty>::#method);
    let args = quote_spanned!(span=> #(#args),*);
    if handler.awaits {
        call.extend([spanned_group(args, first)]);
        call.extend(quote_spanned!(last=> .await));
    } else {
        call.extend([spanned_group(args, last)]);
    }

    let result = local("result", span);
    let respond = match tool.response {
        Some(_) => quote_spanned!(span=> #module::ToolResponse::#variant),
        None => quote_spanned!(span=> |()| #module::ToolResponse::#variant),
    };
    quote_spanned! {span=>
        {
            #bindings
            let #result: #private::Result<#tool_ty::Response, #tool_ty::Error> = #call;
            #result
                .map(#respond)
                .map_err(#private::IntoToolError::into_tool_error)
        }
    }
}

/// `let name: ty = value;`, or `let name = value;` where `ty` cannot be
/// written in a `let` (`impl Trait` in argument position).
fn bind_as(span: Span, name: &Ident, ty: &Type, value: TokenStream) -> TokenStream {
    match ty {
        Type::ImplTrait(_) | Type::Infer(_) => quote_spanned!(span=> let #name = #value;),
        _ => quote_spanned!(span=> let #name: #ty = #value;),
    }
}

/// `( tokens )`, both parentheses at `span`.
pub(crate) fn spanned_group(tokens: TokenStream, span: Span) -> Group {
    let mut group = Group::new(Delimiter::Parenthesis, tokens);
    group.set_span(span);
    group
}

/// Where the first and the last token of `tokens` are, with the hygiene of
/// `span`: rustc shows an expression from the start of its first token to
/// the end of its last, so code spelled with these two covers `tokens`.
pub(crate) fn ends(tokens: impl ToTokens, span: Span) -> (Span, Span) {
    let trees: Vec<TokenTree> = tokens.into_token_stream().into_iter().collect();
    let first = trees.first().map_or(span, |tree| match tree {
        TokenTree::Group(group) => group.span_open(),
        other => other.span(),
    });
    let last = trees.last().map_or(first, |tree| match tree {
        TokenTree::Group(group) => group.span_close(),
        other => other.span(),
    });
    (span.located_at(first), span.located_at(last))
}
