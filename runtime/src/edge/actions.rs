//! Action tools at the edge: the `action` argument is checked before
//! decoding so a wrong one lists the choices, and the `help`, `schema` and
//! `status` pseudo-actions are answered from the catalogue without a
//! handler (`status` only when the tool declares no action of that name).

use std::fmt::Write as _;

use serde_json::json;

use super::{JsonObject, Schema};
use crate::{Json, ToolError, ToolInfo};

/// Describes the tool and its actions.
const HELP: &str = "help";
/// Gives the per-action schemas, all or `of_action`'s.
const SCHEMA: &str = "schema";
/// Whether the tool is enabled, the server's version, where it runs.
const STATUS: &str = "status";
/// The argument of `schema` naming one action.
const OF_ACTION: &str = "of_action";
/// The argument naming the action.
const ACTION: &str = crate::wire::ACTION_TAG;

/// What `status` says about the server a tool is served by.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Served<'a> {
    /// The server's version, as `initialize` gives it.
    pub(crate) version: &'a str,
    /// Where the tool runs: `local` or `mcp` (a gateway's backends).
    pub(crate) backend: &'a str,
}

/// What to do with a call of an action tool.
pub(crate) enum Route {
    /// Call it: the action is one of the tool's.
    Dispatch,
    /// Answer with this: `help`, `schema`, or the error for a wrong
    /// `action`.
    Answer(Result<Answer, ToolError>),
}

/// An answer the edge gives itself: a value and the text for people.
pub(crate) struct Answer {
    /// The structured answer.
    pub(crate) value: Json,
    /// The same for people: the value's JSON, or a description. MCP's
    /// text content; the web routes answer with the value alone.
    #[cfg_attr(not(feature = "mcp"), expect(dead_code))]
    pub(crate) text: String,
}

impl Answer {
    /// An answer whose text is its value's JSON.
    fn json(value: Json) -> Self {
        Answer {
            text: value.to_string(),
            value,
        }
    }
}

/// Routes a call of the action tool `info` by its `action` argument.
pub(crate) fn route(
    info: &ToolInfo,
    schema: &Schema,
    args: &JsonObject,
    served: Served<'_>,
) -> Route {
    let action = match args.get(ACTION) {
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
        HELP => Route::Answer(check_fields(HELP, args, &[]).map(|()| help(info))),
        SCHEMA => Route::Answer(
            check_fields(SCHEMA, args, &[OF_ACTION])
                .and_then(|()| schemas(info, schema, args.get(OF_ACTION))),
        ),
        name if info.action(name).is_some() => Route::Dispatch,
        STATUS => Route::Answer(check_fields(STATUS, args, &[]).map(|()| status(info, served))),
        name => answer_error(unknown_action(info, name)),
    }
}

fn answer_error(e: ToolError) -> Route {
    Route::Answer(Err(e))
}

/// `UNKNOWN_ACTION`, listing the actions there are.
fn unknown_action(info: &ToolInfo, name: &str) -> ToolError {
    let available: Vec<&str> = action_names(info).collect();
    ToolError::unknown_action(info.name, name, &available)
}

/// The arguments of a built-in action, which takes `action` and `takes`:
/// any other is refused as a declared action refuses a field it does not
/// declare, so a built-in is no way around the schema.
fn check_fields(action: &str, args: &JsonObject, takes: &[&str]) -> Result<(), ToolError> {
    let Some(field) = args
        .keys()
        .find(|key| *key != ACTION && !takes.contains(&key.as_str()))
    else {
        return Ok(());
    };
    let expected = match takes {
        [] => format!("`{ACTION}`"),
        [one] => format!("`{ACTION}` or `{one}`"),
        more => format!("one of `{ACTION}`, `{}`", more.join("`, `")),
    };
    Err(ToolError::invalid_request(format!(
        "unknown field `{}`, expected {expected} (the `{action}` action takes no other)",
        crate::error::shown(field)
    ))
    .with_details(json!({ "field": field })))
}

/// The tool's actions, then `help`, `schema` and (unless declared)
/// `status`.
fn action_names(info: &ToolInfo) -> impl Iterator<Item = &'static str> {
    let status = info.action(STATUS).is_none().then_some(STATUS);
    info.actions
        .iter()
        .map(|a| a.name)
        .chain([HELP, SCHEMA])
        .chain(status)
}

/// The action names for a message: "`read`, `write`, `help`, `schema`".
fn choices(info: &ToolInfo) -> String {
    let names: Vec<String> = action_names(info).map(|n| format!("`{n}`")).collect();
    names.join(", ")
}

/// `help`: the tool's description and each action's.
fn help(info: &ToolInfo) -> Answer {
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
    if info.action(STATUS).is_none() {
        let _ = write!(
            text,
            "\n- {STATUS}: whether the tool is enabled, the server's version and where it runs"
        );
    }
    let value = json!({
        "action": HELP,
        "tool": info.name,
        "description": info.description,
        "actions": actions,
    });
    Answer { value, text }
}

/// `status`: the tool is enabled (it is served, or the call would not
/// have got here), the server's version, and where the tool runs.
fn status(info: &ToolInfo, served: Served<'_>) -> Answer {
    let value = json!({
        "action": STATUS,
        "tool": info.name,
        "enabled": true,
        "version": served.version,
        "backend": served.backend,
    });
    let text = format!(
        "{}: enabled, served by version {} ({} backend)",
        info.name, served.version, served.backend
    );
    Answer { value, text }
}

/// `schema`: the input and output schemas of every action, or of
/// `of_action`'s alone.
fn schemas(
    info: &ToolInfo,
    schema: &Schema,
    of_action: Option<&Json>,
) -> Result<Answer, ToolError> {
    let wanted: Vec<&str> = match of_action {
        None | Some(Json::Null) => info.actions.iter().map(|a| a.name).collect(),
        Some(Json::String(name)) if info.action(name).is_some() => vec![name.as_str()],
        Some(Json::String(name)) => return Err(unknown_action(info, name)),
        Some(_) => {
            return Err(ToolError::invalid_request(format!(
                "field `{OF_ACTION}`: expected a string, one of the actions of `{}`",
                info.name
            )));
        }
    };
    let mut actions = serde_json::Map::new();
    for name in wanted {
        let entry = schema.action(info.name, name);
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
    Ok(Answer::json(
        json!({ "action": SCHEMA, "tool": info.name, "actions": actions }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ActionInfo, ToolTiming};

    fn tool(actions: &'static [ActionInfo]) -> ToolInfo {
        ToolInfo {
            name: "vcs",
            title: None,
            description: "Version control.",
            timing: ToolTiming::Sync,
            actions,
            streams: false,
            paged: false,
            task_required: false,
            builtin: false,
            toolsets: &["vcs"],
            scopes: &[],
        }
    }

    const fn action(name: &'static str) -> ActionInfo {
        ActionInfo {
            name,
            title: None,
            description: "",
            timing: ToolTiming::Sync,
            paged: false,
        }
    }

    const SERVED: Served<'static> = Served {
        version: "1.2.3",
        backend: "mcp",
    };

    fn routed(info: &ToolInfo, action: &str) -> Route {
        let schema = Schema::parse(r#"{"tools": [], "actions": {}}"#).expect("a schema");
        let args = json!({ "action": action });
        route(info, &schema, args.as_object().expect("an object"), SERVED)
    }

    #[test]
    fn status_is_answered_unless_the_tool_declares_it() {
        static DIFF: [ActionInfo; 1] = [action("diff")];
        let Route::Answer(Ok(answer)) = routed(&tool(&DIFF), STATUS) else {
            panic!("the built-in status answers");
        };
        assert_eq!(
            answer.value,
            json!({"action": "status", "tool": "vcs", "enabled": true,
                   "version": "1.2.3", "backend": "mcp"})
        );
        static DECLARED: [ActionInfo; 2] = [action("status"), action("diff")];
        let declared = tool(&DECLARED);
        assert!(matches!(routed(&declared, STATUS), Route::Dispatch));
        // Listed once, as the tool's own.
        let names: Vec<&str> = action_names(&declared).collect();
        assert_eq!(names, ["status", "diff", "help", "schema"]);
    }
}
