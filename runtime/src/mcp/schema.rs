//! The catalogue as MCP sees it: the `tools/list` entries, and what the
//! JSON edge reads of the same schema text, parsed once.

use rmcp::model::Tool;
use serde::Deserialize;

use crate::edge;

/// The `tools` of a catalogue's MCP schema text.
#[derive(Deserialize)]
struct Listed {
    tools: Vec<Tool>,
}

/// What a catalogue's MCP schema text holds:
/// `{"tools": [Tool…], "actions": {tool: {action: ActionSchema}}}`.
#[derive(Debug)]
pub(crate) struct McpSchema {
    /// The `tools/list` entries, in catalogue order.
    pub(crate) tools: Vec<Tool>,
    /// Input and per-action schemas, for the edge's answers (shared with
    /// the web routes).
    pub(crate) edge: std::sync::Arc<edge::Schema>,
}

impl McpSchema {
    /// Parses the schema text.
    ///
    /// # Errors
    /// The JSON error, when the text is not the schema's shape.
    pub(crate) fn parse(text: &str) -> Result<McpSchema, serde_json::Error> {
        let Listed { tools } = serde_json::from_str(text)?;
        Ok(McpSchema {
            tools,
            edge: std::sync::Arc::new(edge::Schema::parse(text)?),
        })
    }

    /// The entry of the tool with this name.
    pub(crate) fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name == name)
    }
}
