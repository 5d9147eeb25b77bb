//! The catalogue's generated MCP schema text as the edge reads it: each
//! tool's input schema and the per-action schemas of action tools.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::JsonObject;
use crate::Json;

/// One action of an action tool, as the schema text describes it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ActionSchema {
    /// The action's doc comment.
    #[serde(default)]
    pub(crate) description: String,
    /// JSON Schema of the action's arguments.
    #[serde(default)]
    pub(crate) input_schema: Option<Json>,
    /// JSON Schema of the action's result.
    #[serde(default)]
    pub(crate) output_schema: Option<Json>,
}

/// A tool's entry, as far as the edge needs it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolSchema {
    name: String,
    #[serde(default)]
    input_schema: JsonObject,
}

/// What a catalogue's MCP schema text holds for the edge:
/// `{"tools": [{name, inputSchema, …}…], "actions": {tool: {action: …}}}`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Schema {
    tools: Vec<ToolSchema>,
    /// Per-action schemas of the action tools.
    #[serde(default)]
    pub(crate) actions: BTreeMap<String, BTreeMap<String, ActionSchema>>,
}

impl Schema {
    /// Parses the schema text.
    ///
    /// # Errors
    /// The JSON error, when the text is not the schema's shape.
    pub(crate) fn parse(text: &str) -> Result<Schema, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The input schema of the tool with this name.
    pub(crate) fn input(&self, tool: &str) -> Option<&JsonObject> {
        self.tools
            .iter()
            .find(|t| t.name == tool)
            .map(|t| &t.input_schema)
    }

    /// The schemas of one action of an action tool.
    pub(crate) fn action(&self, tool: &str, action: &str) -> Option<&ActionSchema> {
        self.actions.get(tool)?.get(action)
    }
}
