//! The schema backend: the model → JSON Schema 2020-12 for every type and
//! the MCP `tools` array, built as `serde_json::Value`s. Used by
//! [`crate::generate_bindings`] (files under `schemas/`) and by the Rust
//! backend, which embeds [`mcp_schema`] for the runtime's MCP server.
//! `docs/schemas.md` describes the mapping.

mod actions;
mod apps;
mod defs;
mod dialect;
mod entries;
mod form;
mod input;
mod output;
pub(crate) use form::form_schema;
pub(crate) use tools::INPUT_EXAMPLES_META;
pub(crate) mod profile;
mod reach;
#[cfg(test)]
mod tests;
mod tools;
mod types;
mod validate;

use std::path::PathBuf;

use serde_json::{Map, Value, json};

use crate::Diagnostics;
use crate::diag::Diagnostic;
use crate::model::{Model, TypeId};
use crate::output::OutputFile;
use crate::source::Sources;

use dialect::DIALECT;
use types::Cx;
use validate::{Origin, Validator};

/// The `_meta` key that lists the OAuth scopes an entry needs, all of
/// them: `["cas:write"]`; on a tool, a resource, a prompt and a tool's
/// app. Left out when it needs none.
const SCOPES_META: &str = "toolwright/scopes";

/// What the runtime's MCP server needs: `{"tools": [..], "actions": {..},
/// "errors": {..}}`. `tools` is the `tools/list` array; `actions` maps each
/// action tool to `{"<action>": {"description", "inputSchema",
/// "outputSchema"}}`; `errors` maps each tool with typed errors to their
/// schema. A catalogue with resources or prompts adds `resources`,
/// `resourceTemplates` and `prompts` (their MCP lists), `readers` (each
/// resource's arguments schema, contents, subscription, cache and
/// completions) and `getters` (each prompt's arguments schema and
/// completions). A catalogue with apps lists each app's `ui://` resource
/// in `resources` too, and adds `apps`, `{uri: html}`; docs/schemas.md.
pub(crate) fn mcp_schema(model: &Model) -> Value {
    let cx = Cx::new(model);
    let mut tools = Vec::new();
    let mut actions = Map::new();
    let mut errors = Map::new();
    for tool in &model.tools {
        let (object, per_action) = tools::tool(&cx, tool);
        tools.push(object);
        if let Some(per_action) = per_action {
            actions.insert(tool.name.clone(), per_action);
        }
        if let Some(id) = tool.errors {
            errors.insert(tool.name.clone(), tools::error_schema(&cx, id));
        }
    }
    let (app_resources, app_pages) = apps::apps(model, &tools);
    let mut schema = json!({ "tools": tools, "actions": actions, "errors": errors });
    if let Some(object) = schema.as_object_mut() {
        object.extend(entries::entries(&cx));
        if !app_pages.is_empty() {
            let listed = object.entry("resources").or_insert_with(|| json!([]));
            if let Some(listed) = listed.as_array_mut() {
                listed.extend(app_resources);
            }
            object.insert("apps".into(), Value::Object(app_pages));
        }
    }
    schema
}

/// The files of `schemas/`: `tools.json` (the MCP `tools` array) and
/// `types/<Name>.json` for every named type and the job handle.
///
/// # Errors
/// A diagnostic at each declaration whose schema the JSON Schema 2020-12
/// metaschema rejects.
pub(crate) fn generate(input: &super::Input<'_>) -> Result<Vec<OutputFile>, Diagnostics> {
    let documents = Documents::new(input.model, input.mcp_schema());
    documents.validate(input.model, input.sources)?;
    let mut files = vec![file("tools.json", &documents.mcp["tools"])];
    for (id, schema) in &documents.types {
        let name = &input.model.type_def(*id).name;
        files.push(file(format!("types/{name}.json"), schema));
    }
    files.push(file(
        format!("types/{}.json", output::JOB_HANDLE),
        &documents.job_handle,
    ));
    for profile in profile::Profile::ALL {
        let path = format!("profiles/{}.json", profile.name());
        files.push(file(path, input.profile(profile)));
    }
    Ok(files)
}

/// Checks every schema the catalogue generates (the type files, and each
/// tool's and action's input and output schemas) against the JSON Schema
/// 2020-12 metaschema. [`generate`] does it before writing; the Rust
/// backend's callers do it before embedding [`mcp_schema`].
///
/// # Errors
/// A diagnostic at each declaration whose schema is rejected.
pub(crate) fn validate(input: &super::Input<'_>) -> Result<(), Diagnostics> {
    Documents::new(input.model, input.mcp_schema()).validate(input.model, input.sources)
}

/// Every schema document of a catalogue.
struct Documents<'a> {
    /// Each named type's file, in model order.
    types: Vec<(TypeId, Value)>,
    /// The job handle's file.
    job_handle: Value,
    /// [`mcp_schema`].
    mcp: &'a Value,
}

impl<'a> Documents<'a> {
    fn new(model: &Model, mcp: &'a Value) -> Self {
        let cx = Cx::new(model);
        let types = model
            .types
            .iter()
            .map(|ty| {
                let mut schema = Map::new();
                schema.insert("$schema".into(), json!(DIALECT));
                schema.insert("title".into(), json!(ty.name));
                schema.extend(cx.type_schema(ty));
                let schema = defs::rooted(schema, &cx, Some(ty.id));
                (ty.id, Value::Object(schema))
            })
            .collect();
        let mut job_handle = Map::new();
        job_handle.insert("$schema".into(), json!(DIALECT));
        job_handle.insert("title".into(), json!(output::JOB_HANDLE));
        job_handle.extend(output::job_handle());
        Documents {
            types,
            job_handle: Value::Object(job_handle),
            mcp,
        }
    }

    /// Type files first: a type's mistake is reported once, at the type,
    /// rather than again in every tool that uses it.
    ///
    /// Each schema is checked once. A `$defs` entry is either a named
    /// type's schema, exactly as its own file holds it, or one of the two
    /// fixed definitions (the job handle, the tool error; unit tests check
    /// those), so every document is checked with its `$defs` left out.
    fn validate(&self, model: &Model, sources: &Sources) -> Result<(), Diagnostics> {
        let validator = Validator::new();
        let mut found: Vec<Diagnostic> = Vec::new();
        let mut report = |origin: Origin<'_>, rejection: validate::Rejection| {
            let d = validate::diagnostic(model, sources, origin, &rejection);
            if !found.contains(&d) {
                found.push(d);
            }
        };
        let mut failed = false;
        for (id, schema) in &self.types {
            if let Err(rejection) = validator.check(&without_defs(schema)) {
                failed = true;
                report(Origin::Type(*id), rejection);
            }
        }
        if !failed {
            let listed = self.mcp["tools"].as_array().map_or(&[][..], Vec::as_slice);
            // `tools` lists the model's tools in order.
            for (tool, entry) in model.tools.iter().zip(listed) {
                for schema in tool_schemas(self.mcp, entry, &tool.name) {
                    if let Err(rejection) = validator.check(&without_defs(schema)) {
                        report(Origin::Tool(tool), rejection);
                    }
                }
            }
        }
        if found.is_empty() {
            Ok(())
        } else {
            Err(Diagnostics::new(found))
        }
    }
}

/// `schema` without its `$defs`, which are checked on their own.
fn without_defs(schema: &Value) -> Value {
    match schema {
        Value::Object(map) if map.contains_key("$defs") => Value::Object(
            map.iter()
                .filter(|(k, _)| *k != "$defs")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A tool's input, output and error schemas, and its actions'.
fn tool_schemas<'v>(mcp: &'v Value, entry: &'v Value, name: &str) -> Vec<&'v Value> {
    let mut out = vec![&entry["inputSchema"], &entry["outputSchema"]];
    if let Some(errors) = mcp["errors"].get(name) {
        out.push(errors);
    }
    if let Some(actions) = mcp["actions"][name].as_object() {
        for action in actions.values() {
            out.extend([&action["inputSchema"], &action["outputSchema"]]);
        }
    }
    out
}

/// `profile`'s tool definitions of the MCP document `mcp`, as the file at
/// `path`: the schema binding's, and the copies the packages ship.
pub(crate) fn profile_file(path: impl Into<PathBuf>, tools: &Value) -> OutputFile {
    file(path, tools)
}

/// A JSON file: pretty-printed, with a final newline.
fn file(path: impl Into<PathBuf>, value: &Value) -> OutputFile {
    let mut contents = serde_json::to_string_pretty(value).unwrap_or_default();
    contents.push('\n');
    OutputFile {
        path: path.into(),
        contents,
    }
}
