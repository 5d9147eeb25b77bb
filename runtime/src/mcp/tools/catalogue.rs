//! The catalogue as MCP sees it: the `tools/list` entries, and what the
//! JSON edge reads of the same schema text, parsed once.

use std::collections::HashMap;

use rmcp::model::{JsonObject, Tool};
use serde::Deserialize;

use crate::edge;

/// The `_meta` key under which `describe_tools` gives a tool's error
/// schema (`tools/list` only names the type and its codes, under
/// `toolwright/errors`).
pub(crate) const ERROR_SCHEMA_META: &str = "toolwright/errorSchema";

/// The `tools` and error schemas of a catalogue's MCP schema text.
#[derive(Deserialize)]
struct Listed {
    tools: Vec<Tool>,
    #[serde(default)]
    errors: HashMap<String, JsonObject>,
}

/// What a catalogue's MCP schema text holds:
/// `{"tools": [Tool…], "actions": {tool: {action: ActionSchema}},
/// "errors": {tool: schema}}`.
#[derive(Clone, Debug)]
pub(crate) struct McpSchema {
    /// The `tools/list` entries, in catalogue order.
    pub(crate) tools: Vec<Tool>,
    /// The schema of each tool's typed errors' `details`, by tool name.
    errors: HashMap<String, JsonObject>,
    /// Input and per-action schemas, for the edge's answers (shared with
    /// the web routes).
    pub(crate) edge: std::sync::Arc<edge::Schema>,
    /// The resources and prompts, and how each is read or got.
    pub(crate) entries: std::sync::Arc<crate::edge::Entries>,
}

impl McpSchema {
    /// Parses the schema text.
    ///
    /// # Errors
    /// The JSON error, when the text is not the schema's shape.
    pub(crate) fn parse(text: &str) -> Result<McpSchema, serde_json::Error> {
        let Listed { tools, errors } = serde_json::from_str(text)?;
        Ok(McpSchema {
            tools,
            errors,
            edge: std::sync::Arc::new(edge::Schema::parse(text)?),
            entries: std::sync::Arc::new(crate::edge::Entries::parse(text)?),
        })
    }

    /// The entry of the tool with this name.
    pub(crate) fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// The schema of the typed errors of the tool with this name.
    pub(crate) fn error_schema(&self, name: &str) -> Option<&JsonObject> {
        self.errors.get(name)
    }
}
