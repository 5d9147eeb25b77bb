//! `McpTransport`: calls tools over MCP with the rmcp client, on a child
//! process's stdio or over Streamable HTTP.

use std::fmt;

use rmcp::model::{CallToolRequestParams, CallToolResult, ClientRequest, PingRequest};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::{IntoTransport, StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{Peer, ServiceExt};
use serde_json::json;

use super::ToolTransport;
use super::codes::{PROTOCOL, TOOL_ERROR, TRANSPORT};
use crate::{Json, ToolError};

/// An initialized MCP session with a server.
pub struct McpTransport {
    service: RunningService<RoleClient, ()>,
}

/// Why an MCP session could not be opened.
#[derive(Debug)]
pub struct ConnectError {
    what: String,
    source: Box<dyn std::error::Error + Send + Sync>,
}

impl fmt::Display for ConnectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.what, self.source)
    }
}

impl std::error::Error for ConnectError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.source)
    }
}

impl ConnectError {
    fn new(
        what: impl Into<String>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> Self {
        ConnectError {
            what: what.into(),
            source: Box::new(source),
        }
    }
}

impl fmt::Debug for McpTransport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McpTransport").finish_non_exhaustive()
    }
}

impl McpTransport {
    /// Starts `command` and talks MCP over its stdin and stdout. The child
    /// is killed when the transport is closed or dropped.
    ///
    /// # Errors
    ///
    /// When the command does not start or the initialization handshake
    /// fails.
    pub async fn spawn(command: tokio::process::Command) -> Result<Self, ConnectError> {
        let program = command
            .as_std()
            .get_program()
            .to_string_lossy()
            .into_owned();
        let child = TokioChildProcess::new(command)
            .map_err(|error| ConnectError::new(format!("cannot start `{program}`"), error))?;
        Self::connect(child).await.map_err(|error| ConnectError {
            what: format!("`{program}`: {}", error.what),
            ..error
        })
    }

    /// Opens a Streamable HTTP session with the MCP endpoint at `url`
    /// (`http://127.0.0.1:8080/mcp`).
    ///
    /// # Errors
    ///
    /// When the server cannot be reached or the handshake fails.
    pub async fn connect_http(url: &str) -> Result<Self, ConnectError> {
        Self::connect(StreamableHttpClientTransport::from_uri(url))
            .await
            .map_err(|error| ConnectError {
                what: format!("{url}: {}", error.what),
                ..error
            })
    }

    /// Opens a session over any rmcp client transport (an in-memory pipe in
    /// tests, say).
    ///
    /// # Errors
    ///
    /// When the initialization handshake fails.
    pub async fn connect<T, E, A>(transport: T) -> Result<Self, ConnectError>
    where
        T: IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let service = ()
            .serve(transport)
            .await
            .map_err(|error| ConnectError::new("MCP initialization failed", error))?;
        Ok(McpTransport { service })
    }

    /// The rmcp peer, for requests other than tool calls (`tools/list`).
    pub fn peer(&self) -> &Peer<RoleClient> {
        self.service.peer()
    }

    /// Ends the session (and the child process of [`spawn`](Self::spawn)).
    pub async fn close(self) {
        // The only error is a failed join of the session's task, which has
        // ended either way.
        let _ = self.service.cancel().await;
    }
}

impl ToolTransport for McpTransport {
    async fn call_tool(&self, name: &str, arguments: Json) -> Result<Json, ToolError> {
        let Json::Object(arguments) = arguments else {
            return Err(ToolError::invalid_request(format!(
                "the arguments of `{name}` must be a JSON object, not {}",
                json_kind(&arguments)
            )));
        };
        let params = CallToolRequestParams::new(name.to_owned()).with_arguments(arguments);
        match self.service.call_tool(params).await {
            Ok(result) => tool_outcome(result),
            Err(error) => Err(service_error(error)),
        }
    }

    async fn ping(&self) -> Result<(), ToolError> {
        self.service
            .send_request(ClientRequest::PingRequest(PingRequest::default()))
            .await
            .map(drop)
            .map_err(service_error)
    }
}

/// A tool result as the batch client reports it: `structuredContent`
/// (else the content blocks) for a success; for `isError`, the structured
/// `{code, message, details}` the Toolwright server sends, else the text.
pub(crate) fn tool_outcome(result: CallToolResult) -> Result<Json, ToolError> {
    if result.is_error != Some(true) {
        return Ok(match result.structured_content {
            Some(structured) => structured,
            None => serde_json::to_value(&result.content).unwrap_or(Json::Null),
        });
    }
    if let Some(structured) = result.structured_content {
        if let Ok(error) = serde_json::from_value::<ToolError>(structured.clone()) {
            return Err(error);
        }
        return Err(ToolError::new(TOOL_ERROR, "the tool failed").with_details(structured));
    }
    let text: Vec<&str> = result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|text| text.text.as_str()))
        .collect();
    let message = if text.is_empty() {
        "the tool failed without a message".to_owned()
    } else {
        text.join("\n")
    };
    Err(ToolError::new(TOOL_ERROR, message))
}

pub(crate) fn service_error(error: ServiceError) -> ToolError {
    match error {
        ServiceError::McpError(error) => {
            let mut details = json!({"jsonrpc_code": error.code.0});
            if let Some(data) = error.data {
                details["data"] = data;
            }
            ToolError::new(PROTOCOL, error.message.into_owned()).with_details(details)
        }
        ServiceError::Timeout { timeout } => ToolError::timeout(format!(
            "the MCP request timed out after {} ms",
            timeout.as_millis()
        )),
        ServiceError::Cancelled { reason } => ToolError::cancelled(match reason {
            Some(reason) => format!("the request was cancelled: {reason}"),
            None => "the request was cancelled".to_owned(),
        }),
        ServiceError::UnexpectedResponse => ToolError::new(
            PROTOCOL,
            "the server answered with an unexpected result type",
        ),
        other => ToolError::new(TRANSPORT, other.to_string()),
    }
}

fn json_kind(value: &Json) -> &'static str {
    match value {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}
