//! The catalogue as MCP sees it: the `tools/list` entries and the
//! per-action schemas of action tools, parsed once from the catalogue's
//! MCP schema text.

use std::collections::BTreeMap;

use rmcp::model::Tool;
use serde::Deserialize;

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

/// What a catalogue's MCP schema text holds:
/// `{"tools": [Tool…], "actions": {tool: {action: ActionSchema}}}`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct McpSchema {
    /// The `tools/list` entries, in catalogue order.
    pub(crate) tools: Vec<Tool>,
    /// Per-action schemas of the action tools.
    #[serde(default)]
    pub(crate) actions: BTreeMap<String, BTreeMap<String, ActionSchema>>,
}

impl McpSchema {
    /// Parses the schema text.
    ///
    /// # Errors
    /// The JSON error, when the text is not the schema's shape.
    pub(crate) fn parse(text: &str) -> Result<McpSchema, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The entry of the tool with this name.
    pub(crate) fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name == name)
    }
}
