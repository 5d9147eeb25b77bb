//! A principal forwarded over HOOT01: a gateway authenticated with CURVE
//! hands its caller's principal to the backend, whose handler sees it and
//! whose dispatcher holds it to the tool's scopes; a plain-text peer's
//! principal is refused unless the backend trusts its network.
#![cfg(feature = "hoot")]

mod support;

use std::sync::Arc;
use std::time::Duration;

use support::*;
use toolwright::hoot::{Client, ClientConfig, KeyPair, Server, ServerConfig, ServerHandle};
use toolwright::port::{CallOptions, CallPort};
use toolwright::{Dispatcher, DispatcherConfig, Principal, ResponseEnvelope, codes};

type Hoot = Client<ToolCatalogue>;

fn client_config() -> ClientConfig {
    ClientConfig::default()
        .heartbeat(Duration::from_millis(50), Duration::from_secs(3600))
        .timeout(Duration::from_secs(10))
}

fn alice(scopes: &[&str]) -> Arc<Principal> {
    Arc::new(
        Principal::new("alice")
            .with_issuer("https://id.example")
            .with_scopes(scopes),
    )
}

/// `launch` for `principal`, waited for until it ends.
async fn launch(client: &Hoot, principal: Option<Arc<Principal>>) -> Envelope {
    let request = ToolRequest::Launch(LaunchRequest { fail: false });
    let mut options = CallOptions::default().wait_until_done();
    if let Some(principal) = principal {
        options = options.principal(principal);
    }
    client.call(encode(&request), options).await
}

fn launched_for(backend: &Dispatcher<Studio>) -> Vec<Option<String>> {
    backend
        .service()
        .probes
        .launched_for
        .lock()
        .expect("probe lock")
        .clone()
}

/// A plain-text server over `backend`, configured further by `configure`,
/// and a client of it.
async fn plain(
    backend: &Dispatcher<Studio>,
    configure: impl FnOnce(ServerConfig) -> ServerConfig,
) -> (ServerHandle, Hoot) {
    let config = configure(ServerConfig::new("tcp://127.0.0.1:0"));
    let server = Server::serve(backend.clone(), config).expect("the server binds");
    let client = Hoot::connect(&[server.endpoint()], client_config()).expect("connect");
    assert!(client.ready(SOON).await, "{:?}", client.backends());
    (server, client)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_authenticated_gateways_principal_reaches_the_handler_and_is_held_to_its_scopes() {
    let (server_keys, gateway_keys) = (
        KeyPair::generate().expect("CURVE"),
        KeyPair::generate().expect("CURVE"),
    );
    let backend = dispatcher(DispatcherConfig::default());
    let config =
        ServerConfig::new("tcp://127.0.0.1:0").curve(server_keys.clone(), [gateway_keys.public()]);
    let server = Server::serve(backend.clone(), config).expect("the server binds");
    let gateway = Hoot::connect(
        &[server.endpoint()],
        client_config().curve(gateway_keys, server_keys.public()),
    )
    .expect("connect");
    assert!(gateway.ready(SOON).await, "{:?}", gateway.backends());

    let answer = launch(&gateway, Some(alice(&["studio:launch"]))).await;
    assert_eq!(answer, ResponseEnvelope::Success(ToolResponse::Launch));
    assert_eq!(launched_for(&backend), [Some("alice".to_owned())]);

    // The backend checks the scopes itself: a gateway that let a call
    // through without them does not get the handler run.
    let answer = launch(&gateway, Some(alice(&["studio:read"]))).await;
    let e = error(&answer);
    assert_eq!(e.code, codes::FORBIDDEN);
    assert_eq!(
        e.details.as_ref().map(|d| d["scopes"].clone()),
        Some(serde_json::json!(["studio:launch"]))
    );
    // A call that forwards nobody runs as before, for nobody.
    let answer = launch(&gateway, None).await;
    assert_eq!(answer, ResponseEnvelope::Success(ToolResponse::Launch));
    assert_eq!(launched_for(&backend), [Some("alice".to_owned()), None]);
    assert_eq!(server.stats().refused, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_text_peers_principal_is_refused_before_the_call_runs() {
    let backend = dispatcher(DispatcherConfig::default());
    let (server, client) = plain(&backend, |config| config).await;
    let answer = launch(&client, Some(alice(&["studio:launch"]))).await;
    let e = error(&answer);
    assert_eq!(e.code, codes::FORBIDDEN);
    assert!(
        e.message.starts_with(
            "this backend takes a forwarded principal only from a peer it authenticated"
        ),
        "{}",
        e.message
    );
    assert!(launched_for(&backend).is_empty());
    assert_eq!(server.stats().refused, 1);
    // Without a principal the same peer is served.
    let answer = launch(&client, None).await;
    assert_eq!(answer, ResponseEnvelope::Success(ToolResponse::Launch));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backend_that_trusts_its_network_takes_a_plain_peers_principal() {
    let backend = dispatcher(DispatcherConfig::default());
    let (server, client) = plain(&backend, |config| config.trust_plain_peers(true)).await;
    let answer = launch(&client, Some(alice(&["studio:launch"]))).await;
    assert_eq!(answer, ResponseEnvelope::Success(ToolResponse::Launch));
    assert_eq!(launched_for(&backend), [Some("alice".to_owned())]);
    let answer = launch(&client, Some(alice(&[]))).await;
    assert_eq!(error(&answer).code, codes::FORBIDDEN);
    assert_eq!(launched_for(&backend).len(), 1);
    assert_eq!(server.stats().refused, 0);
}
