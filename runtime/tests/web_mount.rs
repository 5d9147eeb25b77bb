//! A mounted server's resources and prompts on the web routes: a server
//! serving `support/apps.tool` mounts one serving the entries of
//! `macros/tests/support/entries.tool` under the prefix `b`, needing the
//! scope `b:use`, and answers `GET /api/resources` and `POST
//! /api/prompts/{name}` for them as for its own — the contents in their
//! MIME type, an unknown URI `404`, a caller without the scope `403`, and
//! `503` `UNAVAILABLE` once the mounted server stops — and lists them in
//! `GET /api/tools` with `source: "mcp"`. The mounting server's own app
//! (`ui://add`, whose tool needs `sums:add`) is read only by a caller
//! holding that scope.
#![cfg(all(feature = "mount", feature = "web", feature = "auth"))]

use std::net::SocketAddr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::routing::get;
use base64::Engine as _;
use ed25519_dalek::SigningKey;
use ed25519_dalek::pkcs8::EncodePrivateKey as _;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper::{Method, Request, StatusCode, header};
use hyper_util::rt::TokioIo;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use toolwright::entry::{CompletionRequest, PromptMessages};
use toolwright::http::Auth;
use toolwright::mcp::{HttpConfig, McpServer};
use toolwright::mount::Mount;
use toolwright::{Dispatcher, ToolError};

include!("../../macros/tests/support/entries.rs");

/// The mounted server's handlers.
struct Store;

#[toolwright::tools]
impl Store {
    #[tool]
    fn hello(&self) -> Result<Greeting, ToolError> {
        Ok(Greeting { text: "hi".into() })
    }

    #[resource]
    fn cas_object(&self, arguments: CasObjectArguments) -> Result<Vec<u8>, CasError> {
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
        Ok("# Licence — MIT\n".into())
    }

    #[prompt]
    fn compose(&self, arguments: ComposeArguments) -> Result<PromptMessages, ToolError> {
        let mood = arguments.mood.unwrap_or_else(|| "calm".into());
        Ok(PromptMessages::new().user(format!("Write a {mood} tune in {:?}.", arguments.key)))
    }

    #[prompt]
    fn summarise(&self) -> Result<PromptMessages, ToolError> {
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
    fn moods(&self, request: CompletionRequest) -> Vec<String> {
        // The other arguments reach the handler: a minor key's moods.
        let moods = if request.context.get("key").is_some_and(|k| k == "a_minor") {
            ["sad", "stern"]
        } else {
            ["happy", "hazy"]
        };
        moods
            .into_iter()
            .filter(|m| m.starts_with(&request.value))
            .map(str::to_owned)
            .collect()
    }
}

/// The mounting server's own catalogue.
mod apps {
    use toolwright::ToolError;

    include!("support/apps.rs");

    pub struct Sums;

    #[toolwright::tools(crate::apps)]
    impl Sums {
        #[tool]
        fn add(&self, request: AddRequest) -> Result<AddResponse, ToolError> {
            Ok(AddResponse {
                sum: request.a + request.b,
            })
        }
    }
}

const SOON: Duration = Duration::from_secs(15);

/// The static token: every scope.
const TRUSTED: &str = "Bearer s3cret";

/// The identity provider's key, and its metadata and key set on loopback
/// until the token is cancelled.
async fn provider(key: &SigningKey) -> (String, CancellationToken) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let issuer = format!("http://{}", listener.local_addr().expect("an address"));
    let x = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(key.verifying_key().to_bytes());
    let jwks = json!({"keys": [{"kty": "OKP", "crv": "Ed25519", "x": x, "kid": "k1",
                                "use": "sig", "alg": "EdDSA"}]})
    .to_string();
    let metadata = json!({"issuer": issuer, "jwks_uri": format!("{issuer}/jwks")}).to_string();
    let json = [("content-type", "application/json")];
    let router = Router::new()
        .route(
            "/.well-known/oauth-authorization-server",
            get(move || async move { (json, metadata) }),
        )
        .route("/jwks", get(move || async move { (json, jwks) }));
    let stop = CancellationToken::new();
    let stopped = stop.clone();
    tokio::spawn(async move {
        axum::serve(listener, router)
            .with_graceful_shutdown(async move { stopped.cancelled().await })
            .await
    });
    (issuer, stop)
}

/// A token of `issuer` for `audience`, signed with `key`, holding `scope`.
fn token(key: &SigningKey, issuer: &str, audience: &str, scope: &str) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970")
        .as_secs();
    let claims = json!({"iss": issuer, "aud": audience, "sub": "ada", "scope": scope,
                        "client_id": "test-client", "iat": now, "exp": now + 600});
    let der = key.to_pkcs8_der().expect("PKCS #8");
    let mut head = Header::new(Algorithm::EdDSA);
    head.kid = Some("k1".to_owned());
    let signed = jsonwebtoken::encode(&head, &claims, &EncodingKey::from_ed_der(der.as_bytes()))
        .expect("signed");
    format!("Bearer {signed}")
}

/// The mounted server and the mounting one, with a bearer token lacking
/// the mount's scope.
struct Servers {
    addr: SocketAddr,
    lacking: String,
    mounted: CancellationToken,
    stops: Vec<CancellationToken>,
}

impl Drop for Servers {
    fn drop(&mut self) {
        self.mounted.cancel();
        for stop in &self.stops {
            stop.cancel();
        }
    }
}

async fn start() -> Servers {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let b_addr = listener.local_addr().expect("an address");
    let mounted = CancellationToken::new();
    let config = HttpConfig::default().shutdown(mounted.clone());
    let store = McpServer::new(Dispatcher::new(Store)).expect("the schema parses");
    tokio::spawn(store.serve_http_on(listener, config));

    let key = SigningKey::from_bytes(&[1; 32]);
    let (issuer, provider_stop) = provider(&key).await;
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("an address");
    let resource = format!("http://{addr}/mcp");
    let stop = CancellationToken::new();
    let config = HttpConfig::default()
        .auth(Auth::new(resource.clone()).issuer(&issuer))
        .bearer_token("s3cret")
        .shutdown(stop.clone());
    let mount = Mount::http("b", format!("http://{b_addr}/mcp")).expect("a prefix");
    let server = McpServer::new(Dispatcher::new(apps::Sums))
        .expect("the schema parses")
        .mount(mount.scopes(["b:use"]));
    tokio::spawn(server.serve_http_on(listener, config));
    let servers = Servers {
        addr,
        lacking: token(&key, &issuer, &resource, "other"),
        mounted,
        stops: vec![stop, provider_stop],
    };
    // The mount is listed once it has connected.
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        let (_, _, body) = fetch(&servers, Method::GET, "/api/tools", TRUSTED, "").await;
        let document: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        if document["prompts"]
            .as_array()
            .is_some_and(|p| !p.is_empty())
        {
            return servers;
        }
        assert!(tokio::time::Instant::now() < deadline, "never mounted");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// One request with `authorization`: the answer's status, head and body.
async fn fetch(
    servers: &Servers,
    method: Method,
    path: &str,
    authorization: &str,
    body: &str,
) -> (StatusCode, hyper::HeaderMap, Vec<u8>) {
    let headers = [(header::AUTHORIZATION.as_str(), authorization)];
    fetch_with(servers, method, path, &headers, body).await
}

/// One request with `headers`: the answer's status, head and body.
async fn fetch_with(
    servers: &Servers,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, hyper::HeaderMap, Vec<u8>) {
    let stream = TcpStream::connect(servers.addr).await.expect("connect");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(connection);
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, servers.addr.to_string());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request
        .body(Full::new(Bytes::from(body.to_owned())))
        .expect("a request");
    let response = tokio::time::timeout(SOON, sender.send_request(request))
        .await
        .expect("answered in time")
        .expect("an answer");
    let (status, head) = (response.status(), response.headers().clone());
    let body = response.into_body().collect().await.expect("a body");
    (status, head, body.to_bytes().to_vec())
}

/// A sessionless (2026-07-28) `resources/read` of `uri` on MCP with
/// `authorization`: the JSON-RPC answer.
async fn mcp_read(servers: &Servers, uri: &str, authorization: &str) -> Value {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "resources/read",
        "params": {"uri": uri, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
            "io.modelcontextprotocol/clientCapabilities": {},
        }}
    });
    let headers = [
        (header::AUTHORIZATION.as_str(), authorization),
        (header::CONTENT_TYPE.as_str(), "application/json"),
        (
            header::ACCEPT.as_str(),
            "application/json, text/event-stream",
        ),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "resources/read"),
        ("mcp-name", uri),
    ];
    let (status, _, body) =
        fetch_with(servers, Method::POST, "/mcp", &headers, &body.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    let text = String::from_utf8_lossy(&body);
    serde_json::from_str(&text).unwrap_or_else(|_| {
        text.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
            .find(|m| m.get("result").is_some() || m.get("error").is_some())
            .unwrap_or_else(|| panic!("no JSON-RPC answer in {text}"))
    })
}

/// `GET /api/resources?uri=…` with `authorization`, the URI
/// percent-encoded.
async fn read(
    servers: &Servers,
    uri: &str,
    authorization: &str,
) -> (StatusCode, hyper::HeaderMap, Vec<u8>) {
    let encoded: String = uri
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect();
    let path = format!("/api/resources?uri={encoded}");
    fetch(servers, Method::GET, &path, authorization, "").await
}

/// `POST /api/prompts/{name}` with `authorization`: the status and the
/// JSON answer.
async fn prompt(servers: &Servers, name: &str, args: &str, authorization: &str) -> (u16, Value) {
    let path = format!("/api/prompts/{name}");
    let (status, _, body) = fetch(servers, Method::POST, &path, authorization, args).await;
    let value = serde_json::from_slice(&body)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&body)));
    (status.as_u16(), value)
}

fn json_of(body: &[u8]) -> Value {
    serde_json::from_slice(body)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(body)))
}

fn head(headers: &hyper::HeaderMap, name: header::HeaderName) -> &str {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mounted_resource_is_read_as_its_contents_in_their_mime_type() {
    let servers = start().await;
    let (status, headers, body) = read(&servers, "cas://b/licence", TRUSTED).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    assert_eq!(String::from_utf8(body).unwrap(), "# Licence — MIT\n");
    assert_eq!(
        head(&headers, header::CONTENT_TYPE),
        "text/markdown; charset=utf-8"
    );
    assert_eq!(head(&headers, header::CACHE_CONTROL), "no-cache");
    assert!(head(&headers, header::CONTENT_SECURITY_POLICY).contains("sandbox"));

    // A template's URI, its query variable passed on.
    let (status, headers, body) = read(&servers, "cas://b/listing/ab?page=2", TRUSTED).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    assert_eq!(json_of(&body), json!({"hashes": ["ab2"]}));
    assert!(
        head(&headers, header::CONTENT_TYPE).starts_with("application/json"),
        "{headers:?}"
    );

    // Bytes, in the mounted resource's MIME type.
    let (status, headers, body) = read(&servers, "cas://b/objects/beef", TRUSTED).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    assert_eq!(body, [0xbe, 0xef]);
    assert_eq!(
        head(&headers, header::CONTENT_TYPE),
        "application/octet-stream"
    );

    // The mounted handler's error is the envelope's, as a tool error is.
    let (status, _, body) = read(&servers, "cas://b/objects/cafe", TRUSTED).await;
    assert_eq!(status, StatusCode::OK);
    let error = json_of(&body);
    assert!(error["error"]["message"].is_string(), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mounted_prompt_is_got_with_its_arguments() {
    let servers = start().await;
    let args = r#"{"key": "a_minor", "mood": "sad"}"#;
    let (status, got) = prompt(&servers, "b_compose", args, TRUSTED).await;
    assert_eq!(status, 200, "{got}");
    let text = got["messages"][0]["content"]["text"].as_str().unwrap_or("");
    assert!(text.starts_with("Write a sad tune in "), "{got}");
    assert_eq!(got["messages"][0]["role"], "user");
    assert_eq!(got["description"], "Ask for a tune.", "{got}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_mounted_uri_or_prompt_is_a_404_as_a_catalogue_one() {
    let servers = start().await;
    let (status, _, _) = read(&servers, "cas://b/licence", TRUSTED).await;
    assert_eq!(status, StatusCode::OK, "the mount's resources are read");
    let (status, _, body) = read(&servers, "cas://b/nothing", TRUSTED).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(
        json_of(&body)["error"]["details"],
        json!({"resource": "cas://b/nothing"})
    );
    assert_eq!(json_of(&body)["error"]["code"], "UNKNOWN_ENTRY");
    let (status, _, _) = read(&servers, "cas://b/objects", TRUSTED).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "no template matches it");
    let (status, got) = prompt(&servers, "b_summarise", "{}", TRUSTED).await;
    assert_eq!(status, 200, "the mount's prompts are got: {got}");
    let (status, got) = prompt(&servers, "b_nothing", "{}", TRUSTED).await;
    assert_eq!(status, 404, "{got}");
    assert_eq!(got["error"]["code"], "UNKNOWN_ENTRY");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mounted_prompts_and_templates_arguments_are_completed() {
    let servers = start().await;
    let complete = |body: &'static str, authorization: &'static str| {
        let servers = &servers;
        async move {
            let (status, _, body) =
                fetch(servers, Method::POST, "/api/complete", authorization, body).await;
            (status, json_of(&body))
        }
    };
    let (status, moods) = complete(
        r#"{"ref": {"type": "prompt", "name": "b_compose"}, "argument": {"name": "mood", "value": "s"}, "context": {"arguments": {"key": "a_minor"}}}"#,
        TRUSTED,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{moods}");
    assert_eq!(moods, json!({"values": ["sad", "stern"], "hasMore": false}));
    let (status, hashes) = complete(
        r#"{"ref": {"type": "resource", "uri": "cas://b/objects/{hash}"}, "argument": {"name": "hash", "value": "be"}}"#,
        TRUSTED,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{hashes}");
    assert_eq!(hashes["values"], json!(["beef", "bead"]));
    // A prompt no mount lists is the catalogue's 404.
    let (status, unknown) = complete(
        r#"{"ref": {"type": "prompt", "name": "b_nothing"}, "argument": {"name": "x", "value": ""}}"#,
        TRUSTED,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{unknown}");
    assert_eq!(unknown["error"]["code"], "UNKNOWN_ENTRY");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_without_the_mounts_scope_is_refused_403() {
    let servers = start().await;
    let lacking = servers.lacking.clone();
    let (status, headers, body) = read(&servers, "cas://b/licence", &lacking).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(json_of(&body)["error"]["code"], "FORBIDDEN");
    let challenge = head(&headers, header::WWW_AUTHENTICATE);
    assert!(challenge.contains("scope=\"b:use\""), "{challenge}");
    let (status, got) = prompt(&servers, "b_summarise", "{}", &lacking).await;
    assert_eq!(status, 403, "{got}");
    assert_eq!(got["error"]["code"], "FORBIDDEN");
    let asked = r#"{"ref": {"type": "prompt", "name": "b_compose"}, "argument": {"name": "mood", "value": ""}}"#;
    let (status, _, body) = fetch(&servers, Method::POST, "/api/complete", &lacking, asked).await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "{}",
        String::from_utf8_lossy(&body)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tools_app_is_read_only_by_its_callers() {
    let servers = start().await;
    let lacking = servers.lacking.clone();
    // On the web route: refused as a call of `add` would be.
    let (status, headers, body) = read(&servers, "ui://add", &lacking).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let refused = json_of(&body);
    assert_eq!(refused["error"]["code"], "FORBIDDEN");
    assert_eq!(refused["error"]["details"]["scopes"], json!(["sums:add"]));
    let challenge = head(&headers, header::WWW_AUTHENTICATE);
    assert!(challenge.contains("scope=\"sums:add\""), "{challenge}");
    let (status, headers, _) = read(&servers, "ui://add", TRUSTED).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        head(&headers, header::CONTENT_TYPE),
        "text/html;profile=mcp-app"
    );

    // On MCP: `-32602`, naming the scope.
    let refused = mcp_read(&servers, "ui://add", &lacking).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("`sums:add`")),
        "{refused}"
    );
    let read = mcp_read(&servers, "ui://add", TRUSTED).await;
    assert_eq!(read["result"]["contents"][0]["uri"], "ui://add", "{read}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_mount_answers_503_unavailable() {
    let servers = start().await;
    servers.mounted.cancel();
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        let (status, _, body) = read(&servers, "cas://b/licence", TRUSTED).await;
        if status == StatusCode::SERVICE_UNAVAILABLE {
            assert_eq!(json_of(&body)["error"]["code"], "UNAVAILABLE");
            break;
        }
        // A read made before the server closed its connections still
        // answers.
        assert!(tokio::time::Instant::now() < deadline, "still answering");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (status, got) = prompt(&servers, "b_summarise", "{}", TRUSTED).await;
    assert_eq!(status, 503, "{got}");
    assert_eq!(got["error"]["code"], "UNAVAILABLE");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_lists_mounted_resources_and_prompts() {
    let servers = start().await;
    let (status, headers, body) = fetch(&servers, Method::GET, "/api/tools", TRUSTED, "").await;
    assert_eq!(status, StatusCode::OK);
    let document = json_of(&body);
    let resources = document["resources"].as_array().expect("resources");
    let named = |uri: &str| resources.iter().find(|r| r["uri"] == uri).cloned();
    let licence = named("cas://b/licence").expect("the licence");
    assert_eq!(licence["source"], "mcp");
    assert_eq!(licence["mount"], "b");
    assert_eq!(licence["template"], false);
    assert_eq!(licence["mimeType"], "text/markdown");
    assert_eq!(licence["scopes"], json!(["b:use"]));
    let listing = named("cas://b/listing/{prefix}{?page}").expect("the listing");
    assert_eq!(listing["template"], true);
    assert_eq!(
        listing["arguments"],
        json!([
            {"name": "prefix", "type": "string", "idlType": "string", "required": true},
            {"name": "page", "type": "string", "idlType": "string", "required": false}
        ])
    );
    let prompts = document["prompts"].as_array().expect("prompts");
    let compose = prompts
        .iter()
        .find(|p| p["name"] == "b_compose")
        .expect("b_compose");
    assert_eq!(compose["source"], "mcp");
    assert_eq!(compose["category"], "b");
    assert_eq!(compose["inputSchema"]["required"], json!(["key"]));

    // Rebuilt, with a new tag, when the mount goes.
    let etag = head(&headers, header::ETAG).to_owned();
    servers.mounted.cancel();
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        let (_, headers, body) = fetch(&servers, Method::GET, "/api/tools", TRUSTED, "").await;
        if json_of(&body)["prompts"] == json!([]) {
            assert_ne!(head(&headers, header::ETAG), etag);
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "still listed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
