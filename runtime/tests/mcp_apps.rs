//! MCP Apps (extension `io.modelcontextprotocol/ui`) over MCP, for the
//! test catalogue `runtime/tests/support/apps.tool`, whose tool `add` has
//! a generated app: `tools/list` names its `ui://` resource and its
//! visibility, `resources/list` lists it with its MIME type, CSP,
//! permissions and border, `resources/read` answers with its page and
//! those from the catalogue, and the server declares the extension; read
//! by rmcp's own client, in process and through a HOOT01 gateway in front
//! of a worker. A client that does not render apps is listed the tool
//! without its `_meta.ui`.
#![cfg(all(feature = "mcp", feature = "hoot", feature = "client"))]

use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, ClientConfig as McpClientConfig, ReadResourceRequestParams,
};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt as _};
use serde_json::{Value, json};
use toolwright::hoot::{Client, ClientConfig, ServerConfig, ServerHandle};
use toolwright::mcp::McpServer;
use toolwright::{Dispatcher, ToolError};

include!("support/apps.rs");

struct Sums;

#[toolwright::tools]
impl Sums {
    #[tool]
    fn add(&self, request: AddRequest) -> Result<AddResponse, ToolError> {
        Ok(AddResponse {
            sum: request.a + request.b,
        })
    }
}

const SOON: Duration = Duration::from_secs(10);

type McpClient = RunningService<RoleClient, McpClientConfig>;

/// A host that renders apps: it declares the extension with their content
/// type.
fn host() -> McpClientConfig {
    let mut config = McpClientConfig::default();
    config.capabilities = serde_json::from_value(json!({"extensions": {
        "io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}
    }}))
    .expect("the capabilities parse");
    config
}

/// An rmcp client declaring `config` of `server`, over an in-process pipe
/// (stdio's framing).
async fn piped<P: toolwright::port::CallPort>(
    server: McpServer<P>,
    config: McpClientConfig,
) -> McpClient {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(server.serve_io(read, write));
    config
        .serve(tokio::io::split(client_end))
        .await
        .expect("the handshake")
}

async fn in_process(config: McpClientConfig) -> McpClient {
    piped(
        McpServer::new(Dispatcher::new(Sums)).expect("the schema parses"),
        config,
    )
    .await
}

/// A HOOT01 worker serving the tool, and an MCP gateway in front of it.
async fn gateway() -> (ServerHandle, McpClient) {
    let worker = toolwright::hoot::Server::serve(
        Dispatcher::new(Sums),
        ServerConfig::new("tcp://127.0.0.1:0"),
    )
    .expect("the worker binds");
    let client = Client::<ToolCatalogue>::connect(&[worker.endpoint()], ClientConfig::default())
        .expect("the gateway connects");
    assert!(client.ready(SOON).await, "the worker answers");
    (
        worker,
        piped(McpServer::new(client).expect("the schema parses"), host()).await,
    )
}

/// The listed tool called `name`.
async fn listed(client: &McpClient, name: &str) -> Value {
    let tools = serde_json::to_value(client.list_tools(None).await.unwrap()).unwrap();
    tools["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("{name} is listed: {tools}"))
}

/// What every door must answer alike.
async fn serves_the_app(client: &McpClient) {
    let capabilities = serde_json::to_value(&client.peer_info().unwrap().capabilities).unwrap();
    assert!(capabilities["resources"].is_object(), "{capabilities}");
    assert_eq!(
        capabilities["extensions"]["io.modelcontextprotocol/ui"],
        json!({"mimeTypes": ["text/html;profile=mcp-app"]}),
    );

    let add = listed(client, "add").await;
    assert_eq!(
        add["_meta"]["ui"],
        json!({"resourceUri": "ui://add", "visibility": ["app"]})
    );

    // Visibility is the host's to apply: the server still lists the tool
    // (above) and answers its calls, whoever makes them.
    let call = client
        .call_tool(
            CallToolRequestParams::new("add")
                .with_arguments(json!({"a": 2, "b": 3}).as_object().unwrap().clone()),
        )
        .await
        .unwrap();
    assert_eq!(call.is_error, Some(false), "{call:?}");
    assert_eq!(call.structured_content, Some(json!({"sum": 5})));

    let meta = json!({"ui": {
        "csp": {
            "connectDomains": ["https://api.example.com"],
            "resourceDomains": ["https://cdn.example.com"],
            "frameDomains": ["https://www.youtube.com"],
            "baseUriDomains": ["https://cdn.example.com"],
        },
        "permissions": {"camera": {}, "clipboardWrite": {}},
        "prefersBorder": false,
    }, "toolwright/scopes": ["sums:add"]});
    let resources = serde_json::to_value(client.list_resources(None).await.unwrap()).unwrap();
    assert_eq!(
        resources["resources"],
        json!([{
            "uri": "ui://add",
            "name": "add",
            "title": "Add",
            "description": "The app of tool `add`: a form for its arguments and a view of its result.",
            "mimeType": "text/html;profile=mcp-app",
            "_meta": meta,
        }])
    );

    let read = client
        .read_resource(ReadResourceRequestParams::new("ui://add"))
        .await
        .unwrap();
    let [contents] = &read.contents[..] else {
        panic!("one contents: {read:?}");
    };
    let contents = serde_json::to_value(contents).unwrap();
    assert_eq!(contents["uri"], "ui://add");
    assert_eq!(contents["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(contents["_meta"], meta);
    let html = contents["text"].as_str().unwrap();
    assert!(
        html.to_ascii_lowercase().starts_with("<!doctype html>"),
        "{html}"
    );
    // The page carries the tool's entry, which a host's view reads.
    let start = html.find(r#"id="toolwright-tool">"#).unwrap() + r#"id="toolwright-tool">"#.len();
    let end = start + html[start..].find("</script>").unwrap();
    let tool: Value = serde_json::from_str(&html[start..end]).unwrap();
    assert_eq!(tool["name"], "add");
    assert_eq!(tool["timing"], "sync");
    assert_eq!(tool["inputSchema"], add["inputSchema"]);

    let missing = client
        .read_resource(ReadResourceRequestParams::new("ui://multiply"))
        .await
        .unwrap_err();
    let rmcp::ServiceError::McpError(missing) = missing else {
        panic!("a JSON-RPC error");
    };
    assert_eq!(missing.code.0, -32602);
}

#[tokio::test]
async fn an_app_is_served_in_process() {
    serves_the_app(&in_process(host()).await).await;
}

#[tokio::test]
async fn a_client_that_renders_no_apps_is_listed_the_tool_alone() {
    let client = in_process(McpClientConfig::default()).await;
    let add = listed(&client, "add").await;
    assert_eq!(add["_meta"].get("ui"), None, "{add}");
    // The tool is the same, and its page still a resource of the server.
    assert!(add["inputSchema"]["properties"]["a"].is_object(), "{add}");
    let read = client
        .read_resource(ReadResourceRequestParams::new("ui://add"))
        .await
        .unwrap();
    assert_eq!(read.contents.len(), 1);

    // A client that declares the extension for other content types only
    // renders none of these pages either.
    let mut other = host();
    other.capabilities = serde_json::from_value(json!({"extensions": {
        "io.modelcontextprotocol/ui": {"mimeTypes": ["text/uri-list"]}
    }}))
    .unwrap();
    let add = listed(&in_process(other).await, "add").await;
    assert_eq!(add["_meta"].get("ui"), None, "{add}");
}

#[tokio::test]
async fn an_app_is_served_through_the_gateway() {
    let (_worker, client) = gateway().await;
    serves_the_app(&client).await;
}
