//! A client for the MCP server on Streamable HTTP over a real loopback
//! socket: one raw POST at a time, and sessions on a chosen revision.

use std::net::SocketAddr;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Request, StatusCode, header};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use toolwright::DispatcherConfig;
use toolwright::mcp::{HttpConfig, McpServer};

use super::{SOON, dispatcher};

/// A running server; dropping it stops the server.
pub struct Server {
    pub addr: SocketAddr,
    pub stop: CancellationToken,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

pub async fn start(config: HttpConfig) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("an address");
    let stop = CancellationToken::new();
    let server =
        McpServer::new(dispatcher(DispatcherConfig::default())).expect("the schema parses");
    tokio::spawn(server.serve_http_on(listener, config.shutdown(stop.clone())));
    Server { addr, stop }
}

/// An answer: status, headers, body.
pub struct Answer {
    pub status: StatusCode,
    pub headers: hyper::HeaderMap,
    pub body: String,
}

impl Answer {
    /// The JSON-RPC message the body holds, as JSON or as the `data:` of
    /// an event stream.
    pub fn message(&self) -> Value {
        if let Ok(value) = serde_json::from_str(&self.body) {
            return value;
        }
        self.body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
            .find(|m| m.get("result").is_some() || m.get("error").is_some())
            .unwrap_or_else(|| panic!("no JSON-RPC answer in {:?}", self.body))
    }

    pub fn error_code(&self) -> i64 {
        self.message()["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("not an error: {}", self.body))
    }
}

/// Sends one POST to `/mcp` with the headers MCP asks for, plus `extra`.
pub async fn post(server: &Server, extra: &[(&str, &str)], body: impl Into<Bytes>) -> Answer {
    request(server, hyper::Method::POST, "/mcp", extra, body).await
}

/// Sends one request to `path` with the headers MCP asks for, plus
/// `extra`.
pub async fn request(
    server: &Server,
    method: hyper::Method,
    path: &str,
    extra: &[(&str, &str)],
    body: impl Into<Bytes>,
) -> Answer {
    let stream = TcpStream::connect(server.addr).await.expect("connect");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(connection);
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, server.addr.to_string())
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream");
    let mut request = request.body(Full::new(body.into())).expect("a request");
    for (name, value) in extra {
        // Replacing, so a test can send a `Host` of its own.
        let name = header::HeaderName::from_bytes(name.as_bytes()).expect("a header name");
        let value = header::HeaderValue::from_str(value).expect("a header value");
        request.headers_mut().insert(name, value);
    }
    let response = tokio::time::timeout(SOON, sender.send_request(request))
        .await
        .expect("answered in time")
        .expect("an answer");
    let status = response.status();
    let headers = response.headers().clone();
    let body = tokio::time::timeout(SOON, response.into_body().collect())
        .await
        .expect("the body in time")
        .expect("a body")
        .to_bytes();
    Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

/// Opens a session on `revision`; returns its id.
pub async fn session(server: &Server, revision: &str, extra: &[(&str, &str)]) -> String {
    let init = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": revision,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}
        }
    });
    let answer = post(server, extra, init.to_string()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.message()["result"]["protocolVersion"], revision);
    let id = answer
        .headers
        .get("mcp-session-id")
        .expect("a session id")
        .to_str()
        .expect("ASCII")
        .to_owned();
    let mut headers = vec![("mcp-session-id", id.as_str())];
    headers.extend_from_slice(extra);
    if revision > "2025-03-26" {
        headers.push(("mcp-protocol-version", revision));
    }
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let answer = post(server, &headers, initialized.to_string()).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.body);
    id
}

/// One GET of `path`, with `extra` headers.
pub async fn get(server: &Server, path: &str, extra: &[(&str, &str)]) -> Answer {
    request(server, hyper::Method::GET, path, extra, "").await
}

/// The value of the sample named exactly `series` (name and labels as the
/// Prometheus text writes them), if there is one.
pub fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find_map(|line| {
        let value = line.strip_prefix(series)?.strip_prefix(' ')?;
        Some(value.parse().expect("a sample's value is a number"))
    })
}
