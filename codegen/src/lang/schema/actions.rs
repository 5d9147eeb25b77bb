//! Action tools: one plain object as the tool's input (many clients reject
//! a top-level `oneOf`), each action's exact schemas beside it, and an
//! output that is any one action's answer.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value as Json, json};

use super::defs::{rooted, with_defs};
use super::input::request;
use super::output;
use super::reach;
use super::types::{Cx, describe};
use crate::model::{Action, Field, TypeId};

/// The pseudo-actions every action tool answers without a handler.
const HELP: &str = "help";
const SCHEMA: &str = "schema";
/// Answered without a handler too, unless the tool declares an action of
/// that name, which it then is (HIP-0300's `vcs` and `test` do).
const STATUS: &str = "status";
/// The argument of `schema` naming one action.
const OF_ACTION: &str = "of_action";
/// The argument naming the action.
const ACTION: &str = "action";

/// The schemas of an action tool.
pub(super) struct ActionSchemas {
    /// The tool's `inputSchema`: every action's fields, all optional.
    pub(super) input: Map<String, Json>,
    /// The tool's `outputSchema`: any one action's answer.
    pub(super) output: Map<String, Json>,
    /// `{"<action>": {"description", "inputSchema", "outputSchema"}}`.
    pub(super) actions: Json,
}

pub(super) fn schemas(cx: &Cx<'_>, actions: &[Action]) -> ActionSchemas {
    let mut entries = Map::new();
    let mut answers = Vec::new();
    let mut answer_types = BTreeSet::new();
    for action in actions {
        let endpoint = &action.endpoint;
        let input = with_action(request(cx, endpoint.request), &action.name);
        let answer = output::with_timing(
            with_action(output::response(cx, endpoint.response), &action.name),
            endpoint.timing,
        );
        let mut entry = Map::new();
        if let Some(title) = &action.title {
            entry.insert("title".into(), json!(title));
        }
        entry.insert(
            "description".into(),
            json!(describe(action.docs.as_deref(), action.deprecated.as_ref()).unwrap_or_default()),
        );
        entry.insert(
            "inputSchema".into(),
            Json::Object(rooted(input, cx, endpoint.request)),
        );
        let answered =
            reach::answered_from(cx.model, &endpoint.response.into_iter().collect::<Vec<_>>());
        let mut answer_root = with_defs(answer.clone(), cx, &answered);
        output::define_job_handle(&mut answer_root, std::iter::once(endpoint.timing));
        entry.insert("outputSchema".into(), Json::Object(answer_root));
        entries.insert(action.name.clone(), Json::Object(entry));
        answers.push(Json::Object(answer));
        answer_types.extend(answered);
    }
    answers.push(json!({
        "properties": { ACTION: { "enum": builtins(actions) } },
        "required": [ACTION],
    }));
    let mut combined = Map::new();
    combined.insert("type".into(), json!("object"));
    combined.insert("anyOf".into(), Json::Array(answers));
    let mut output = with_defs(combined, cx, &answer_types);
    output::define_job_handle(&mut output, actions.iter().map(|a| a.endpoint.timing));
    ActionSchemas {
        input: merged_input(cx, actions),
        output,
        actions: Json::Object(entries),
    }
}

/// `schema` with an `action` property holding `name`, required.
fn with_action(mut schema: Map<String, Json>, name: &str) -> Map<String, Json> {
    if let Some(Json::Object(properties)) = schema.get_mut("properties") {
        properties.insert(ACTION.into(), json!({ "const": name }));
    } else {
        schema.insert("properties".into(), json!({ ACTION: { "const": name } }));
    }
    let mut required = vec![json!(ACTION)];
    if let Some(Json::Array(old)) = schema.remove("required") {
        required.extend(old);
    }
    schema.insert("required".into(), Json::Array(required));
    schema
}

/// The tool's one input object: `action` (required), then every action's
/// fields as optional properties saying which actions use them. There is
/// no `additionalProperties: false`: the server checks the chosen
/// action's fields against that action's own schema.
fn merged_input(cx: &Cx<'_>, actions: &[Action]) -> Map<String, Json> {
    let mut uses: BTreeMap<&str, Vec<(&Action, &Field)>> = BTreeMap::new();
    let mut requests = Vec::new();
    for action in actions {
        if let Some(id) = action.endpoint.request {
            requests.push(id);
            for field in cx.model.type_def(id).kind.fields() {
                uses.entry(field.name.as_str())
                    .or_default()
                    .push((action, field));
            }
        }
    }
    let mut properties: Map<String, Json> = uses
        .iter()
        .map(|(name, uses)| ((*name).to_owned(), Json::Object(merged_field(cx, uses))))
        .collect();
    properties.insert(ACTION.into(), action_property(actions));
    if !properties.contains_key(OF_ACTION) {
        let names: Vec<&str> = actions.iter().map(|a| a.name.as_str()).collect();
        properties.insert(
            OF_ACTION.into(),
            json!({
                "type": "string",
                "enum": names,
                "description": format!("Only with `{SCHEMA}`: the one action whose schemas to give."),
            }),
        );
    }
    let mut input = Map::new();
    input.insert("type".into(), json!("object"));
    input.insert("properties".into(), Json::Object(properties));
    input.insert("required".into(), json!([ACTION]));
    let reached: BTreeSet<TypeId> = reach::reached_from(cx.model, &requests);
    with_defs(input, cx, &reached)
}

/// The pseudo-actions a tool with `actions` answers itself: `help`,
/// `schema`, and `status` unless one of its actions has that name.
fn builtins(actions: &[Action]) -> Vec<&'static str> {
    let mut names = vec![HELP, SCHEMA];
    if !actions.iter().any(|a| a.name == STATUS) {
        names.push(STATUS);
    }
    names
}

/// `action`: which action to run, each listed with its docs' first line.
fn action_property(actions: &[Action]) -> Json {
    let mut names: Vec<&str> = actions.iter().map(|a| a.name.as_str()).collect();
    let builtins = builtins(actions);
    names.extend(&builtins);
    let mut description = "The action to run:".to_owned();
    for action in actions {
        description.push_str(&format!("\n- `{}`", action.name));
        if action.deprecated.is_some() {
            description.push_str(" (deprecated)");
        }
        if let Some(line) = action.docs.as_deref().and_then(|d| d.lines().next()) {
            description.push_str(": ");
            description.push_str(line);
        }
    }
    description.push_str(&format!(
        "\n- `{HELP}`: describe this tool and its actions\n- `{SCHEMA}`: each action's input and output schemas (`{OF_ACTION}` names one)"
    ));
    if builtins.contains(&STATUS) {
        description.push_str(&format!(
            "\n- `{STATUS}`: whether the tool is enabled, the server's version and where it runs"
        ));
    }
    json!({ "type": "string", "enum": names, "description": description })
}

/// One property standing for a field of several actions: its type (each
/// distinct one, when they differ), its docs, and which actions use it.
fn merged_field(cx: &Cx<'_>, uses: &[(&Action, &Field)]) -> Map<String, Json> {
    let mut shapes: Vec<Map<String, Json>> = Vec::new();
    let mut docs: Vec<&str> = Vec::new();
    for (_, field) in uses {
        let mut shape = cx.field_schema(field);
        for annotation in ["description", "deprecated", "default"] {
            shape.remove(annotation);
        }
        if !shapes.contains(&shape) {
            shapes.push(shape);
        }
        if let Some(doc) = field.docs.as_deref()
            && !docs.contains(&doc)
        {
            docs.push(doc);
        }
    }
    let mut schema = if shapes.len() == 1 {
        shapes.remove(0)
    } else {
        let mut any = Map::new();
        any.insert(
            "anyOf".into(),
            Json::Array(shapes.into_iter().map(Json::Object).collect()),
        );
        any
    };
    let users: Vec<String> = uses
        .iter()
        .map(|(action, field)| {
            if field.required {
                format!("`{}` (required)", action.name)
            } else {
                format!("`{}`", action.name)
            }
        })
        .collect();
    let mut description = docs.join("\n");
    if !description.is_empty() {
        description.push_str("\n\n");
    }
    description.push_str(&format!("Used by: {}.", users.join(", ")));
    schema.insert("description".into(), json!(description));
    let defaults: Vec<_> = uses.iter().map(|(_, f)| f.default.as_ref()).collect();
    if let Some(Some(first)) = defaults.first()
        && defaults.iter().all(|d| *d == Some(*first))
        && let Some(default) = cx.field_schema(uses[0].1).remove("default")
    {
        schema.insert("default".into(), default);
    }
    if uses.iter().all(|(_, f)| f.deprecated.is_some()) {
        schema.insert("deprecated".into(), json!(true));
    }
    schema
}
