//! Mounting another MCP server: a server serving the test catalogue
//! `support/apps.tool` mounts a second one over Streamable HTTP under the
//! prefix `b`, and serves its tool as `b_add` beside its own `add` — on
//! MCP (rmcp's client) and on the web routes, with events that say
//! `source: "mcp"`. When the mounted server stops, a call is
//! `UNAVAILABLE` and the tool leaves the list; when it is back on the
//! same address, the tool is listed and answers again, and the session
//! is told each time with `notifications/tools/list_changed`. A server
//! of the entries catalogue `macros/tests/support/entries.tool`, mounted
//! the same way, has its prompt's and template's arguments completed, its
//! subscribable resource's updates heard (on a session and on a listen
//! stream, across its restart), and its tool found by `search_tools`.
#![cfg(all(feature = "mount", feature = "web"))]

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt as _};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use toolwright::events::{ToolEvent, ToolSource};
use toolwright::mcp::{HttpConfig, McpServer};
use toolwright::mount::Mount;
use toolwright::port::CallPort as _;
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

const SOON: Duration = Duration::from_secs(15);

/// Serves `server` on `listener` until the token is cancelled.
fn serve<P: toolwright::port::CallPort>(
    server: McpServer<P>,
    listener: TcpListener,
) -> CancellationToken {
    let stop = CancellationToken::new();
    let config = HttpConfig::default().shutdown(stop.clone());
    tokio::spawn(server.serve_http_on(listener, config));
    stop
}

/// The mounted server, on `addr`.
async fn mounted_on(addr: SocketAddr) -> CancellationToken {
    serve(
        McpServer::new(Dispatcher::new(Sums)).expect("the schema parses"),
        rebind(addr).await,
    )
}

/// A listener on `addr`, which was just freed by the server before:
/// binding it again may have to wait for the old socket to go.
async fn rebind(addr: SocketAddr) -> TcpListener {
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        match TcpListener::bind(addr).await {
            Ok(listener) => return listener,
            Err(e) if tokio::time::Instant::now() < deadline => {
                let _ = e;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("cannot bind {addr} again: {e}"),
        }
    }
}

/// Counts the `tools/list_changed` notifications it hears.
#[derive(Clone, Default)]
struct Heard(Arc<AtomicUsize>);

impl ClientHandler for Heard {
    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// One HTTP/1.1 request to the web routes: the status and the body.
async fn web(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.expect("read");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a head");
    let status = head[9..12].parse().expect("a status");
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_owned()
    };
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}

async fn tool_names(client: &RunningService<RoleClient, Heard>) -> Vec<String> {
    let tools = client.list_tools(None).await.expect("tools/list");
    tools.tools.iter().map(|t| t.name.to_string()).collect()
}

/// Waits until `b_add` is listed (`true`) or not (`false`).
async fn until_listed(client: &RunningService<RoleClient, Heard>, listed: bool) {
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        let names = tool_names(client).await;
        if names.iter().any(|n| n == "b_add") == listed {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "b_add listed should be {listed}: {names:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn call(client: &RunningService<RoleClient, Heard>, name: &str) -> CallToolResult {
    let arguments = json!({"a": 2, "b": 3}).as_object().cloned();
    let mut params = CallToolRequestParams::new(name.to_owned());
    params.arguments = arguments;
    client.call_tool(params).await.expect("tools/call")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mounted_server_is_served_beside_the_catalogue_and_comes_back_after_it_stops() {
    // The mounted server.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let b_addr = listener.local_addr().unwrap();
    let b_stop = serve(
        McpServer::new(Dispatcher::new(Sums)).expect("the schema parses"),
        listener,
    );

    // The mounting one, on MCP over a pipe and on HTTP with the web routes.
    let dispatcher = Dispatcher::new(Sums);
    let mut events = dispatcher.events().subscribe();
    let server = McpServer::new(dispatcher)
        .expect("the schema parses")
        .mount(Mount::http("b", format!("http://{b_addr}/mcp")).expect("a prefix"));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let a_addr = listener.local_addr().unwrap();
    let _a_stop = serve(server.clone(), listener);
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(server.serve_io(read, write));
    let heard = Heard::default();
    let client = heard
        .clone()
        .serve(tokio::io::split(client_end))
        .await
        .expect("the handshake");
    let capabilities = serde_json::to_value(&client.peer_info().unwrap().capabilities).unwrap();
    assert_eq!(capabilities["tools"]["listChanged"], true, "{capabilities}");

    // Listed beside the catalogue's own tool, and called through.
    until_listed(&client, true).await;
    let names = tool_names(&client).await;
    assert!(names.contains(&"add".to_owned()), "{names:?}");
    let tools = client.list_tools(None).await.unwrap();
    let mounted = tools.tools.iter().find(|t| t.name == "b_add").unwrap();
    let meta = serde_json::to_value(&mounted.meta).unwrap();
    assert_eq!(meta["toolwright/mount"], "b", "{meta}");
    let result = call(&client, "b_add").await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(result.structured_content, Some(json!({"sum": 5})));

    // Its events say where it ran.
    let mut sources = Vec::new();
    while sources.len() < 2 {
        let published = tokio::time::timeout(SOON, events.recv())
            .await
            .expect("an event")
            .expect("not lagged");
        match published.event() {
            ToolEvent::ToolStart(start) if start.tool_name == "b_add" => {
                assert_eq!(start.tool_input, r#"{"a":2,"b":3}"#);
                sources.push(start.source);
            }
            ToolEvent::ToolComplete(done) if done.tool_name == "b_add" => {
                assert!(done.success, "{done:?}");
                assert_eq!(done.tool_result, r#"{"sum":5}"#);
                sources.push(done.source);
            }
            _ => {}
        }
    }
    assert_eq!(sources, [ToolSource::Mcp, ToolSource::Mcp]);

    // On the web routes too.
    let (status, document) = web(a_addr, "GET", "/api/tools", "").await;
    assert_eq!(status, 200);
    let listed: Vec<&Value> = document["tools"].as_array().unwrap().iter().collect();
    let entry = listed.iter().find(|t| t["name"] == "b_add").expect("b_add");
    assert_eq!(entry["source"], "mcp");
    assert_eq!(entry["mount"], "b");
    assert_eq!(entry["parameters"][0]["name"], "a");
    assert_eq!(entry["parameters"][0]["type"], "integer");
    let local = listed.iter().find(|t| t["name"] == "add").expect("add");
    assert_eq!(local["source"], "local");
    let (status, answer) = web(a_addr, "POST", "/api/tools/b_add", r#"{"a":2,"b":3}"#).await;
    assert_eq!((status, answer), (200, json!({"success": {"sum": 5}})));

    // It stops: a call is UNAVAILABLE, and it leaves the lists.
    let told = heard.0.load(Ordering::SeqCst);
    b_stop.cancel();
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        let result = call(&client, "b_add").await;
        if result.is_error == Some(true) {
            let error = result.structured_content.unwrap();
            assert_eq!(error["code"], "UNAVAILABLE", "{error}");
            break;
        }
        // A call made before the server closed its connections still
        // answers.
        assert!(tokio::time::Instant::now() < deadline, "still answering");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    until_listed(&client, false).await;
    let (status, answer) = web(a_addr, "POST", "/api/tools/b_add", r#"{"a":2,"b":3}"#).await;
    assert_eq!(status, 503, "{answer}");
    assert_eq!(answer["error"]["code"], "UNAVAILABLE");
    let (_, document) = web(a_addr, "GET", "/api/tools", "").await;
    assert!(
        !document["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "b_add"),
        "b_add is still on the web list"
    );

    // It is back on the same address: listed and answering again.
    let _b_stop = mounted_on(b_addr).await;
    until_listed(&client, true).await;
    let result = call(&client, "b_add").await;
    assert_eq!(result.structured_content, Some(json!({"sum": 5})));
    assert!(
        heard.0.load(Ordering::SeqCst) >= told + 2,
        "the session is told the list changed when the mount goes and when it comes back"
    );

    // A name under the prefix that the mounted server does not have is
    // nobody's.
    let mut params = CallToolRequestParams::new("b_nothing".to_owned());
    params.arguments = Some(serde_json::Map::new());
    let error = client.call_tool(params).await.expect_err("-32602");
    assert!(error.to_string().contains("b_nothing"), "{error}");
}

#[test]
fn a_prefix_must_be_a_plain_name() {
    let error = Mount::http("b_2", "http://127.0.0.1:1/mcp").unwrap_err();
    assert!(error.to_string().contains("`b_2` cannot prefix"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listener_hears_the_mounts_come_and_go() {
    use rmcp::model::{ProtocolVersion, ServerNotification, SubscriptionFilter};
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _};

    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let b_addr = listener.local_addr().unwrap();
    let b_stop = serve(
        McpServer::new(Dispatcher::new(Sums)).expect("the schema parses"),
        listener,
    );
    let server = McpServer::new(Dispatcher::new(Sums))
        .expect("the schema parses")
        .mount(Mount::http("b", format!("http://{b_addr}/mcp")).expect("a prefix"));
    // A 2026-07-28 client: `server/discover`, no session,
    // `subscriptions/listen`.
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(server.serve_io(read, write));
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client =
        ().serve_with_lifecycle(tokio::io::split(client_end), lifecycle)
            .await
            .expect("discovered");
    let filter = SubscriptionFilter::builder().tools_list_changed().build();
    let mut subscription = client.listen(filter).await.expect("acknowledged");
    assert_eq!(subscription.acknowledged().tools_list_changed, Some(true));

    // Each change of the mount is told: it connects (unless it did before
    // the stream opened), then it stops.
    let listed = async |client: &RunningService<RoleClient, ()>| {
        let tools = client.list_tools(None).await.expect("tools/list");
        tools.tools.iter().any(|t| t.name == "b_add")
    };
    let mut stopped = false;
    if listed(&client).await {
        b_stop.cancel();
        stopped = true;
    }
    loop {
        let notification = tokio::time::timeout(SOON, subscription.next())
            .await
            .expect("in time")
            .expect("a notification")
            .expect("the stream is open");
        assert!(
            matches!(
                notification,
                ServerNotification::ToolListChangedNotification(_)
            ),
            "{notification:?}"
        );
        match (listed(&client).await, stopped) {
            (true, false) => {
                b_stop.cancel();
                stopped = true;
            }
            (false, true) => break,
            // Told of a change not yet seen in the list: wait for the next.
            _ => {}
        }
    }
}

// ---- completion, subscriptions and discovery of mounted entries ----

/// A server of the entries catalogue `macros/tests/support/entries.tool`
/// (a tool, resources with a subscribable one, prompts and completions),
/// to be mounted.
mod store {
    use toolwright::entry::{Completion, CompletionRequest, PromptMessages};
    use toolwright::{Context, ToolError};

    include!("../../macros/tests/support/entries.rs");

    pub struct Store;

    #[toolwright::tools(crate::store)]
    impl Store {
        #[tool]
        fn hello(&self) -> Result<Greeting, ToolError> {
            Ok(Greeting { text: "hi".into() })
        }

        #[resource]
        fn cas_object(&self, arguments: CasObjectArguments) -> Result<Vec<u8>, CasError> {
            Err(CasError::NotFound {
                hash: arguments.hash,
            })
        }

        #[resource]
        fn cas_listing(&self, arguments: CasListingArguments) -> Result<CasListing, ToolError> {
            Ok(CasListing {
                hashes: vec![arguments.prefix],
            })
        }

        #[resource]
        fn licence(&self) -> Result<String, ToolError> {
            Ok("# Licence\n".into())
        }

        #[prompt]
        fn compose(&self, arguments: ComposeArguments) -> Result<PromptMessages, ToolError> {
            Ok(PromptMessages::new().user(format!("A tune in {:?}.", arguments.key)))
        }

        #[prompt]
        fn summarise(&self, cx: Context) -> Result<PromptMessages, ToolError> {
            let _ = cx.is_cancelled();
            Ok(PromptMessages::new().user("Summarise the store."))
        }

        #[complete(cas_object.hash)]
        fn hashes(&self, request: CompletionRequest) -> Vec<String> {
            ["beef", "bead", "cafe"]
                .into_iter()
                .filter(|h| h.starts_with(&request.value))
                .map(str::to_owned)
                .collect()
        }

        #[complete(compose.mood)]
        fn moods(&self, request: CompletionRequest) -> Completion {
            let minor = request.context.get("key").is_some_and(|k| k == "a_minor");
            let moods = if minor {
                ["sad", "stern"]
            } else {
                ["happy", "hazy"]
            };
            Completion::matching(moods, &request.value)
        }
    }
}

/// The store, serving on `listener`, and what it publishes its updates
/// through.
fn store_on(listener: TcpListener) -> (CancellationToken, toolwright::entry::ResourceUpdates) {
    let updates = toolwright::entry::ResourceUpdates::new();
    let dispatcher = Dispatcher::new(store::Store).with_resource_updates(updates.clone());
    let server = McpServer::new(dispatcher).expect("the schema parses");
    (serve(server, listener), updates)
}

/// Hands each `notifications/resources/updated` URI to the test.
#[derive(Clone)]
struct Updated(tokio::sync::mpsc::UnboundedSender<String>);

impl ClientHandler for Updated {
    async fn on_resource_updated(
        &self,
        params: rmcp::model::ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(params.uri);
    }
}

/// A client, over a pipe, of a server mounting the store at `addr` under
/// `b`, once the store's tool is listed; and the updates it hears.
async fn mounting_store<P: toolwright::port::CallPort>(
    server: McpServer<P>,
    addr: SocketAddr,
) -> (
    RunningService<RoleClient, Updated>,
    tokio::sync::mpsc::UnboundedReceiver<String>,
) {
    let server = server.mount(Mount::http("b", format!("http://{addr}/mcp")).expect("a prefix"));
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(server.serve_io(read, write));
    let (sender, heard) = tokio::sync::mpsc::unbounded_channel();
    let client = Updated(sender)
        .serve(tokio::io::split(client_end))
        .await
        .expect("the handshake");
    until_store(&client, true).await;
    (client, heard)
}

/// Waits until the store's `b_hello` is listed (`true`) or not (`false`).
async fn until_store<H: ClientHandler>(client: &RunningService<RoleClient, H>, listed: bool) {
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        let tools = client.list_tools(None).await.expect("tools/list");
        if tools.tools.iter().any(|t| t.name == "b_hello") == listed {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "b_hello listed should be {listed}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Publishes `uri`'s update through `updates` until `heard` hears `served`
/// (a mount that just came back may not have been subscribed to again
/// yet); fails on hearing anything else.
async fn until_heard(
    updates: &toolwright::entry::ResourceUpdates,
    uri: &str,
    heard: &mut tokio::sync::mpsc::UnboundedReceiver<String>,
    served: &str,
) {
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        updates.updated(uri);
        match tokio::time::timeout(Duration::from_millis(200), heard.recv()).await {
            Ok(Some(got)) => {
                assert_eq!(got, served);
                return;
            }
            Ok(None) => panic!("the client is gone"),
            Err(_) => assert!(tokio::time::Instant::now() < deadline, "{served} not heard"),
        }
    }
}

fn sums() -> McpServer<Dispatcher<Sums>> {
    McpServer::new(Dispatcher::new(Sums)).expect("the schema parses")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mounted_prompts_and_templates_arguments_are_completed() {
    use rmcp::model::CompletionContext;

    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (_stop, _) = store_on(listener);
    let (client, _) = mounting_store(sums(), addr).await;
    let capabilities = serde_json::to_value(&client.peer_info().unwrap().capabilities).unwrap();
    assert!(capabilities["completions"].is_object(), "{capabilities}");

    // The prompt by its served name, with the context the mounted
    // handler reads.
    let context = CompletionContext::with_arguments(std::collections::HashMap::from([(
        "key".to_owned(),
        "a_minor".to_owned(),
    )]));
    let moods = client
        .complete_prompt_argument("b_compose", "mood", "s", Some(context))
        .await
        .expect("completed");
    assert_eq!(moods.values, ["sad", "stern"]);
    // The template by its served URI.
    let hashes = client
        .complete_resource_argument("cas://b/objects/{hash}", "hash", "be", None)
        .await
        .expect("completed");
    assert_eq!(hashes.values, ["beef", "bead"]);

    // A prompt under the prefix that the mounted server does not list.
    let error = client
        .complete_prompt_argument("b_nothing", "mood", "s", None)
        .await
        .expect_err("no such prompt");
    let rmcp::ServiceError::McpError(error) = error else {
        panic!("a JSON-RPC error, not {error:?}");
    };
    assert_eq!(error.code.0, -32602, "{error:?}");
    assert_eq!(error.data, Some(json!({"ref": "b_nothing"})));
}

// `resources/subscribe` is what 2025-11-25 sessions have; rmcp marks it
// deprecated in favour of 2026-07-28's `subscriptions/listen`.
#[allow(deprecated)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscription_to_a_mounted_resource_hears_its_updates_and_outlives_the_mount() {
    use rmcp::model::{SubscribeRequestParams, UnsubscribeRequestParams};

    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, updates) = store_on(listener);
    let (client, mut heard) = mounting_store(sums(), addr).await;
    let capabilities = serde_json::to_value(&client.peer_info().unwrap().capabilities).unwrap();
    assert_eq!(
        capabilities["resources"]["subscribe"], true,
        "{capabilities}"
    );

    client
        .subscribe(SubscribeRequestParams::new("cas://b/listing/ab"))
        .await
        .expect("subscribed");
    updates.updated("cas://listing/ab");
    let got = tokio::time::timeout(SOON, heard.recv())
        .await
        .expect("in time");
    assert_eq!(got.as_deref(), Some("cas://b/listing/ab"));

    // Unsubscribed, its updates are heard no more: the next heard is the
    // other URI's, published after it.
    client
        .unsubscribe(UnsubscribeRequestParams::new("cas://b/listing/ab"))
        .await
        .expect("unsubscribed");
    client
        .subscribe(SubscribeRequestParams::new("cas://b/listing/cd"))
        .await
        .expect("subscribed");
    updates.updated("cas://listing/ab");
    updates.updated("cas://listing/cd");
    let got = tokio::time::timeout(SOON, heard.recv())
        .await
        .expect("in time");
    assert_eq!(got.as_deref(), Some("cas://b/listing/cd"));

    // The mounted server stops and comes back on the same address, a new
    // session of it: the subscription is taken up again.
    stop.cancel();
    until_store(&client, false).await;
    let (_stop, updates) = store_on(rebind(addr).await);
    until_store(&client, true).await;
    until_heard(
        &updates,
        "cas://listing/cd",
        &mut heard,
        "cas://b/listing/cd",
    )
    .await;

    // A mounted resource the mounted server does not let be subscribed to
    // is its refusal.
    let refused = client
        .subscribe(SubscribeRequestParams::new("cas://b/licence"))
        .await
        .expect_err("not subscribable");
    assert!(refused.to_string().contains("cas://licence"), "{refused}");
    // One that is no mount's nor the catalogue's is a bad URI.
    let unknown = client
        .subscribe(SubscribeRequestParams::new("cas://elsewhere"))
        .await
        .expect_err("nobody's");
    let rmcp::ServiceError::McpError(unknown) = unknown else {
        panic!("a JSON-RPC error, not {unknown:?}");
    };
    assert_eq!(unknown.code.0, -32602, "{unknown:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listener_hears_a_mounted_resources_updates() {
    use rmcp::model::{ProtocolVersion, ServerNotification, SubscriptionFilter};
    use rmcp::service::{ClientLifecycleMode, ClientServiceExt as _};

    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (_stop, updates) = store_on(listener);
    let server = sums().mount(Mount::http("b", format!("http://{addr}/mcp")).expect("a prefix"));
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(server.serve_io(read, write));
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    let client =
        ().serve_with_lifecycle(tokio::io::split(client_end), lifecycle)
            .await
            .expect("discovered");
    until_store(&client, true).await;
    let filter = SubscriptionFilter::builder()
        .resource_subscriptions(["cas://b/listing/ab".to_owned()])
        .build();
    let mut subscription = client.listen(filter).await.expect("acknowledged");
    assert_eq!(
        subscription.acknowledged().resource_subscriptions,
        Some(vec!["cas://b/listing/ab".to_owned()])
    );
    // Published until heard: the stream's subscription reaches the
    // mounted server a moment after the acknowledgement.
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        assert!(tokio::time::Instant::now() < deadline, "no update heard");
        updates.updated("cas://listing/ab");
        let Ok(next) = tokio::time::timeout(Duration::from_millis(200), subscription.next()).await
        else {
            continue;
        };
        let notification = next.expect("a notification").expect("the stream is open");
        if let ServerNotification::ResourceUpdatedNotification(updated) = notification {
            assert_eq!(updated.params.uri, "cas://b/listing/ab");
            break;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_tools_finds_a_mounted_tool_that_describe_tools_describes() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (_stop, _) = store_on(listener);
    let server = sums().progressive().expect("no clash");
    let (client, _) = mounting_store(server, addr).await;
    let call = async |name: &str, arguments: Value| {
        let mut params = CallToolRequestParams::new(name.to_owned());
        params.arguments = arguments.as_object().cloned();
        let result = client.call_tool(params).await.expect("tools/call");
        assert_eq!(result.is_error, Some(false), "{result:?}");
        result.structured_content.expect("structured")
    };

    let found = call("search_tools", json!({"query": "hello"})).await;
    assert_eq!(
        found,
        json!({"tools": [{"name": "b_hello", "summary": "Say hello.", "toolsets": []}], "more": 0})
    );
    // A mounted tool is in no toolset.
    let within = call("search_tools", json!({"query": "hello", "toolset": "apps"})).await;
    assert_eq!(within, json!({"tools": [], "more": 0}));

    let described = call("describe_tools", json!({"names": ["b_hello"]})).await;
    assert_eq!(described["tools"][0]["name"], "b_hello");
    assert_eq!(described["tools"][0]["_meta"]["toolwright/mount"], "b");
    assert!(
        described["tools"][0]["inputSchema"].is_object(),
        "{described}"
    );
    let answered = call("b_hello", json!({})).await;
    assert_eq!(answered, json!({"text": "hi"}));
}

// `resources/subscribe`, as above.
#[allow(deprecated)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_share_one_subscription_to_a_mounted_resource() {
    use rmcp::model::{SubscribeRequestParams, UnsubscribeRequestParams};

    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (_stop, updates) = store_on(listener);
    let server = sums().mount(Mount::http("b", format!("http://{addr}/mcp")).expect("a prefix"));
    let (first, _) = mounting_store(server.clone(), addr).await;
    let (second, mut heard) = mounting_store(server, addr).await;
    for client in [&first.peer(), &second.peer()] {
        client
            .subscribe(SubscribeRequestParams::new("cas://b/listing/ab"))
            .await
            .expect("subscribed");
    }
    // The first session leaves, and then ends: the mounted server still
    // sends the updates the second holds on to.
    first
        .unsubscribe(UnsubscribeRequestParams::new("cas://b/listing/ab"))
        .await
        .expect("unsubscribed");
    first.cancel().await.expect("closed");
    tokio::time::sleep(Duration::from_millis(300)).await;
    updates.updated("cas://listing/ab");
    let got = tokio::time::timeout(SOON, heard.recv())
        .await
        .expect("in time");
    assert_eq!(got.as_deref(), Some("cas://b/listing/ab"));
}
