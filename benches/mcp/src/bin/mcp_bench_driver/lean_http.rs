//! A lean Streamable HTTP client for the benchmark: one keep-alive HTTP/1.1
//! connection, requests written from templates, answers read as JSON or
//! as an event stream and checked. It speaks the protocol as any client
//! must (initialize, the session and revision headers, initialized), and
//! costs a fraction of a full SDK client, so the figures measure the
//! server rather than the client. `LeanHttp::stateless` speaks 2026-07-28
//! instead: no session, each request naming its revision.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::{self, SendRequest};
use hyper::{Request, StatusCode, Uri, header};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::TcpStream;

type Error = Box<dyn std::error::Error>;

/// One MCP session over one connection.
pub struct LeanHttp {
    sender: SendRequest<Full<Bytes>>,
    uri: Uri,
    host: String,
    session: Option<String>,
    revision: String,
    /// Sessionless (2026-07-28): each request carries its revision.
    stateless: bool,
    /// The `Authorization` header every request carries, if any.
    authorization: Option<String>,
    next_id: u64,
}

impl LeanHttp {
    /// Connects, for sessionless 2026-07-28 requests.
    pub async fn stateless(url: &str, authorization: Option<&str>) -> Result<LeanHttp, Error> {
        let mut client = LeanHttp::open(url, authorization).await?;
        client.stateless = true;
        client.revision = "2026-07-28".to_owned();
        Ok(client)
    }

    /// Connects and initializes.
    pub async fn connect(url: &str, authorization: Option<&str>) -> Result<LeanHttp, Error> {
        let mut client = LeanHttp::open(url, authorization).await?;
        let init = json!({
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "mcp_bench_driver", "version": "0"},
        });
        let (result, session) = client.request("initialize", init).await?;
        client.session = session;
        client.revision = result["protocolVersion"]
            .as_str()
            .ok_or("initialize answered no protocolVersion")?
            .to_owned();
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let (status, _, _) = client.post(initialized.to_string(), None).await?;
        if status != StatusCode::ACCEPTED {
            return Err(format!("notifications/initialized answered HTTP {status}").into());
        }
        Ok(client)
    }

    /// Connects.
    async fn open(url: &str, authorization: Option<&str>) -> Result<LeanHttp, Error> {
        let uri: Uri = url.parse()?;
        let host = uri.authority().ok_or("the URL has no host")?.to_string();
        // Requests name the path alone (origin form), as a browser does.
        let uri: Uri = uri.path_and_query().map_or("/", |p| p.as_str()).parse()?;
        let stream = TcpStream::connect(&host).await?;
        stream.set_nodelay(true)?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(connection);
        Ok(LeanHttp {
            sender,
            uri,
            host,
            session: None,
            revision: String::new(),
            stateless: false,
            authorization: authorization.map(str::to_owned),
            next_id: 0,
        })
    }

    /// Calls `add(a, b)`; the `structuredContent` of its result.
    pub async fn add(&mut self, a: i64, b: i64) -> Result<Value, Error> {
        let params = json!({"name": "add", "arguments": {"a": a, "b": b}});
        let (result, _) = self.request("tools/call", params).await?;
        if result["isError"] == json!(true) {
            return Err(format!("add failed: {result}").into());
        }
        Ok(result["structuredContent"].clone())
    }

    /// Sends one request and checks it did not fail; its result.
    pub async fn call(&mut self, method: &str, params: Value) -> Result<Value, Error> {
        Ok(self.request(method, params).await?.0)
    }

    /// Sends one request; its result and the session id the server gave.
    async fn request(
        &mut self,
        method: &str,
        params: Value,
    ) -> Result<(Value, Option<String>), Error> {
        self.next_id += 1;
        let id = self.next_id;
        let mut params = params;
        let mut named = None;
        if self.stateless {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": self.revision,
                "io.modelcontextprotocol/clientInfo": {"name": "mcp_bench_driver", "version": "0"},
                "io.modelcontextprotocol/clientCapabilities": {},
            });
            named = Some((
                method.to_owned(),
                params["name"].as_str().map(str::to_owned),
            ));
        }
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let (status, session, text) = self.post(body.to_string(), named).await?;
        if status != StatusCode::OK {
            return Err(format!("{method} answered HTTP {status}: {text}").into());
        }
        let answer =
            answer(&text, id).ok_or_else(|| format!("no answer to {method} in {text:?}"))?;
        if let Some(error) = answer.get("error") {
            return Err(format!("{method} failed: {error}").into());
        }
        Ok((answer["result"].clone(), session))
    }

    /// One POST; its status, session header and body. A sessionless
    /// request names its method (and tool) in headers too.
    async fn post(
        &mut self,
        body: String,
        named: Option<(String, Option<String>)>,
    ) -> Result<(StatusCode, Option<String>, String), Error> {
        let mut request = Request::post(self.uri.clone())
            .header(header::HOST, &self.host)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream");
        if let Some(authorization) = &self.authorization {
            request = request.header(header::AUTHORIZATION, authorization);
        }
        if let Some((method, name)) = named {
            request = request
                .header("mcp-protocol-version", &self.revision)
                .header("mcp-method", method);
            if let Some(name) = name {
                request = request.header("mcp-name", name);
            }
        }
        if let Some(session) = &self.session {
            request = request
                .header("mcp-session-id", session)
                .header("mcp-protocol-version", &self.revision);
        }
        let response = self
            .sender
            .send_request(request.body(Full::new(Bytes::from(body)))?)
            .await?;
        let status = response.status();
        let session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let bytes = response.into_body().collect().await?.to_bytes();
        Ok((status, session, String::from_utf8(bytes.to_vec())?))
    }
}

/// The response with `id` in a body that is one JSON message or an event
/// stream of them.
fn answer(text: &str, id: u64) -> Option<Value> {
    std::iter::once(text)
        .chain(text.lines().filter_map(|line| line.strip_prefix("data:")))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|m| m.get("id") == Some(&json!(id)))
}
