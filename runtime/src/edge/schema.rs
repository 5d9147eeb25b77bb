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
    /// Its `_meta`: the codes of its typed errors, labels of its calls'
    /// metrics.
    #[cfg(feature = "metrics")]
    #[serde(default, rename = "_meta")]
    meta: ToolMeta,
}

/// What the edge reads of a tool's `_meta`.
#[cfg(feature = "metrics")]
#[derive(Debug, Default, Deserialize)]
struct ToolMeta {
    /// `{"type": …, "codes": [...]}`, for a tool with typed errors.
    #[serde(default, rename = "toolwright/errors")]
    errors: Option<ToolErrors>,
}

/// The codes of a tool's typed errors.
#[cfg(feature = "metrics")]
#[derive(Debug, Default, Deserialize)]
struct ToolErrors {
    #[serde(default)]
    codes: Vec<String>,
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

    /// The codes of the typed errors of the tool with this name.
    #[cfg(feature = "metrics")]
    pub(crate) fn error_codes(&self, tool: &str) -> &[String] {
        self.tools
            .iter()
            .find(|t| t.name == tool)
            .and_then(|t| t.meta.errors.as_ref())
            .map_or(&[], |errors| &errors.codes)
    }

    /// The schemas of one action of an action tool.
    pub(crate) fn action(&self, tool: &str, action: &str) -> Option<&ActionSchema> {
        self.actions.get(tool)?.get(action)
    }
}
