//! Catalogue-wide items: `ToolRequest`, `ToolResponse` and `ToolCatalogue`.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::context::{Cx, allow_deprecated};
use super::emit_tagged::{TaggedEnum, TaggedVariant, tagged_enum};
use super::emit_tools::{Direction, timing, tool_timing};
use super::{docs, layout, names};
use crate::builtin::JOB_CALLS;
use crate::model::{ExampleOutcome, Tool, ToolKind, TypeId};

/// Stands for the MCP schema's raw string literal until the section is
/// formatted: prettyplease would print the JSON as one escaped line.
pub(crate) const MCP_SCHEMA_PLACEHOLDER: &str = "__TOOLWRIGHT_MCP_SCHEMA__";

/// Stands for the tool metadata's raw string literal, likewise.
pub(crate) const METADATA_PLACEHOLDER: &str = "__TOOLWRIGHT_METADATA__";

/// The identifier a provider profile's tools replace, as the two above.
pub(crate) fn profile_placeholder(profile: crate::Profile) -> String {
    format!("__TOOLWRIGHT_PROFILE_{}__", profile.name().to_uppercase())
}

pub(crate) fn catalogue(cx: &Cx<'_>) -> TokenStream {
    let request = tool_enum(cx, Direction::Request);
    let validate = super::emit_validate::tool_request_impl(cx);
    let response = tool_enum(cx, Direction::Response);
    let catalogue = catalogue_impl(cx);
    quote!(#request #validate #response #catalogue)
}

/// What a tool's variant of `ToolRequest` / `ToolResponse` carries: the
/// request or response struct, the action enum, or nothing.
fn payload(cx: &Cx<'_>, tool: &Tool, direction: Direction) -> Option<TokenStream> {
    match &tool.kind {
        ToolKind::Single(e) => direction.of(e).map(|id| cx.type_name(id)),
        ToolKind::Actions(_) => {
            let ident = format_ident!("{}{}", names::pascal(&tool.name), direction.suffix());
            Some(quote!(#ident))
        }
    }
}

fn payload_size(cx: &Cx<'_>, tool: &Tool, direction: Direction) -> usize {
    let of = |id: Option<TypeId>| id.map_or(0, |id| cx.size(id));
    match &tool.kind {
        ToolKind::Single(e) => of(direction.of(e)),
        ToolKind::Actions(actions) => {
            8 + actions
                .iter()
                .map(|a| of(direction.of(&a.endpoint)))
                .max()
                .unwrap_or(0)
        }
    }
}

/// `ToolRequest` or `ToolResponse`: a variant per tool, tagged by `"tool"`.
fn tool_enum(cx: &Cx<'_>, direction: Direction) -> TokenStream {
    let tools = &cx.model.tools;
    let variants = tools
        .iter()
        .map(|tool| {
            let docs = match direction {
                Direction::Request => docs::attrs(&match tool.docs.as_deref() {
                    Some(text) => format!("`{}`: {text}", tool.name),
                    None => format!("Calls `{}`.", tool.name),
                }),
                Direction::Response => docs::attrs(&format!(
                    "The answer of `{}`{}.",
                    tool.name,
                    if payload(cx, tool, direction).is_none() {
                        ": an acknowledgement"
                    } else {
                        ""
                    }
                )),
            };
            TaggedVariant {
                ident: names::variant(&tool.name).ident,
                wire: tool.name.clone(),
                payload: payload(cx, tool, direction),
                docs,
                deprecated: tool.deprecated.as_ref(),
            }
        })
        .collect();
    let (name, expecting, doc) = match direction {
        Direction::Request => (
            format_ident!("ToolRequest"),
            "a tool request",
            "A call of any tool of the catalogue: `{\"tool\": name, ...fields}` on the wire, the tag first.",
        ),
        Direction::Response => (
            format_ident!("ToolResponse"),
            "a tool response",
            "The answer of any tool of the catalogue: `{\"tool\": name, ...fields}` on the wire, the tag first.",
        ),
    };
    tagged_enum(
        cx,
        &TaggedEnum {
            name,
            tag: "tool",
            expecting: expecting.to_owned(),
            docs: docs::attrs(doc),
            variants,
            lopsided: layout::lopsided(
                tools
                    .iter()
                    .map(|t| payload_size(cx, t, direction))
                    .collect(),
            ),
            touches_deprecated: cx.any_deprecated(),
            request: direction == Direction::Request,
        },
    )
}

/// `pub struct ToolCatalogue;` and its `Catalogue` impl.
fn catalogue_impl(cx: &Cx<'_>) -> TokenStream {
    let rt = &cx.rt;
    let tools = &cx.model.tools;
    let allow = allow_deprecated(cx.any_deprecated());
    let infos = tools.iter().map(|t| tool_info(cx, t));
    let lookups = tools.iter().enumerate().map(|(i, t)| {
        let name = &t.name;
        let i = Literal::usize_unsuffixed(i);
        quote!(#name => ::core::option::Option::Some(&Self::TOOLS[#i]))
    });
    let tool = if tools.is_empty() {
        quote! {
            fn tool(_name: &str) -> ::core::option::Option<&'static #rt::ToolInfo> {
                ::core::option::Option::None
            }
        }
    } else {
        quote! {
            fn tool(name: &str) -> ::core::option::Option<&'static #rt::ToolInfo> {
                match name {
                    #(#lookups,)*
                    _ => ::core::option::Option::None,
                }
            }
        }
    };
    let call_info = call_info(cx);
    let paging = paging(cx);
    let mcp_schema_placeholder = format_ident!("{MCP_SCHEMA_PLACEHOLDER}");
    let metadata_placeholder = format_ident!("{METADATA_PLACEHOLDER}");
    let (into_job_call, from_job_reply) = job_calls(cx);
    let profiles = crate::Profile::ALL.map(|p| format_ident!("{}", profile_placeholder(p)));
    let [openai, anthropic, gemini] = profiles;
    let content = content(cx);
    let examples = examples(cx);
    let scopes = cx.model.scopes();
    quote! {
        /// The catalogue: every tool's metadata, and what the dispatcher
        /// needs to route a decoded `ToolRequest`.
        #[derive(
            ::core::clone::Clone,
            ::core::marker::Copy,
            ::core::fmt::Debug,
            ::core::default::Default,
        )]
        pub struct ToolCatalogue;

        #allow
        impl #rt::Catalogue for ToolCatalogue {
            type Request = ToolRequest;
            type Response = ToolResponse;

            const TOOLS: &'static [#rt::ToolInfo] = &[#(#infos),*];

            const SCOPES: &'static [&'static str] = &[#(#scopes),*];

            const MCP_SCHEMA: &'static str = #mcp_schema_placeholder;

            const METADATA: &'static str = #metadata_placeholder;

            const OPENAI_TOOLS: &'static str = #openai;

            const ANTHROPIC_TOOLS: &'static str = #anthropic;

            const GEMINI_TOOLS: &'static str = #gemini;

            #content

            #examples

            #tool

            #call_info
            #paging
            #into_job_call
            #from_job_reply
        }
    }
}

/// `const CONTENT`: the `@content` fields of each response that has any;
/// nothing (the trait's empty default) when none has.
fn content(cx: &Cx<'_>) -> TokenStream {
    let rt = &cx.rt;
    let mut entries = Vec::new();
    for tool in &cx.model.tools {
        for (action, endpoint) in tool.endpoints() {
            let Some(crate::model::TypeKind::Struct(fields)) = endpoint
                .response
                .and_then(|id| cx.model.types.get(id.index()))
                .map(|def| &def.kind)
            else {
                continue;
            };
            let fields: Vec<TokenStream> = fields
                .iter()
                .filter_map(|f| {
                    let kind = format_ident!("{}", names::pascal(f.content?.as_str()));
                    let name = &f.name;
                    Some(quote!((#name, #rt::ContentKind::#kind)))
                })
                .collect();
            if fields.is_empty() {
                continue;
            }
            let name = &tool.name;
            let action = option_str(action.map(|a| a.name.as_str()));
            entries.push(quote! {
                #rt::ResponseContent {
                    tool: #name,
                    action: #action,
                    fields: &[#(#fields),*],
                }
            });
        }
    }
    if entries.is_empty() {
        return TokenStream::new();
    }
    quote!(const CONTENT: &'static [#rt::ResponseContent] = &[#(#entries),*];)
}

/// `const EXAMPLES`: every declared example, its JSON as text; nothing
/// (the trait's empty default) when none is declared.
fn examples(cx: &Cx<'_>) -> TokenStream {
    let rt = &cx.rt;
    let json = |v: &serde_json::Value| raw_str(&serde_json::to_string(v).unwrap_or_default());
    let mut entries = Vec::new();
    for tool in &cx.model.tools {
        for (action, example) in tool.examples_with_actions() {
            let name = &tool.name;
            let action = option_str(action.map(|a| a.name.as_str()));
            let title = &example.title;
            let request = json(&example.request);
            let outcome = match &example.outcome {
                ExampleOutcome::Succeeds => quote!(#rt::ExampleOutcome::Succeeds),
                ExampleOutcome::Response { value } => {
                    let value = json(value);
                    quote!(#rt::ExampleOutcome::Response(#value))
                }
                ExampleOutcome::Error {
                    code,
                    name: variant,
                    details,
                } => {
                    // As `ToolError::details` carries them: `{"variant": {fields}}`.
                    let details = match details {
                        Some(d) => {
                            let d = json(&serde_json::json!({ variant.as_str(): d }));
                            quote!(::core::option::Option::Some(#d))
                        }
                        None => quote!(::core::option::Option::None),
                    };
                    quote!(#rt::ExampleOutcome::Error { code: #code, details: #details })
                }
            };
            entries.push(quote! {
                #rt::Example {
                    tool: #name,
                    action: #action,
                    title: #title,
                    request: #request,
                    outcome: #outcome,
                }
            });
        }
    }
    if entries.is_empty() {
        return TokenStream::new();
    }
    quote!(const EXAMPLES: &'static [#rt::Example] = &[#(#entries),*];)
}

/// `r#"…"#`, which keeps JSON readable in the generated file; a plain
/// string literal for text the raw form cannot hold.
fn raw_str(s: &str) -> Literal {
    if s.contains("\"#") {
        return Literal::string(s);
    }
    format!("r#\"{s}\"#")
        .parse()
        .unwrap_or_else(|_| Literal::string(s))
}

fn option_str(s: Option<&str>) -> TokenStream {
    match s {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

/// One `ToolInfo { .. }` of `TOOLS`.
fn tool_info(cx: &Cx<'_>, tool: &Tool) -> TokenStream {
    let rt = &cx.rt;
    let name = &tool.name;
    let title = option_str(tool.title.as_deref());
    let description = tool.docs.as_deref().unwrap_or_default();
    let tool_timing = timing(cx, tool_timing(tool));
    let actions = match &tool.kind {
        ToolKind::Single(_) => Vec::new(),
        ToolKind::Actions(actions) => actions
            .iter()
            .map(|a| {
                let name = &a.name;
                let title = option_str(a.title.as_deref());
                let description = a.docs.as_deref().unwrap_or_default();
                let action_timing = timing(cx, a.endpoint.timing);
                let paged = a.endpoint.paged;
                quote! {
                    #rt::ActionInfo {
                        name: #name,
                        title: #title,
                        description: #description,
                        timing: #action_timing,
                        paged: #paged,
                    }
                }
            })
            .collect(),
    };
    let streams = tool.stream.is_some();
    let paged = matches!(&tool.kind, ToolKind::Single(e) if e.paged);
    let task_required = tool.task_required;
    let builtin = cx.builtin(tool);
    let toolsets = tool.toolsets();
    let scopes = tool.scope_names();
    quote! {
        #rt::ToolInfo {
            name: #name,
            title: #title,
            description: #description,
            timing: #tool_timing,
            actions: &[#(#actions),*],
            streams: #streams,
            paged: #paged,
            task_required: #task_required,
            builtin: #builtin,
            toolsets: &[#(#toolsets),*],
            scopes: &[#(#scopes),*],
        }
    }
}

/// `fn call_info`: which tool and action a request calls (indices into
/// `TOOLS`), then the `CallInfo` with that action's or tool's timing.
fn call_info(cx: &Cx<'_>) -> TokenStream {
    let rt = &cx.rt;
    let mut arms = Vec::new();
    for (i, tool) in cx.model.tools.iter().enumerate() {
        let variant = names::variant(&tool.name).ident;
        let i = Literal::usize_unsuffixed(i);
        match &tool.kind {
            ToolKind::Single(e) => {
                let pattern = if e.request.is_some() {
                    quote!(ToolRequest::#variant(_))
                } else {
                    quote!(ToolRequest::#variant)
                };
                arms.push(quote!(#pattern => (#i, None)));
            }
            ToolKind::Actions(actions) => {
                let actions_enum = format_ident!("{}Request", names::pascal(&tool.name));
                for (j, a) in actions.iter().enumerate() {
                    let action = names::variant(&a.name).ident;
                    let j = Literal::usize_unsuffixed(j);
                    let pattern = if a.endpoint.request.is_some() {
                        quote!(ToolRequest::#variant(#actions_enum::#action(_)))
                    } else {
                        quote!(ToolRequest::#variant(#actions_enum::#action))
                    };
                    arms.push(quote!(#pattern => (#i, Some(#j))));
                }
            }
        }
    }
    if arms.is_empty() {
        // An empty catalogue's request enum has no values to match on.
        return quote! {
            fn call_info(request: &ToolRequest) -> #rt::CallInfo {
                match *request {}
            }
        };
    }
    quote! {
        fn call_info(request: &ToolRequest) -> #rt::CallInfo {
            use ::core::option::Option::{None, Some};
            let (tool, action): (usize, ::core::option::Option<usize>) = match request {
                #(#arms,)*
            };
            let tool = &Self::TOOLS[tool];
            match action {
                Some(action) => {
                    let action = &tool.actions[action];
                    #rt::CallInfo {
                        tool,
                        action: Some(action),
                        timing: action.timing,
                    }
                }
                None => #rt::CallInfo {
                    tool,
                    action: None,
                    timing: tool.timing,
                },
            }
        }
    }
}

/// `fn cursor` and `fn paging`: the paging fields of the `@paged` tools'
/// and actions' requests and responses; nothing (the trait's defaults)
/// when none is paged.
fn paging(cx: &Cx<'_>) -> TokenStream {
    let rt = &cx.rt;
    let mut requests = Vec::new();
    let mut responses = Vec::new();
    for tool in &cx.model.tools {
        let variant = names::variant(&tool.name).ident;
        let pascal = names::pascal(&tool.name);
        for (action, endpoint) in tool.endpoints() {
            if !endpoint.paged {
                continue;
            }
            let (request, response) = match action {
                None => (
                    quote!(ToolRequest::#variant(r)),
                    quote!(ToolResponse::#variant(r)),
                ),
                Some(a) => {
                    let action = names::variant(&a.name).ident;
                    let (req, resp) = (
                        format_ident!("{pascal}Request"),
                        format_ident!("{pascal}Response"),
                    );
                    (
                        quote!(ToolRequest::#variant(#req::#action(r))),
                        quote!(ToolResponse::#variant(#resp::#action(r))),
                    )
                }
            };
            requests.push(quote!(#request => ::core::option::Option::Some(&mut r.cursor)));
            responses.push(quote!(#response => ::core::option::Option::Some(&mut r.paging)));
        }
    }
    if requests.is_empty() {
        return TokenStream::new();
    }
    quote! {
        fn cursor(
            request: &mut ToolRequest,
        ) -> ::core::option::Option<&mut ::core::option::Option<::std::string::String>> {
            match request {
                #(#requests,)*
                _ => ::core::option::Option::None,
            }
        }

        fn paging(response: &mut ToolResponse) -> ::core::option::Option<&mut #rt::jobs::Paging> {
            match response {
                #(#responses,)*
                _ => ::core::option::Option::None,
            }
        }
    }
}

/// `fn into_job_call` and `fn from_job_reply`: the job tools' requests go
/// to the dispatcher as the runtime's `JobCall`, and its `JobReply` comes
/// back as this catalogue's `ToolResponse`.
fn job_calls(cx: &Cx<'_>) -> (TokenStream, TokenStream) {
    let rt = &cx.rt;
    let jobs: Vec<(proc_macro2::Ident, proc_macro2::Ident)> = cx
        .model
        .tools
        .iter()
        .filter(|t| cx.builtin(t))
        .filter_map(|t| {
            let (_, call) = JOB_CALLS.iter().find(|(name, _)| *name == t.name)?;
            Some((names::variant(&t.name).ident, format_ident!("{call}")))
        })
        .collect();
    let others = cx.model.tools.len() > jobs.len();
    let into = if jobs.is_empty() {
        quote!(::core::result::Result::Err(request))
    } else {
        let arms = jobs
            .iter()
            .map(|(variant, call)| quote!(ToolRequest::#variant(r) => Ok(JobCall::#call(r))));
        let rest = others.then(|| quote!(other => Err(other),));
        quote! {
            use #rt::jobs::JobCall;
            use ::core::result::Result::{Err, Ok};
            match request {
                #(#arms,)*
                #rest
            }
        }
    };
    let from = if jobs.len() == JOB_CALLS.len() {
        let arms = jobs
            .iter()
            .map(|(variant, call)| quote!(JobReply::#call(r) => ToolResponse::#variant(r)));
        quote! {
            use #rt::jobs::JobReply;
            match reply {
                #(#arms,)*
            }
        }
    } else {
        quote! {
            ::core::unreachable!(
                "this catalogue was generated without the job tools, so `into_job_call` never hands out a job call to reply to: {:?}",
                reply
            )
        }
    };
    (
        quote! {
            fn into_job_call(
                request: ToolRequest,
            ) -> ::core::result::Result<#rt::jobs::JobCall, ToolRequest> {
                #into
            }
        },
        quote! {
            fn from_job_reply(reply: #rt::jobs::JobReply) -> ToolResponse {
                #from
            }
        },
    )
}
