//! OAuth 2.1 on the HTTP doors, against an identity provider inside the
//! test (its metadata and keys served on loopback, its tokens signed
//! here): the protected-resource metadata, the `401` challenge, every
//! kind of bad token refused as `invalid_token`, a key rotation picked
//! up, keys that cannot be had answered `503`, the static token beside
//! OAuth, and jobs owned by the principal.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::routing::get;
use base64::Engine as _;
use ed25519_dalek::SigningKey;
use ed25519_dalek::pkcs8::EncodePrivateKey as _;
use hyper::StatusCode;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use support::http::*;
use support::*;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use toolwright::DispatcherConfig;
use toolwright::http::Auth;
use toolwright::mcp::{HttpConfig, McpServer};

/// A signing key of the provider, from a fixed seed.
struct Key {
    kid: &'static str,
    signing: SigningKey,
}

impl Key {
    fn new(kid: &'static str, seed: u8) -> Self {
        Key {
            kid,
            signing: SigningKey::from_bytes(&[seed; 32]),
        }
    }

    /// Its public half, as a JWK.
    fn jwk(&self) -> Value {
        let x = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(self.signing.verifying_key().to_bytes());
        json!({"kty": "OKP", "crv": "Ed25519", "x": x, "kid": self.kid, "use": "sig", "alg": "EdDSA"})
    }

    /// `claims` signed with it, under its `kid`.
    fn sign(&self, claims: &Value) -> String {
        let der = self.signing.to_pkcs8_der().expect("PKCS #8");
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(self.kid.to_owned());
        jsonwebtoken::encode(&header, claims, &EncodingKey::from_ed_der(der.as_bytes()))
            .expect("signed")
    }
}

/// The identity provider: its RFC 8414 metadata and its key set, which a
/// test may change, on loopback.
struct Provider {
    issuer: String,
    keys: Arc<Mutex<Vec<Value>>>,
    fetches: Arc<AtomicUsize>,
    stop: CancellationToken,
}

impl Drop for Provider {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

async fn provider(keys: &[&Key]) -> Provider {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let issuer = format!("http://{}", listener.local_addr().expect("an address"));
    let published = Arc::new(Mutex::new(keys.iter().map(|k| k.jwk()).collect::<Vec<_>>()));
    let fetches = Arc::new(AtomicUsize::new(0));
    let metadata = json!({"issuer": issuer, "jwks_uri": format!("{issuer}/jwks")}).to_string();
    let router = Router::new()
        .route(
            "/.well-known/oauth-authorization-server",
            get(move || async move { ([("content-type", "application/json")], metadata) }),
        )
        .route(
            "/jwks",
            get({
                let (published, fetches) = (published.clone(), fetches.clone());
                move || async move {
                    fetches.fetch_add(1, Ordering::SeqCst);
                    let keys = published.lock().unwrap().clone();
                    (
                        [("content-type", "application/json")],
                        json!({"keys": keys}).to_string(),
                    )
                }
            }),
        );
    let stop = CancellationToken::new();
    let stopped = stop.clone();
    tokio::spawn(async move {
        axum::serve(listener, router)
            .with_graceful_shutdown(async move { stopped.cancelled().await })
            .await
    });
    Provider {
        issuer,
        keys: published,
        fetches,
        stop,
    }
}

/// The MCP server, accepting tokens for its own `/mcp` from `issuer`
/// (and the static token `s3cret`).
async fn server(issuer: &str, refetch_after: Duration) -> (Server, String) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let d = dispatcher(DispatcherConfig::default());
    serve(listener, d, issuer, refetch_after)
}

/// Serves `d` on `listener` as [`server`] does.
fn serve(
    listener: TcpListener,
    d: toolwright::Dispatcher<Studio>,
    issuer: &str,
    refetch_after: Duration,
) -> (Server, String) {
    serve_as(listener, d, issuer, refetch_after, |mcp| mcp)
}

type Mcp = McpServer<toolwright::Dispatcher<Studio>>;

/// Serves `d` on `listener` as [`server`] does, the MCP server made as
/// `make` says.
fn serve_as(
    listener: TcpListener,
    d: toolwright::Dispatcher<Studio>,
    issuer: &str,
    refetch_after: Duration,
    make: impl FnOnce(Mcp) -> Mcp,
) -> (Server, String) {
    let addr = listener.local_addr().expect("an address");
    let resource = format!("http://{addr}/mcp");
    let stop = CancellationToken::new();
    let auth = Auth::new(resource.clone())
        .issuer(issuer)
        .refetch_after(refetch_after);
    let config = HttpConfig::default()
        .auth(auth)
        .bearer_token("s3cret")
        .shutdown(stop.clone());
    let mcp = make(McpServer::new(d).expect("the schema parses"));
    tokio::spawn(mcp.serve_http_on(listener, config));
    (Server { addr, stop }, resource)
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
}

/// Claims a good token of `issuer` for `audience` carries.
fn claims(issuer: &str, audience: &str, sub: &str, scope: &str) -> Value {
    json!({
        "iss": issuer, "aud": audience, "sub": sub, "scope": scope,
        "client_id": "test-client", "iat": now(), "exp": now() + 600,
    })
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// A sessionless 2026-07-28 `tools/call` of `tool` with `authorization`.
async fn call(server: &Server, authorization: &str, tool: &str, arguments: Value) -> Answer {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }}
    });
    let headers = [
        ("authorization", authorization),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", tool),
    ];
    post(server, &headers, body.to_string()).await
}

async fn call_add(server: &Server, authorization: &str) -> Answer {
    call(server, authorization, "add", json!({"a": 2, "b": 3})).await
}

fn challenge(answer: &Answer) -> String {
    answer
        .headers
        .get("www-authenticate")
        .unwrap_or_else(|| panic!("a challenge: {} {}", answer.status, answer.body))
        .to_str()
        .expect("ASCII")
        .to_owned()
}

#[tokio::test]
async fn the_metadata_names_the_resource_and_its_issuer() {
    let key = Key::new("k1", 1);
    let idp = provider(&[&key]).await;
    let (server, resource) = server(&idp.issuer, Duration::ZERO).await;
    let path = "/.well-known/oauth-protected-resource/mcp";
    let answer = request(&server, hyper::Method::GET, path, &[], "").await;
    assert_eq!(answer.status, StatusCode::OK);
    let document: Value = serde_json::from_str(&answer.body).expect("JSON");
    assert_eq!(document["resource"], resource);
    assert_eq!(document["authorization_servers"], json!([idp.issuer]));
    assert_eq!(document["bearer_methods_supported"], json!(["header"]));
    assert_eq!(
        document["scopes_supported"],
        json!(["events:all", "studio:launch"])
    );
}

#[tokio::test]
async fn a_call_without_a_token_is_a_401_that_points_to_the_metadata() {
    let key = Key::new("k1", 1);
    let idp = provider(&[&key]).await;
    let (server, _) = server(&idp.issuer, Duration::ZERO).await;
    let answer = post(&server, &[("mcp-protocol-version", "2026-07-28")], "{}").await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        challenge(&answer),
        format!(
            "Bearer resource_metadata=\"http://{}/.well-known/oauth-protected-resource/mcp\"",
            server.addr
        )
    );
}

#[tokio::test]
async fn a_valid_token_calls_a_tool_and_keys_are_fetched_once() {
    let key = Key::new("k1", 1);
    let idp = provider(&[&key]).await;
    let (server, resource) = server(&idp.issuer, Duration::from_secs(30)).await;
    let token = key.sign(&claims(&idp.issuer, &resource, "ada", ""));
    for _ in 0..3 {
        let answer = call_add(&server, &bearer(&token)).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        assert_eq!(
            answer.message()["result"]["structuredContent"],
            json!({"result": 5})
        );
    }
    assert_eq!(idp.fetches.load(Ordering::SeqCst), 1, "the keys are kept");
}

#[tokio::test]
async fn every_kind_of_bad_token_is_refused_as_invalid() {
    let key = Key::new("k1", 1);
    let idp = provider(&[&key]).await;
    let (server, resource) = server(&idp.issuer, Duration::ZERO).await;
    let good = claims(&idp.issuer, &resource, "ada", "");
    let with = |field: &str, value: Value| {
        let mut claims = good.clone();
        claims[field] = value;
        claims
    };
    let stranger = Key::new("k1", 2);
    let tampered = {
        let token = key.sign(&good);
        let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
        let payload = with("sub", json!("root")).to_string();
        parts[1] = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(payload);
        parts.join(".")
    };
    let unsigned = {
        let b64 = |v: Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
        format!(
            "{}.{}.",
            b64(json!({"alg": "none", "typ": "JWT"})),
            b64(good.clone())
        )
    };
    let cases = [
        ("expired", key.sign(&with("exp", json!(now() - 3600)))),
        ("not yet valid", key.sign(&with("nbf", json!(now() + 3600)))),
        (
            "for another resource",
            key.sign(&with("aud", json!("https://other.example/mcp"))),
        ),
        (
            "from an untrusted issuer",
            key.sign(&with("iss", json!("https://evil.example"))),
        ),
        ("signed by another key", stranger.sign(&good)),
        ("tampered", tampered),
        ("alg none", unsigned),
        ("without a subject", {
            let mut claims = good.clone();
            claims.as_object_mut().expect("a map").remove("sub");
            key.sign(&claims)
        }),
        ("garbage", "not.a.jwt".to_owned()),
    ];
    for (what, token) in cases {
        let answer = call_add(&server, &bearer(&token)).await;
        assert_eq!(
            answer.status,
            StatusCode::UNAUTHORIZED,
            "{what}: {}",
            answer.body
        );
        let challenge = challenge(&answer);
        assert!(
            challenge.starts_with("Bearer resource_metadata=")
                && challenge.contains("error=\"invalid_token\""),
            "{what}: {challenge}"
        );
    }
}

#[tokio::test]
async fn a_rotated_key_is_picked_up() {
    let old = Key::new("k1", 1);
    let new = Key::new("k2", 3);
    let idp = provider(&[&old]).await;
    let (server, resource) = server(&idp.issuer, Duration::ZERO).await;
    let before = old.sign(&claims(&idp.issuer, &resource, "ada", ""));
    assert_eq!(
        call_add(&server, &bearer(&before)).await.status,
        StatusCode::OK
    );
    *idp.keys.lock().unwrap() = vec![new.jwk()];
    let after = new.sign(&claims(&idp.issuer, &resource, "ada", ""));
    let answer = call_add(&server, &bearer(&after)).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(idp.fetches.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn made_up_key_ids_do_not_make_the_server_fetch_on_every_call() {
    let key = Key::new("k1", 1);
    let idp = provider(&[&key]).await;
    let (server, resource) = server(&idp.issuer, Duration::from_secs(60)).await;
    let good = key.sign(&claims(&idp.issuer, &resource, "ada", ""));
    assert_eq!(
        call_add(&server, &bearer(&good)).await.status,
        StatusCode::OK
    );
    for n in 0..5 {
        let made_up = Key {
            kid: ["x0", "x1", "x2", "x3", "x4"][n],
            signing: SigningKey::from_bytes(&[9; 32]),
        };
        let token = made_up.sign(&claims(&idp.issuer, &resource, "ada", ""));
        let answer = call_add(&server, &bearer(&token)).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(idp.fetches.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn keys_that_cannot_be_had_are_a_503_not_a_refusal() {
    let key = Key::new("k1", 1);
    let idp = provider(&[&key]).await;
    let issuer = idp.issuer.clone();
    drop(idp);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let (server, resource) = server(&issuer, Duration::ZERO).await;
    let token = key.sign(&claims(&issuer, &resource, "ada", ""));
    let answer = call_add(&server, &bearer(&token)).await;
    assert_eq!(
        answer.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        answer.body
    );
    assert!(answer.headers.contains_key("retry-after"));
}

#[tokio::test]
async fn the_static_token_works_beside_oauth_and_a_wrong_one_does_not() {
    let key = Key::new("k1", 1);
    let idp = provider(&[&key]).await;
    let (server, _) = server(&idp.issuer, Duration::ZERO).await;
    assert_eq!(
        call_add(&server, "Bearer s3cret").await.status,
        StatusCode::OK
    );
    let wrong = call_add(&server, "Bearer s3cre7").await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
}

/// The JSON a tool call's result carries: its structured content.
fn structured(answer: &Answer) -> Value {
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    answer.message()["result"]["structuredContent"].clone()
}

#[tokio::test]
async fn a_caller_without_a_tools_scope_is_forbidden_and_nothing_runs() {
    let key = Key::new("k1", 1);
    let idp = provider(&[&key]).await;
    let (server, resource) = server(&idp.issuer, Duration::ZERO).await;
    let ada = bearer(&key.sign(&claims(&idp.issuer, &resource, "ada", "other:scope")));
    let answer = call(&server, &ada, "launch", json!({"fail": false})).await;
    let result = &answer.message()["result"];
    assert_eq!(result["isError"], true, "{}", answer.body);
    let error = &result["structuredContent"];
    assert_eq!(error["code"], "FORBIDDEN");
    assert_eq!(error["details"]["scopes"], json!(["studio:launch"]));
    assert!(
        error["message"]
            .as_str()
            .is_some_and(|m| m.contains("`studio:launch`")),
        "{error}"
    );
    // No job was started for the call.
    let jobs = structured(&call(&server, &ada, "job_list", json!({})).await);
    assert_eq!(jobs["jobs"], json!([]), "{jobs}");

    // The scope lets it through.
    let granted = bearer(&key.sign(&claims(&idp.issuer, &resource, "ada", "studio:launch")));
    let started = structured(&call(&server, &granted, "launch", json!({"fail": false})).await);
    assert!(started["job_id"].is_string(), "{started}");
}

/// The names in `tools/list` with `authorization`: a sessionless
/// 2026-07-28 request, and a 2025-11-25 session's, which must agree.
async fn listed(server: &Server, authorization: &str) -> Vec<String> {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/list",
        "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }}
    });
    let headers = [
        ("authorization", authorization),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/list"),
    ];
    let stateless = names(&post(server, &headers, body.to_string()).await);

    let sid = session(server, "2025-11-25", &[("authorization", authorization)]).await;
    let headers = [
        ("authorization", authorization),
        ("mcp-session-id", sid.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let body = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}});
    let in_session = names(&post(server, &headers, body.to_string()).await);
    assert_eq!(stateless, in_session, "the revisions list alike");
    stateless
}

/// The tool names of a `tools/list` answer.
fn names(answer: &Answer) -> Vec<String> {
    let tools = answer.message()["result"]["tools"].clone();
    let tools = tools
        .as_array()
        .unwrap_or_else(|| panic!("a listing: {}", answer.body));
    tools
        .iter()
        .map(|t| t["name"].as_str().expect("a name").to_owned())
        .collect()
}

#[tokio::test]
async fn a_server_may_list_to_each_caller_only_what_it_can_call() {
    let key = Key::new("k1", 1);
    let idp = provider(&[&key]).await;
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let d = dispatcher(DispatcherConfig::default());
    let (server, resource) = serve_as(listener, d, &idp.issuer, Duration::ZERO, |mcp| {
        mcp.list_callable_only()
    });
    let ada = bearer(&key.sign(&claims(&idp.issuer, &resource, "ada", "other:scope")));
    let shown = listed(&server, &ada).await;
    assert!(shown.iter().any(|t| t == "add"), "{shown:?}");
    assert!(!shown.iter().any(|t| t == "launch"), "{shown:?}");
    let granted = bearer(&key.sign(&claims(&idp.issuer, &resource, "ada", "studio:launch")));
    assert!(
        listed(&server, &granted)
            .await
            .iter()
            .any(|t| t == "launch")
    );
    // The static token holds every scope.
    assert!(
        listed(&server, &bearer("s3cret"))
            .await
            .iter()
            .any(|t| t == "launch")
    );

    // By default everything is listed, with what it needs.
    let (server, resource) = self::server(&idp.issuer, Duration::ZERO).await;
    let ada = bearer(&key.sign(&claims(&idp.issuer, &resource, "ada", "other:scope")));
    assert!(listed(&server, &ada).await.iter().any(|t| t == "launch"));
}

#[tokio::test]
async fn the_web_route_answers_a_missing_scope_403_with_the_scope_challenge() {
    let key = Key::new("k1", 1);
    let idp = provider(&[&key]).await;
    let (server, resource) = server(&idp.issuer, Duration::ZERO).await;
    let ada = bearer(&key.sign(&claims(&idp.issuer, &resource, "ada", "")));
    let answer = request(
        &server,
        hyper::Method::POST,
        "/api/tools/launch",
        &[("authorization", &ada)],
        r#"{"fail": false}"#,
    )
    .await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.body);
    let challenge = challenge(&answer);
    assert!(
        challenge.contains("error=\"insufficient_scope\"")
            && challenge.contains("scope=\"studio:launch\"")
            && challenge.starts_with("Bearer resource_metadata="),
        "{challenge}"
    );
    let body: Value = serde_json::from_str(&answer.body).expect("JSON");
    assert_eq!(body["error"]["code"], "FORBIDDEN");
}

#[tokio::test]
async fn a_principals_jobs_are_its_own_on_every_door() {
    let key = Key::new("k1", 1);
    let idp = provider(&[&key]).await;
    let (server, resource) = server(&idp.issuer, Duration::ZERO).await;
    let token =
        |sub: &str| bearer(&key.sign(&claims(&idp.issuer, &resource, sub, "studio:launch")));
    let (ada, bob) = (token("ada"), token("bob"));
    let started = structured(&call(&server, &ada, "launch", json!({"fail": false})).await);
    let job_id = started["job_id"].as_str().expect("a job").to_owned();

    // Bob, over MCP, does not see it.
    let answer = call(&server, &bob, "job_status", json!({"job_id": job_id})).await;
    let result = &answer.message()["result"];
    assert_eq!(result["isError"], true, "{}", answer.body);
    assert_eq!(result["structuredContent"]["code"], "NOT_FOUND");

    // Ada does, over MCP and over the web route, with a new token.
    let status = structured(&call(&server, &ada, "job_status", json!({"job_id": job_id})).await);
    assert_eq!(status["job_id"], job_id);
    let again = token("ada");
    let body = json!({"job_id": job_id}).to_string();
    let web = request(
        &server,
        hyper::Method::POST,
        "/api/tools/job_status",
        &[("authorization", &again)],
        body.clone(),
    )
    .await;
    assert_eq!(web.status, StatusCode::OK, "{}", web.body);
    let web_bob = request(
        &server,
        hyper::Method::POST,
        "/api/tools/job_status",
        &[("authorization", &bob)],
        body,
    )
    .await;
    let refused: Value = serde_json::from_str(&web_bob.body).expect("JSON");
    assert_eq!(refused["error"]["code"], "NOT_FOUND", "{refused}");
}

/// A dispatcher keeping its jobs in the redb file at `path`, waiting for
/// the last one to let go of it.
fn durable(path: &std::path::Path) -> toolwright::Dispatcher<Studio> {
    for _ in 0..200 {
        if let Ok(records) = toolwright::jobs::RedbJobs::open(path) {
            let config = DispatcherConfig::default();
            return toolwright::Dispatcher::with_job_records(
                Studio::default(),
                config,
                Arc::new(records),
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the job file stays locked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_principals_job_outlives_a_restart_and_stays_its_own() {
    let key = Key::new("k1", 1);
    let idp = provider(&[&key]).await;
    let dir = tempfile::tempdir().expect("a directory");
    let path = dir.path().join("jobs.redb");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("an address");
    let (first, resource) = serve(listener, durable(&path), &idp.issuer, Duration::ZERO);
    let token =
        |sub: &str| bearer(&key.sign(&claims(&idp.issuer, &resource, sub, "studio:launch")));
    let started = structured(&call(&first, &token("ada"), "launch", json!({"fail": false})).await);
    let job_id = started["job_id"].as_str().expect("a job").to_owned();
    // Finished and recorded before the server goes.
    let mut done = false;
    for _ in 0..100 {
        let status = structured(
            &call(
                &first,
                &token("ada"),
                "job_status",
                json!({"job_id": job_id}),
            )
            .await,
        );
        if status["state"] == "complete" {
            done = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(done, "the job ends");
    drop(first);

    // The same address (so the same resource), a new process's server.
    let listener = loop {
        match TcpListener::bind(addr).await {
            Ok(listener) => break listener,
            Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    };
    let (second, _) = serve(listener, durable(&path), &idp.issuer, Duration::ZERO);
    let status = structured(
        &call(
            &second,
            &token("ada"),
            "job_status",
            json!({"job_id": job_id}),
        )
        .await,
    );
    assert_eq!(status["state"], "complete", "{status}");
    let answer = call(
        &second,
        &token("bob"),
        "job_status",
        json!({"job_id": job_id}),
    )
    .await;
    assert_eq!(
        answer.message()["result"]["structuredContent"]["code"],
        "NOT_FOUND",
        "{}",
        answer.body
    );
}
