//! The calls and results of `tools.py`: one `ToolCall` / `ToolResult`
//! pair per tool, or per action of an action tool.

use serde::Serialize;

use super::classes::Classes;
use super::names::{self, Unique};
use crate::lang::docs_text::{first_paragraph, with_examples};
use crate::model::{Action, Endpoint, Model, Tool, ToolKind, TypeId};

/// A `ToolCall` / `ToolResult` pair for a tool or action.
#[derive(Serialize)]
pub(crate) struct Envelope {
    /// Discriminator tag: `add` or `fs.read`.
    tag: String,
    tool: String,
    action: Option<String>,
    call: String,
    result: String,
    call_doc: String,
    result_doc: String,
    /// `models.MathOperands` when the call has arguments.
    args: Option<String>,
    /// `models.MathResult` when the result has data.
    data: Option<String>,
}

/// The endpoints of a tool: `(None, e)` for a plain tool, `(Some(action),
/// e)` per action.
pub(super) fn endpoints(tool: &Tool) -> Vec<(Option<&Action>, Endpoint)> {
    tool.endpoints().into_iter().map(|(a, e)| (a, *e)).collect()
}

pub(super) fn envelopes(model: &Model, classes: &Classes) -> (Vec<Envelope>, Vec<String>) {
    let mut unique = Unique::default();
    let mut out = Vec::new();
    let mut action_tools = Vec::new();
    for tool in &model.tools {
        if matches!(tool.kind, ToolKind::Actions(_)) {
            action_tools.push(names::string(&tool.name));
        }
        for (action, endpoint) in endpoints(tool) {
            let stem = match action {
                None => names::pascal(&tool.name),
                Some(a) => format!("{}{}", names::pascal(&tool.name), names::pascal(&a.name)),
            };
            let what = match action {
                None => format!("`{}`", tool.name),
                Some(a) => format!("`{}` action `{}`", tool.name, a.name),
            };
            let summary = action
                .and_then(|a| first_paragraph(a.docs.as_deref()))
                .or_else(|| first_paragraph(tool.docs.as_deref()));
            let with = |s: String| match &summary {
                Some(summary) => format!("{s}: {summary}"),
                None => format!("{s}."),
            };
            // A call's docstring lists the examples of what it calls.
            let examples = action.map_or(&tool.examples, |a| &a.examples);
            let call_doc = with(format!("A call of {what}"));
            let call_doc = with_examples(Some(&call_doc), examples).unwrap_or(call_doc);
            let model_ref =
                |id: Option<TypeId>| id.map(|id| format!("models.{}", classes.types[id.index()]));
            out.push(Envelope {
                tag: names::string(&match action {
                    None => tool.name.clone(),
                    Some(a) => format!("{}.{}", tool.name, a.name),
                }),
                tool: names::string(&tool.name),
                action: action.map(|a| names::string(&a.name)),
                call: unique.name(format!("{stem}Call")),
                result: unique.name(format!("{stem}Result")),
                call_doc: names::docstring(&call_doc, 4),
                result_doc: names::docstring(&with(format!("The result of {what}")), 4),
                args: model_ref(endpoint.request),
                data: model_ref(endpoint.response),
            });
        }
    }
    (out, action_tools)
}
