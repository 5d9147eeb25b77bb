//! Resources, prompts and completion over MCP, served from `#[resource]`,
//! `#[prompt]` and `#[complete]` handlers of the test catalogue
//! `macros/tests/support/entries.tool`: read by rmcp's own client, in
//! process and through a HOOT01 gateway in front of a worker; and the
//! updates of subscribed resources, on 2025-11-25 sessions, on 2026-07-28
//! listen streams, and from a worker's IOPub through the gateway.
#![cfg(all(feature = "mcp", feature = "hoot", feature = "client"))]

use std::collections::HashMap;
use std::time::Duration;

use rmcp::model::{
    CompletionContext, GetPromptRequestParams, ProtocolVersion, ReadResourceRequestParams,
    ResourceUpdatedNotificationParam, ServerNotification, SubscribeRequestParams,
    SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt as _, NotificationContext, RunningService,
};
use rmcp::{ClientHandler, RoleClient, ServiceError, ServiceExt as _};
use serde_json::{Value, json};
use tokio::sync::mpsc;
// Logging is what 2025-11-25 clients hear a handler say by; rmcp marks
// it deprecated (SEP-2577), as the server does (talk_back/told.rs).
#[allow(deprecated)]
use rmcp::model::LoggingMessageNotificationParam;
use toolwright::caller::LogLevel;
use toolwright::entry::{
    Completion, CompletionRequest, PromptContent, PromptMessages, ResourceUpdates,
};
use toolwright::hoot::{Client, ClientConfig, ServerConfig, ServerHandle};
use toolwright::mcp::McpServer;
use toolwright::{Context, Dispatcher, ToolError};

include!("../../macros/tests/support/entries.rs");

struct Store;

#[toolwright::tools]
impl Store {
    #[tool]
    fn hello(&self) -> Result<Greeting, ToolError> {
        Ok(Greeting { text: "hi".into() })
    }

    #[resource]
    async fn cas_object(
        &self,
        arguments: CasObjectArguments,
        cx: Context,
    ) -> Result<Vec<u8>, CasError> {
        let _ = cx.is_cancelled();
        match arguments.hash.as_str() {
            "beef" => Ok(vec![0xbe, 0xef]),
            _ => Err(CasError::NotFound {
                hash: arguments.hash,
            }),
        }
    }

    #[resource]
    fn cas_listing(&self, arguments: CasListingArguments) -> Result<CasListing, ToolError> {
        Ok(CasListing {
            hashes: vec![format!("{}{}", arguments.prefix, arguments.page)],
        })
    }

    #[resource]
    fn licence(&self) -> Result<String, ToolError> {
        Ok("# Licence\n".into())
    }

    #[prompt]
    fn compose(&self, arguments: ComposeArguments) -> Result<PromptMessages, ToolError> {
        let mood = arguments.mood.unwrap_or_else(|| "calm".into());
        Ok(PromptMessages::new()
            .user(format!("Write a {mood} tune in {:?}.", arguments.key))
            .assistant(PromptContent::Image {
                data: vec![137, 80].into(),
                mime_type: "image/png".into(),
            }))
    }

    #[prompt]
    fn summarise(&self, cx: Context) -> Result<PromptMessages, ToolError> {
        cx.log(LogLevel::Info, "counting the objects");
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

const SOON: Duration = Duration::from_secs(10);

/// An rmcp client of `server` over an in-process pipe (stdio's framing).
async fn piped<P: toolwright::port::CallPort>(
    server: McpServer<P>,
) -> RunningService<RoleClient, ()> {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(server.serve_io(read, write));
    ().serve(tokio::io::split(client_end))
        .await
        .expect("the handshake")
}

async fn in_process() -> RunningService<RoleClient, ()> {
    piped(McpServer::new(Dispatcher::new(Store)).expect("the schema parses")).await
}

/// A HOOT01 worker serving the store, and an MCP gateway in front of it.
async fn gateway() -> (ServerHandle, RunningService<RoleClient, ()>) {
    let worker = toolwright::hoot::Server::serve(
        Dispatcher::new(Store),
        ServerConfig::new("tcp://127.0.0.1:0"),
    )
    .expect("the worker binds");
    let client = Client::<ToolCatalogue>::connect(&[worker.endpoint()], ClientConfig::default())
        .expect("the gateway connects");
    assert!(client.ready(SOON).await, "the worker answers");
    (
        worker,
        piped(McpServer::new(client).expect("the schema parses")).await,
    )
}

async fn read(client: &RunningService<RoleClient, ()>, uri: &str) -> Result<Value, ServiceError> {
    let read = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await?;
    let [contents] = &read.contents[..] else {
        panic!("one contents: {read:?}");
    };
    Ok(serde_json::to_value(contents).expect("contents serialize"))
}

/// The code and data of a JSON-RPC error.
fn refusal(error: ServiceError) -> (i32, Value) {
    match error {
        ServiceError::McpError(e) => (e.code.0, e.data.unwrap_or_default()),
        other => panic!("a JSON-RPC error, not {other:?}"),
    }
}

/// A client that hands every `notifications/resources/updated` (the URI)
/// and every `notifications/message` (its data) to the test.
#[derive(Clone)]
struct Watcher {
    updated: mpsc::UnboundedSender<String>,
}

#[allow(deprecated)] // logging, as above
impl ClientHandler for Watcher {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.updated.send(params.uri);
    }

    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.updated.send(format!("log: {}", params.data));
    }
}

/// A watching client of `server` over an in-process pipe, and what it hears.
async fn watching<P: toolwright::port::CallPort>(
    server: McpServer<P>,
) -> (
    RunningService<RoleClient, Watcher>,
    mpsc::UnboundedReceiver<String>,
) {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(server.serve_io(read, write));
    let (updated, heard) = mpsc::unbounded_channel();
    let client = Watcher { updated }
        .serve(tokio::io::split(client_end))
        .await
        .expect("the handshake");
    (client, heard)
}

/// The next URI heard, within a while.
async fn next(heard: &mut mpsc::UnboundedReceiver<String>) -> String {
    tokio::time::timeout(SOON, heard.recv())
        .await
        .expect("an update in time")
        .expect("the client is there")
}

/// What every door must answer alike.
async fn reads_gets_and_completes(client: &RunningService<RoleClient, ()>) {
    assert_eq!(
        read(client, "cas://objects/beef").await.unwrap(),
        json!({"uri": "cas://objects/beef", "mimeType": "application/octet-stream", "blob": "vu8="})
    );
    assert_eq!(
        read(client, "cas://listing/ab?page=3").await.unwrap(),
        json!({"uri": "cas://listing/ab?page=3", "mimeType": "application/json", "text": r#"{"hashes":["ab3"]}"#})
    );
    assert_eq!(
        read(client, "cas://licence").await.unwrap()["text"],
        "# Licence\n"
    );

    let (code, data) = refusal(read(client, "cas://elsewhere").await.unwrap_err());
    assert_eq!((code, data), (-32602, json!({"uri": "cas://elsewhere"})));
    let (code, data) = refusal(read(client, "cas://objects/f00d").await.unwrap_err());
    assert_eq!(code, -32602);
    assert_eq!(data["code"], "NOT_FOUND");
    assert_eq!(data["details"], json!({"not_found": {"hash": "f00d"}}));
    let (code, data) = refusal(read(client, "cas://objects/NOPE").await.unwrap_err());
    assert_eq!((code, &data["code"]), (-32602, &json!("INVALID_REQUEST")));
    let (code, data) = refusal(read(client, "cas://listing/ab?page=x").await.unwrap_err());
    assert_eq!(
        (code, &data["uri"]),
        (-32602, &json!("cas://listing/ab?page=x"))
    );

    let mut arguments = serde_json::Map::new();
    arguments.insert("key".into(), json!("a_minor"));
    arguments.insert("mood".into(), json!("stern"));
    let got = client
        .get_prompt(GetPromptRequestParams::new("compose").with_arguments(arguments))
        .await
        .unwrap();
    let got = serde_json::to_value(&got).unwrap();
    assert_eq!(got["description"], "Ask for a tune.");
    assert_eq!(
        got["messages"][0],
        json!({"role": "user", "content": {"type": "text", "text": "Write a stern tune in AMinor."}})
    );
    assert_eq!(got["messages"][1]["content"]["type"], "image");
    let (code, _) = refusal(
        client
            .get_prompt(GetPromptRequestParams::new("compose"))
            .await
            .unwrap_err(),
    );
    assert_eq!(code, -32602, "a required argument is missing");
    let (code, data) = refusal(
        client
            .get_prompt(GetPromptRequestParams::new("nope"))
            .await
            .unwrap_err(),
    );
    assert_eq!((code, data), (-32602, json!({"name": "nope"})));

    let keys = client
        .complete_prompt_argument("compose", "key", "a", None)
        .await
        .unwrap();
    assert_eq!(keys.values, ["a_minor"]);
    let context = CompletionContext::with_arguments(HashMap::from([(
        "key".to_owned(),
        "a_minor".to_owned(),
    )]));
    let moods = client
        .complete_prompt_argument("compose", "mood", "s", Some(context))
        .await
        .unwrap();
    assert_eq!(moods.values, ["sad", "stern"]);
    let hashes = client
        .complete_resource_argument("cas://objects/{hash}", "hash", "be", None)
        .await
        .unwrap();
    assert_eq!(hashes.values, ["beef", "bead"]);
}

#[tokio::test]
async fn the_capabilities_and_lists_come_from_the_catalogue() {
    let client = in_process().await;
    let info = client.peer_info().expect("initialized");
    let capabilities = serde_json::to_value(&info.capabilities).unwrap();
    assert!(capabilities["resources"].is_object(), "{capabilities}");
    assert!(capabilities["prompts"].is_object(), "{capabilities}");
    assert!(capabilities["completions"].is_object(), "{capabilities}");
    // No tool has an app: the MCP Apps extension is not declared.
    assert!(
        capabilities["extensions"]
            .get("io.modelcontextprotocol/ui")
            .is_none(),
        "{capabilities}"
    );

    let resources = client.list_resources(None).await.unwrap();
    let listed = serde_json::to_value(&resources).unwrap();
    assert_eq!(listed["resources"][0]["uri"], "cas://licence");
    assert_eq!(listed["resources"][0]["mimeType"], "text/markdown");
    assert_eq!(listed["ttlMs"], 60_000);
    assert_eq!(listed["cacheScope"], "public");
    let templates = client.list_resource_templates(None).await.unwrap();
    let templates: Vec<&str> = templates
        .resource_templates
        .iter()
        .map(|t| t.uri_template.as_str())
        .collect();
    assert_eq!(
        templates,
        ["cas://objects/{hash}", "cas://listing/{prefix}{?page}"]
    );
    let prompts = client.list_prompts(None).await.unwrap();
    let names: Vec<&str> = prompts.prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["compose", "summarise"]);
    let arguments = serde_json::to_value(&prompts.prompts[0].arguments).unwrap();
    assert_eq!(arguments[0]["name"], "key");
    assert_eq!(arguments[0]["required"], true);
    assert_eq!(arguments[1]["required"], false);

    let cursor = rmcp::model::PaginatedRequestParams::default().with_cursor(Some("made-up".into()));
    let (code, data) = refusal(client.list_resources(Some(cursor)).await.unwrap_err());
    assert_eq!((code, data), (-32602, json!({"cursor": "made-up"})));
}

/// Whether `client`'s server declared `resources.subscribe`.
fn offers_subscriptions<H: rmcp::ClientHandler>(client: &RunningService<RoleClient, H>) -> bool {
    let capabilities = serde_json::to_value(&client.peer_info().unwrap().capabilities).unwrap();
    capabilities["resources"]["subscribe"] == true
}

#[allow(deprecated)] // `resources/subscribe`, which 2025-11-25 clients send
#[tokio::test]
async fn subscriptions_are_offered_only_where_updates_can_be_heard() {
    // A dispatcher with no update channel connected, and a gateway that
    // follows no IOPub, would accept subscriptions and never keep them.
    let (_worker, through_gateway) = gateway().await;
    for client in [in_process().await, through_gateway] {
        assert!(!offers_subscriptions(&client));
        let error = client
            .subscribe(SubscribeRequestParams::new("cas://listing/a"))
            .await
            .unwrap_err();
        assert_eq!(
            refusal(error).0,
            -32601,
            "as for a server with no such resource"
        );
        // The resources themselves are still read.
        assert!(read(&client, "cas://licence").await.is_ok());
    }
    let dispatcher = Dispatcher::new(Store).with_resource_updates(ResourceUpdates::new());
    let connected = piped(McpServer::new(dispatcher).expect("the schema parses")).await;
    assert!(offers_subscriptions(&connected));
}

#[tokio::test]
async fn resources_prompts_and_completions_are_answered_in_process() {
    reads_gets_and_completes(&in_process().await).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resources_prompts_and_completions_cross_the_hoot01_gateway() {
    let (_worker, client) = gateway().await;
    reads_gets_and_completes(&client).await;
}

// `resources/subscribe` is what 2025-11-25 sessions have; rmcp marks it
// legacy, as 2026-07-28 replaced it with `subscriptions/listen`.
#[allow(deprecated)]
#[tokio::test]
async fn a_session_hears_the_updates_of_what_it_subscribed_to() {
    let updates = ResourceUpdates::new();
    let dispatcher = Dispatcher::new(Store).with_resource_updates(updates.clone());
    let (client, mut heard) =
        watching(McpServer::new(dispatcher).expect("the schema parses")).await;
    let capabilities = serde_json::to_value(&client.peer_info().unwrap().capabilities).unwrap();
    assert_eq!(capabilities["resources"]["subscribe"], true);

    for uri in ["cas://listing/a", "cas://listing/b"] {
        client
            .subscribe(SubscribeRequestParams::new(uri))
            .await
            .expect("subscribable");
    }
    updates.updated("cas://listing/a");
    assert_eq!(next(&mut heard).await, "cas://listing/a");

    // Only what it subscribed to, and no longer once it left.
    client
        .unsubscribe(UnsubscribeRequestParams::new("cas://listing/a"))
        .await
        .unwrap();
    updates.updated("cas://listing/a");
    updates.updated("cas://listing/c");
    updates.updated("cas://listing/b");
    assert_eq!(next(&mut heard).await, "cas://listing/b");

    // A resource that is not `@subscribable`, or no resource at all.
    for uri in ["cas://objects/beef", "cas://elsewhere"] {
        let error = client
            .subscribe(SubscribeRequestParams::new(uri))
            .await
            .unwrap_err();
        assert_eq!(refusal(error), (-32602, json!({"uri": uri})));
    }
}

#[tokio::test]
async fn a_listener_hears_the_updates_it_asked_for() {
    let updates = ResourceUpdates::new();
    let dispatcher = Dispatcher::new(Store).with_resource_updates(updates.clone());
    let server = McpServer::new(dispatcher).expect("the schema parses");
    // A 2026-07-28 client: `server/discover`, no session, `subscriptions/listen`.
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
    let filter = SubscriptionFilter::builder()
        .resource_subscriptions([
            "cas://listing/a".to_owned(),
            "cas://objects/beef".to_owned(),
        ])
        .build();
    let mut subscription = client.listen(filter).await.expect("acknowledged");
    // Only the subscribable one is accepted.
    assert_eq!(
        subscription.acknowledged().resource_subscriptions,
        Some(vec!["cas://listing/a".to_owned()])
    );
    updates.updated("cas://objects/beef");
    updates.updated("cas://listing/a");
    let notification = tokio::time::timeout(SOON, subscription.next())
        .await
        .expect("in time")
        .expect("a notification")
        .expect("the stream is open");
    let ServerNotification::ResourceUpdatedNotification(updated) = notification else {
        panic!("an update, not {notification:?}");
    };
    assert_eq!(updated.params.uri, "cas://listing/a");
}

#[allow(deprecated)] // `resources/subscribe`, as above
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_s_updates_reach_a_gateway_session_over_iopub() {
    let updates = ResourceUpdates::new();
    let worker = toolwright::hoot::Server::serve(
        Dispatcher::new(Store).with_resource_updates(updates.clone()),
        ServerConfig::new("tcp://127.0.0.1:0").iopub("tcp://127.0.0.1:0"),
    )
    .expect("the worker binds");
    let iopub = worker.iopub_endpoint().expect("it publishes").to_owned();
    let client = Client::<ToolCatalogue>::connect(
        &[worker.endpoint()],
        ClientConfig::default().iopub(iopub),
    )
    .expect("the gateway connects");
    assert!(client.ready(SOON).await, "the worker answers");
    let (session, mut heard) = watching(McpServer::new(client).expect("the schema parses")).await;
    assert!(offers_subscriptions(&session));
    session
        .subscribe(SubscribeRequestParams::new("cas://listing/a"))
        .await
        .expect("subscribable");
    // A SUB socket hears nothing published before it has joined: say it
    // again until it is heard.
    let heard = tokio::time::timeout(SOON, async {
        loop {
            updates.updated("cas://listing/a");
            if let Ok(Some(uri)) =
                tokio::time::timeout(Duration::from_millis(100), heard.recv()).await
            {
                return uri;
            }
        }
    })
    .await
    .expect("heard in time");
    assert_eq!(heard, "cas://listing/a");
}

#[tokio::test]
async fn an_entry_s_handler_is_heard_by_its_client() {
    let (client, mut heard) =
        watching(McpServer::new(Dispatcher::new(Store)).expect("the schema parses")).await;
    let got = client
        .get_prompt(GetPromptRequestParams::new("summarise"))
        .await
        .expect("a prompt");
    assert_eq!(got.messages.len(), 1);
    // Told before the answer.
    assert_eq!(
        heard.try_recv().ok().as_deref(),
        Some(r#"log: "counting the objects""#)
    );
}
