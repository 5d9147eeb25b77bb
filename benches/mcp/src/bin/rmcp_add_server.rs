//! The reference server of the MCP benchmark: rmcp with one hand-written
//! `add` tool answering like the studio's (`structuredContent` `{result}`
//! and the same JSON as text), and nothing else in the way.
//!
//! `rmcp_add_server --stdio` or `rmcp_add_server --http 127.0.0.1:PORT`
//! (endpoint `/mcp`).

use std::sync::Arc;

use axum::serve::ListenerExt as _;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ServiceExt, transport::stdio};
use serde_json::{Map, Value, json};

#[derive(Clone)]
struct AddServer {
    tool: Arc<Tool>,
}

impl AddServer {
    fn new() -> Self {
        let operand = |what: &str| json!({"type": "integer", "description": what});
        let input = json!({
            "type": "object",
            "properties": {"a": operand("Left operand."), "b": operand("Right operand.")},
            "required": ["a", "b"],
            "additionalProperties": false,
        });
        let output = json!({
            "type": "object",
            "properties": {"result": {"type": "integer"}},
            "required": ["result"],
        });
        let mut tool = Tool::new("add", "Add two integers.", object(input));
        tool.output_schema = Some(object(output));
        AddServer {
            tool: Arc::new(tool),
        }
    }
}

fn object(value: Value) -> Arc<Map<String, Value>> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => unreachable!("schemas are objects"),
    }
}

fn add(arguments: Option<&Map<String, Value>>) -> Result<i64, String> {
    let operand = |name: &str| {
        arguments
            .and_then(|args| args.get(name))
            .and_then(Value::as_i64)
            .ok_or_else(|| format!("`{name}` must be an integer"))
    };
    operand("a")?
        .checked_add(operand("b")?)
        .ok_or_else(|| "the sum overflows".to_owned())
}

impl ServerHandler for AddServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![(*self.tool).clone()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != "add" {
            return Err(ErrorData::invalid_params(
                format!("no tool `{}`", request.name),
                None,
            ));
        }
        let result = match add(request.arguments.as_ref()) {
            Ok(sum) => {
                let value = json!({"result": sum});
                let mut result =
                    CallToolResult::success(vec![ContentBlock::text(value.to_string())]);
                result.structured_content = Some(value);
                result
            }
            Err(message) => CallToolResult::error(vec![ContentBlock::text(message)]),
        };
        Ok(result.into())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [mode] if mode == "--stdio" => {
            let running = AddServer::new().serve(stdio()).await?;
            running.waiting().await?;
        }
        [mode, addr] if mode == "--http" => {
            let service = StreamableHttpService::new(
                || Ok(AddServer::new()),
                Arc::new(LocalSessionManager::default()),
                StreamableHttpServerConfig::default(),
            );
            let app = axum::Router::new().nest_service("/mcp", service);
            // Like the studio's server: no Nagle delay on small answers.
            let listener = tokio::net::TcpListener::bind(addr.as_str())
                .await?
                .tap_io(|tcp| {
                    let _ = tcp.set_nodelay(true);
                });
            axum::serve(listener, app).await?;
        }
        _ => return Err("usage: rmcp_add_server (--stdio | --http ADDR)".into()),
    }
    Ok(())
}
