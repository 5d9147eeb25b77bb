//! Resources, prompts and completion through the web routes (docs/web.md),
//! over a real loopback socket, served from the `#[resource]`, `#[prompt]`
//! and `#[complete]` handlers of the test catalogue
//! `macros/tests/support/entries.tool`: a read answered as the body itself
//! in its MIME type, a prompt's messages, completions from an enum and
//! from a handler, every error status, and the metadata document listing
//! them beside the tools; and a tool's app read from the catalogue of
//! `runtime/tests/support/apps.tool`.

use std::net::SocketAddr;
use std::time::Duration;

use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper::{Method, Request, StatusCode, header};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use toolwright::entry::{Completion, CompletionRequest, PromptContent, PromptMessages};
use toolwright::http::HttpConfig;
use toolwright::{Dispatcher, ToolError};

include!("../../macros/tests/support/entries.rs");

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
        Ok(PromptMessages::new()
            .user(format!("Write a {mood} tune in {:?}.", arguments.key))
            .assistant(PromptContent::Image {
                data: vec![137, 80].into(),
                mime_type: "image/png".into(),
            }))
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

/// The catalogue whose tool `add` has a generated app, beside the store's.
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

const SOON: Duration = Duration::from_secs(10);

/// The web routes of the store on loopback; stopped when dropped.
struct Server {
    addr: SocketAddr,
    stop: CancellationToken,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

async fn start() -> Server {
    start_with(Dispatcher::new(Store), HttpConfig::default()).await
}

/// The web routes of `dispatcher` on loopback, as `config` says.
async fn start_with<P: toolwright::port::CallPort>(port: P, config: HttpConfig) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("an address");
    let stop = CancellationToken::new();
    let config = config.shutdown(stop.clone());
    let router = toolwright::http::web_router(port, &config).expect("the schema parses");
    tokio::spawn(async move { toolwright::http::serve_on(router, listener, &config).await });
    Server { addr, stop }
}

/// One request; the answer's status, head and body.
async fn fetch(
    server: &Server,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, hyper::HeaderMap, Vec<u8>) {
    let stream = TcpStream::connect(server.addr).await.expect("connect");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(connection);
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, server.addr.to_string())
        .body(Full::new(Bytes::from(body.to_owned())))
        .expect("a request");
    for (name, value) in headers {
        let name = header::HeaderName::from_bytes(name.as_bytes()).expect("a header name");
        request
            .headers_mut()
            .insert(name, value.parse().expect("a header value"));
    }
    let response = tokio::time::timeout(SOON, sender.send_request(request))
        .await
        .expect("answered in time")
        .expect("an answer");
    let (status, head) = (response.status(), response.headers().clone());
    let body = response.into_body().collect().await.expect("a body");
    (status, head, body.to_bytes().to_vec())
}

/// `GET /api/resources?uri=…`, the URI percent-encoded.
async fn read(server: &Server, uri: &str) -> (StatusCode, hyper::HeaderMap, Vec<u8>) {
    read_as(server, uri, &[]).await
}

/// `GET /api/resources?uri=…` with `headers`.
async fn read_as(
    server: &Server,
    uri: &str,
    headers: &[(&str, &str)],
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
    fetch(server, Method::GET, &path, headers, "").await
}

/// A POST whose answer is JSON.
async fn post(server: &Server, path: &str, body: &str) -> (StatusCode, Value) {
    let (status, _, body) = fetch(server, Method::POST, path, &[], body).await;
    let value = serde_json::from_slice(&body)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&body)));
    (status, value)
}

fn head(headers: &hyper::HeaderMap, name: header::HeaderName) -> &str {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_read_answers_the_contents_themselves_in_their_mime_type() {
    let server = start().await;
    let (status, headers, body) = read(&server, "cas://objects/beef").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body, [0xbe, 0xef]);
    assert_eq!(
        head(&headers, header::CONTENT_TYPE),
        "application/octet-stream"
    );
    assert_eq!(head(&headers, header::CACHE_CONTROL), "no-cache");
    assert_eq!(head(&headers, header::X_CONTENT_TYPE_OPTIONS), "nosniff");
    assert!(head(&headers, header::CONTENT_SECURITY_POLICY).contains("sandbox"));

    let (status, headers, body) = read(&server, "cas://licence").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(String::from_utf8(body).unwrap(), "# Licence — MIT\n");
    assert_eq!(
        head(&headers, header::CONTENT_TYPE),
        "text/markdown; charset=utf-8"
    );

    // A template's query variables, typed from the URI.
    let (status, headers, body) = read(&server, "cas://listing/ab?page=2").await;
    assert_eq!(status, StatusCode::OK);
    let listing: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(listing, json!({"hashes": ["ab2"]}));
    assert_eq!(
        head(&headers, header::CONTENT_TYPE),
        "application/json; charset=utf-8"
    );
}

#[tokio::test]
async fn a_read_that_fails_answers_as_a_tool_call_does() {
    let server = start().await;
    // No resource has the URI.
    let (status, _, body) = read(&server, "cas://nothing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let error: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(error["error"]["code"], "UNKNOWN_ENTRY");
    assert_eq!(
        error["error"]["details"],
        json!({"resource": "cas://nothing"})
    );
    // A variable not of its type.
    let (status, _, body) = read(&server, "cas://listing/ab?page=two").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let error: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(error["error"]["code"], "INVALID_REQUEST");
    assert_eq!(
        error["error"]["message"],
        "`page` must be an integer, not `two`"
    );
    // A variable its pattern refuses: the handler's decoder says so.
    let (status, _, body) = read(&server, "cas://objects/XYZ").await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "{}",
        String::from_utf8_lossy(&body)
    );
    // The handler's own error: 200 with its envelope, as a tool's.
    let (status, headers, body) = read(&server, "cas://objects/cafe").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(head(&headers, header::CONTENT_TYPE), "application/json");
    let error: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(error["error"]["code"], "NOT_FOUND");
    assert_eq!(
        error["error"]["details"],
        json!({"not_found": {"hash": "cafe"}})
    );
    // No `uri` at all.
    let (status, _, _) = fetch(&server, Method::GET, "/api/resources", &[], "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_prompt_answers_its_messages_as_mcp_does() {
    let server = start().await;
    let (status, got) = post(
        &server,
        "/api/prompts/compose",
        r#"{"key": "a_minor", "mood": "stern"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{got}");
    assert_eq!(
        got,
        json!({
            "description": "Ask for a tune.",
            "messages": [
                {"role": "user", "content": {"type": "text", "text": "Write a stern tune in AMinor."}},
                {"role": "assistant", "content": {"type": "image", "data": "iVA=", "mimeType": "image/png"}}
            ]
        })
    );
    // No body: no arguments.
    let (status, got) = post(&server, "/api/prompts/summarise", "").await;
    assert_eq!(status, StatusCode::OK, "{got}");
    assert_eq!(
        got["messages"][0]["content"]["text"],
        "Summarise the store."
    );

    let (status, error) = post(&server, "/api/prompts/nothing", "{}").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error["error"]["code"], "UNKNOWN_ENTRY");
    // A value the enum does not have; a required argument left out.
    let (status, error) = post(&server, "/api/prompts/compose", r#"{"key": "b_flat"}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    let (status, error) = post(&server, "/api/prompts/compose", "{}").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{error}");
    let (status, error) = post(&server, "/api/prompts/compose", "[1]").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"]["code"], "INVALID_REQUEST");
}

#[tokio::test]
async fn completions_come_from_the_schema_or_the_handler() {
    let server = start().await;
    // An enum: from the schema.
    let (status, got) = post(
        &server,
        "/api/complete",
        r#"{"ref": {"type": "prompt", "name": "compose"}, "argument": {"name": "key", "value": "a"}}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{got}");
    assert_eq!(got, json!({"values": ["a_minor"], "hasMore": false}));
    // A handler, with the other arguments as its context.
    let (status, got) = post(
        &server,
        "/api/complete",
        r#"{"ref": {"type": "prompt", "name": "compose"}, "argument": {"name": "mood", "value": "s"},
            "context": {"arguments": {"key": "a_minor"}}}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{got}");
    assert_eq!(got["values"], json!(["sad", "stern"]));
    // A resource template's variable, by the template as written.
    let (status, got) = post(
        &server,
        "/api/complete",
        r#"{"ref": {"type": "resource", "uri": "cas://objects/{hash}"}, "argument": {"name": "hash", "value": "be"}}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{got}");
    assert_eq!(got["values"], json!(["beef", "bead"]));
    // An argument nothing completes.
    let (status, got) = post(
        &server,
        "/api/complete",
        r#"{"ref": {"type": "resource", "uri": "cas://listing/{prefix}{?page}"}, "argument": {"name": "prefix", "value": ""}}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{got}");
    assert_eq!(got, json!({"values": [], "hasMore": false}));

    let (status, error) = post(
        &server,
        "/api/complete",
        r#"{"ref": {"type": "prompt", "name": "nothing"}, "argument": {"name": "x", "value": ""}}"#,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error["error"]["code"], "UNKNOWN_ENTRY");
    let (status, error) = post(&server, "/api/complete", r#"{"ref": {"type": "tool"}}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error["error"]["code"], "INVALID_REQUEST");
}

#[tokio::test]
async fn the_metadata_lists_resources_and_prompts_beside_the_tools() {
    let server = start().await;
    let (status, headers, body) = fetch(&server, Method::GET, "/api/tools", &[], "").await;
    assert_eq!(status, StatusCode::OK);
    let document: Value = serde_json::from_slice(&body).expect("JSON");
    let resources = document["resources"].as_array().expect("resources");
    let names: Vec<&str> = resources
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(names, ["cas_object", "cas_listing", "licence"]);
    let object = &resources[0];
    assert_eq!(object["uri"], "cas://objects/{hash}");
    assert_eq!(object["template"], true);
    assert_eq!(object["source"], "local");
    assert_eq!(object["scopes"], json!(["cas:read"]));
    assert_eq!(
        object["contents"],
        json!({"kind": "bytes", "idlType": "bytes"})
    );
    assert_eq!(
        object["completions"],
        json!([{"argument": "hash", "by": "handler"}])
    );
    assert_eq!(object["errors"][0]["code"], "NOT_FOUND");
    let prompts = document["prompts"].as_array().expect("prompts");
    assert_eq!(prompts[0]["name"], "compose");
    assert_eq!(prompts[0]["source"], "local");
    assert_eq!(
        prompts[0]["completions"],
        json!([
            {"argument": "key", "by": "enum", "values": ["c_major", "a_minor"]},
            {"argument": "mood", "by": "handler"}
        ])
    );
    // The ETag still names the whole document.
    let etag = head(&headers, header::ETAG).to_owned();
    let (status, _, body) = fetch(
        &server,
        Method::GET,
        "/api/tools",
        &[("if-none-match", &etag)],
        "",
    )
    .await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());
}

/// The page of the app at `uri`, as the catalogue's MCP schema holds it.
fn app_page(uri: &str) -> String {
    let schema: Value =
        serde_json::from_str(<apps::ToolCatalogue as toolwright::Catalogue>::MCP_SCHEMA)
            .expect("the schema is JSON");
    schema["apps"][uri]
        .as_str()
        .unwrap_or_else(|| panic!("no app at {uri}"))
        .to_owned()
}

#[tokio::test]
async fn an_app_is_read_from_the_catalogue_as_its_page() {
    let server = start_with(Dispatcher::new(apps::Sums), HttpConfig::default()).await;
    let (status, headers, body) = read(&server, "ui://add").await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    assert_eq!(
        head(&headers, header::CONTENT_TYPE),
        "text/html;profile=mcp-app"
    );
    assert_eq!(String::from_utf8(body).unwrap(), app_page("ui://add"));
    assert_eq!(head(&headers, header::CACHE_CONTROL), "no-cache");
    assert_eq!(head(&headers, header::X_CONTENT_TYPE_OPTIONS), "nosniff");
    assert!(head(&headers, header::CONTENT_SECURITY_POLICY).contains("sandbox"));

    // A tool with no app has no `ui://` resource.
    let (status, _, body) = read(&server, "ui://job_status").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let error: Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(error["error"]["code"], "UNKNOWN_ENTRY");
    assert_eq!(
        error["error"]["details"],
        json!({"resource": "ui://job_status"})
    );
}

#[tokio::test]
async fn an_app_is_read_only_by_an_admitted_caller() {
    let config = HttpConfig::default().bearer_token("s3cret");
    let server = start_with(Dispatcher::new(apps::Sums), config).await;
    let (status, _, body) = read(&server, "ui://add").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_ne!(body, app_page("ui://add").into_bytes());
    let wrong = [("authorization", "Bearer s3cre7")];
    let (status, _, _) = read_as(&server, "ui://add", &wrong).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let right = [("authorization", "Bearer s3cret")];
    let (status, headers, body) = read_as(&server, "ui://add", &right).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        head(&headers, header::CONTENT_TYPE),
        "text/html;profile=mcp-app"
    );
    assert_eq!(String::from_utf8(body).unwrap(), app_page("ui://add"));
}
