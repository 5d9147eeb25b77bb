//! Per tool: the action enums of an action tool, and the marker struct with
//! its `Tool` impl. Also the re-export of the runtime's job tool items.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::context::{Cx, allow_deprecated, deprecated_attr};
use super::emit_tagged::{TaggedEnum, TaggedVariant, tagged_enum};
use super::{docs, layout, names};
use crate::model::{Action, Endpoint, Timing, Tool, ToolKind, TypeId};

/// The action enums (for an action tool), the marker and its `Tool` impl.
pub(crate) fn tool(cx: &Cx<'_>, tool: &Tool) -> TokenStream {
    let actions = match &tool.kind {
        ToolKind::Single(_) => TokenStream::new(),
        ToolKind::Actions(actions) => {
            let request = action_enum(cx, tool, actions, Direction::Request);
            let validate = super::emit_validate::action_enum_impl(cx, tool);
            let response = action_enum(cx, tool, actions, Direction::Response);
            quote!(#request #validate #response)
        }
    };
    let marker = marker(cx, tool);
    quote!(#actions #marker)
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    Request,
    Response,
}

impl Direction {
    pub(crate) fn suffix(self) -> &'static str {
        match self {
            Direction::Request => "Request",
            Direction::Response => "Response",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Direction::Request => "request",
            Direction::Response => "response",
        }
    }

    /// The endpoint's request or response type.
    pub(crate) fn of(self, endpoint: &Endpoint) -> Option<TypeId> {
        match self {
            Direction::Request => endpoint.request,
            Direction::Response => endpoint.response,
        }
    }
}

/// `FsRequest { Read(FsReadRequest), .. }`: one variant per action, tagged
/// by `"action"`.
fn action_enum(cx: &Cx<'_>, tool: &Tool, actions: &[Action], direction: Direction) -> TokenStream {
    let name = format_ident!("{}{}", names::pascal(&tool.name), direction.suffix());
    let payload_of = |a: &Action| direction.of(&a.endpoint);
    let variants = actions
        .iter()
        .map(|a| {
            let noun = direction.noun();
            let docs = match (direction, a.docs.as_deref()) {
                (Direction::Request, Some(text)) => docs::attrs(text),
                (Direction::Request, None) => docs::attrs(&format!("Calls action `{}`.", a.name)),
                (Direction::Response, _) => docs::attrs(&format!(
                    "The {noun} of action `{}`{}.",
                    a.name,
                    if payload_of(a).is_none() {
                        ": an acknowledgement"
                    } else {
                        ""
                    }
                )),
            };
            TaggedVariant {
                ident: names::variant(&a.name).ident,
                wire: a.name.clone(),
                payload: payload_of(a).map(|id| cx.type_name(id)),
                docs,
                deprecated: a.deprecated.as_ref(),
            }
        })
        .collect();
    let sizes = actions
        .iter()
        .map(|a| payload_of(a).map_or(0, |id| cx.size(id)))
        .collect();
    let touches = actions
        .iter()
        .any(|a| a.deprecated.is_some() || payload_of(a).is_some_and(|id| cx.type_deprecated(id)));
    tagged_enum(
        cx,
        &TaggedEnum {
            name,
            tag: "action",
            expecting: format!("a {} of tool `{}`", direction.noun(), tool.name),
            docs: docs::attrs(&format!(
                "The {} of tool `{}`: one variant per action, `{{\"action\": name, ...fields}}` on the wire.",
                direction.noun(),
                tool.name
            )),
            variants,
            lopsided: layout::lopsided(sizes),
            touches_deprecated: touches,
            request: direction == Direction::Request,
        },
    )
}

/// `pub struct AddTool;` and its `Tool` impl.
fn marker(cx: &Cx<'_>, tool: &Tool) -> TokenStream {
    let rt = &cx.rt;
    let marker = marker_ident(tool);
    let pascal = names::pascal(&tool.name);
    let intro = format!(
        "Tool `{}`, at the type level: its `Tool` impl names its request, response, error and stream types.",
        tool.name
    );
    let docs = match tool.docs.as_deref() {
        Some(text) => docs::attrs(&format!("{text}\n\n{intro}")),
        None => docs::attrs(&intro),
    };
    let deprecated = deprecated_attr(tool.deprecated.as_ref());
    let allow = allow_deprecated(cx.tool_touches_deprecated(tool));
    let unit = quote!(());
    let (request, response) = match &tool.kind {
        ToolKind::Single(e) => (
            e.request
                .map_or_else(|| unit.clone(), |id| cx.type_name(id)),
            e.response
                .map_or_else(|| unit.clone(), |id| cx.type_name(id)),
        ),
        ToolKind::Actions(_) => {
            let request = format_ident!("{pascal}Request");
            let response = format_ident!("{pascal}Response");
            (quote!(#request), quote!(#response))
        }
    };
    let error = tool
        .errors
        .map_or_else(|| quote!(#rt::ToolError), |id| cx.type_name(id));
    let chunk = tool.stream.map_or(unit, |id| cx.type_name(id));
    let name = &tool.name;
    let timing = timing(cx, tool_timing(tool));
    let description = tool.docs.as_deref().unwrap_or_default();
    quote! {
        #docs
        #deprecated
        #[derive(
            ::core::clone::Clone,
            ::core::marker::Copy,
            ::core::fmt::Debug,
            ::core::default::Default,
        )]
        pub struct #marker;

        #allow
        impl #rt::Tool for #marker {
            type Request = #request;
            type Response = #response;
            type Error = #error;
            type Chunk = #chunk;

            const NAME: &'static str = #name;
            const TIMING: #rt::ToolTiming = #timing;
            const DESCRIPTION: &'static str = #description;
        }
    }
}

/// `AddTool`.
pub(crate) fn marker_ident(tool: &Tool) -> proc_macro2::Ident {
    format_ident!("{}Tool", names::pascal(&tool.name))
}

/// The tool's timing: an action tool's is the longest of its actions'.
pub(crate) fn tool_timing(tool: &Tool) -> Timing {
    match &tool.kind {
        ToolKind::Single(e) => e.timing,
        ToolKind::Actions(actions) => actions
            .iter()
            .map(|a| a.endpoint.timing)
            .max_by_key(|t| rank(*t))
            .unwrap_or(Timing::Sync),
    }
}

/// The order of `ToolTiming`: shortest first, `fire_and_forget` last.
fn rank(timing: Timing) -> usize {
    Timing::NAMES
        .iter()
        .position(|n| *n == timing.as_str())
        .unwrap_or(0)
}

/// `::toolwright::__private::ToolTiming::AsyncShort`.
pub(crate) fn timing(cx: &Cx<'_>, timing: Timing) -> TokenStream {
    let rt = &cx.rt;
    let variant = names::variant(timing.as_str()).ident;
    quote!(#rt::ToolTiming::#variant)
}

/// `pub use ::toolwright::__private::jobs::{JobRef, .., JobStatusTool, ..};`
/// for the items of built-in files, which the runtime defines once.
pub(crate) fn builtin_reexport(cx: &Cx<'_>) -> Option<TokenStream> {
    let rt = &cx.rt;
    let model = cx.model;
    let mut names: Vec<proc_macro2::Ident> = model
        .types
        .iter()
        .filter(|t| model.is_builtin(&t.location))
        .map(|t| names::type_ident(&t.name))
        .collect();
    for tool in model.tools.iter().filter(|t| cx.builtin(t)) {
        if let ToolKind::Actions(_) = tool.kind {
            let pascal = names::pascal(&tool.name);
            names.push(format_ident!("{pascal}Request"));
            names.push(format_ident!("{pascal}Response"));
        }
        names.push(marker_ident(tool));
    }
    if names.is_empty() {
        return None;
    }
    // A catalogue included in a private module need not use every job
    // item; the re-export is there for the user, not a promise to use it.
    Some(quote! {
        #[allow(unused_imports)]
        pub use #rt::jobs::{#(#names),*};
    })
}
