//! Action tools at the MCP edge: the `action` argument is checked before
//! decoding so a wrong one lists the choices, and the `help` and `schema`
//! pseudo-actions are answered from the catalogue without a handler.

use std::fmt::Write as _;

use rmcp::model::{CallToolResult, JsonObject};
use serde_json::json;

use super::result;
use super::schema::McpSchema;
use crate::{Json, ToolError, ToolInfo, codes};

/// Describes the tool and its actions.
const HELP: &str = "help";
/// Gives the per-action schemas, all or `of_action`'s.
const SCHEMA: &str = "schema";
/// The argument of `schema` naming one action.
const OF_ACTION: &str = "of_action";

/// What to do with a call of an action tool.
pub(super) enum Route {
    /// Decode and dispatch it: the action is one of the tool's.
    Dispatch,
    /// Answer with this result: `help`, `schema`, or a wrong `action`.
    Answer(CallToolResult),
}

/// Routes a call of the action tool `info` by its `action` argument.
pub(super) fn route(info: &ToolInfo, schema: &McpSchema, args: &JsonObject) -> Route {
    let action = match args.get("action") {
        Some(Json::String(action)) => action.as_str(),
        Some(_) => {
            return answer_error(ToolError::invalid_request(format!(
                "field `action`: expected a string, one of {}",
                choices(info)
            )));
        }
        None => {
            return answer_error(ToolError::invalid_request(format!(
                "tool `{}` needs an `action`: one of {}",
                info.name,
                choices(info)
            )));
        }
    };
    match action {
        HELP => Route::Answer(help(info)),
        SCHEMA => Route::Answer(schemas(info, schema, args.get(OF_ACTION))),
        name if info.action(name).is_some() => Route::Dispatch,
        name => answer_error(unknown_action(info, name)),
    }
}

fn answer_error(e: ToolError) -> Route {
    Route::Answer(result::error(&e))
}

/// `UNKNOWN_ACTION`, listing the actions there are.
fn unknown_action(info: &ToolInfo, name: &str) -> ToolError {
    // Names are echoed back; a long one is cut so the message stays short.
    let shown: String = name.chars().take(64).collect();
    let available: Vec<&str> = action_names(info).collect();
    ToolError::new(
        codes::UNKNOWN_ACTION,
        format!(
            "tool `{}` has no action `{shown}`; available actions: {}",
            info.name,
            available.join(", ")
        ),
    )
    .with_details(json!({ "available": available }))
}

/// The tool's actions, then `help` and `schema`.
fn action_names(info: &ToolInfo) -> impl Iterator<Item = &'static str> {
    info.actions.iter().map(|a| a.name).chain([HELP, SCHEMA])
}

/// The action names for a message: "`read`, `write`, `help`, `schema`".
fn choices(info: &ToolInfo) -> String {
    let names: Vec<String> = action_names(info).map(|n| format!("`{n}`")).collect();
    names.join(", ")
}

/// `help`: the tool's description and each action's.
fn help(info: &ToolInfo) -> CallToolResult {
    let actions: Vec<Json> = info
        .actions
        .iter()
        .map(|a| {
            json!({
                "name": a.name,
                "title": a.title,
                "description": a.description,
                "timing": a.timing,
            })
        })
        .collect();
    let mut text = format!("{}: {}\n\nActions:\n", info.name, info.description);
    for a in info.actions {
        let _ = writeln!(
            text,
            "- {} ({}): {}",
            a.name,
            a.timing.as_str(),
            a.description
        );
    }
    let _ = write!(
        text,
        "- {HELP}: this description\n- {SCHEMA}: the actions' input and output schemas \
         (`{OF_ACTION}` names one)"
    );
    let value = json!({
        "action": HELP,
        "tool": info.name,
        "description": info.description,
        "actions": actions,
    });
    let mut result = result::structured(value);
    result.content = vec![rmcp::model::ContentBlock::text(text)];
    result
}

/// `schema`: the input and output schemas of every action, or of
/// `of_action`'s alone.
fn schemas(info: &ToolInfo, schema: &McpSchema, of_action: Option<&Json>) -> CallToolResult {
    let declared = schema.actions.get(info.name);
    let wanted: Vec<&str> = match of_action {
        None | Some(Json::Null) => info.actions.iter().map(|a| a.name).collect(),
        Some(Json::String(name)) if info.action(name).is_some() => vec![name.as_str()],
        Some(Json::String(name)) => return result::error(&unknown_action(info, name)),
        Some(_) => {
            return result::error(&ToolError::invalid_request(format!(
                "field `{OF_ACTION}`: expected a string, one of the actions of `{}`",
                info.name
            )));
        }
    };
    let mut actions = serde_json::Map::new();
    for name in wanted {
        let entry = declared.and_then(|d| d.get(name));
        let description = entry.map_or_else(
            || info.action(name).map_or("", |a| a.description).to_owned(),
            |e| e.description.clone(),
        );
        let mut described = serde_json::Map::new();
        described.insert("description".into(), Json::from(description));
        if let Some(input) = entry.and_then(|e| e.input_schema.clone()) {
            described.insert("inputSchema".into(), input);
        }
        if let Some(output) = entry.and_then(|e| e.output_schema.clone()) {
            described.insert("outputSchema".into(), output);
        }
        actions.insert(name.to_owned(), Json::Object(described));
    }
    result::structured(json!({ "action": SCHEMA, "tool": info.name, "actions": actions }))
}
