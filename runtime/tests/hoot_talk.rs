//! Handlers behind HOOT01 that talk back: a call made for a caller (as a
//! gateway makes it for its MCP session) hears its handler's logs and
//! progress and answers its questions (sampling, elicitation, roots)
//! across the wire; a call made without one leaves the handler's questions
//! `UNSUPPORTED`, and a caller's refusal reaches the handler as it was.
//! A question whose caller has gone silent or hung up is answered
//! `UNAVAILABLE` once the server's peer liveness runs out, and a live
//! caller's slow answer is waited for.

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use support::*;
use toolwright::caller::{
    Caller, CallerFuture, Elicited, LogLevel, Root, Sampled, SamplingRequest,
};
use toolwright::codec::{self, Limits};
use toolwright::hoot::{
    self, CallBody, Client, ClientConfig, Command, Message, RequestId, Server, ServerConfig,
};
use toolwright::port::{CallOptions, CallPort};
use toolwright::{DispatcherConfig, ResponseEnvelope, ToolError, codes};

/// A client's side that writes down what it hears and answers every
/// question, or refuses to sample.
#[derive(Debug, Default)]
struct Listener {
    heard: Mutex<Vec<String>>,
    refuse_sampling: bool,
    /// How long it thinks before answering a sampling question.
    think: Duration,
}

impl Listener {
    fn heard(&self) -> Vec<String> {
        self.heard.lock().unwrap().clone()
    }
}

impl Caller for Listener {
    fn log(&self, level: LogLevel, _logger: Option<&str>, data: Value) {
        self.heard
            .lock()
            .unwrap()
            .push(format!("{level:?}: {data}"));
    }

    fn progress(&self, fraction: f32) {
        self.heard
            .lock()
            .unwrap()
            .push(format!("progress {fraction}"));
    }

    fn sample(&self, key: Option<&str>, request: SamplingRequest) -> CallerFuture<Sampled> {
        self.heard.lock().unwrap().push(format!("sample {key:?}"));
        if self.refuse_sampling {
            return Box::pin(async {
                Err(ToolError::new(
                    codes::UNSUPPORTED,
                    "this client has no model",
                ))
            });
        }
        let text = format!("re: {}", request.messages[0].text);
        let think = self.think.max(Duration::from_millis(20));
        Box::pin(async move {
            // The answer takes a while: the call goes on meanwhile.
            tokio::time::sleep(think).await;
            Ok(Sampled::new(text, "test-model"))
        })
    }

    fn elicit(
        &self,
        _key: Option<&str>,
        message: String,
        schema: Value,
    ) -> CallerFuture<Elicited<Value>> {
        self.heard.lock().unwrap().push(format!("elicit {message}"));
        assert_eq!(schema["required"], json!(["name"]));
        Box::pin(async { Ok(Elicited::Accepted(json!({"name": "ada"}))) })
    }

    fn roots(&self, _key: Option<&str>) -> CallerFuture<Vec<Root>> {
        Box::pin(async { Ok(vec![Root::new("file:///tunes")]) })
    }
}

async fn setup() -> (toolwright::hoot::ServerHandle, Client<ToolCatalogue>) {
    let d = dispatcher(DispatcherConfig::default());
    let server = Server::serve(d, ServerConfig::new("tcp://127.0.0.1:0")).expect("binds");
    let config = ClientConfig::default().timeout(Duration::from_secs(10));
    let client = Client::connect(&[server.endpoint()], config).expect("connects");
    assert!(client.ready(SOON).await, "the backend answers");
    (server, client)
}

fn chat() -> Vec<u8> {
    encode(&ToolRequest::Chat(ChatRequest {
        prompt: "name this tune".into(),
    }))
}

#[tokio::test]
async fn a_handler_behind_hoot_talks_to_its_callers_client() {
    let (server, client) = setup().await;
    let listener = Arc::new(Listener::default());
    let options = CallOptions::default().caller(listener.clone());
    let answer = client.call(chat(), options).await;
    let ResponseEnvelope::Success(ToolResponse::Chat(chat)) = answer else {
        panic!("an answer: {answer:?}")
    };
    assert_eq!(chat.answer, "re: name this tune");
    assert_eq!(chat.name.as_deref(), Some("ada"));
    assert_eq!(chat.roots, ["file:///tunes"]);
    assert_eq!(
        listener.heard(),
        [
            "Info: \"asking about name this tune\"",
            "progress 0.25",
            "sample None",
            "progress 0.5",
            "elicit Who is asking?",
            "Debug: \"done\"",
        ]
    );
    server.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn without_a_caller_the_handler_cannot_ask() {
    let (server, client) = setup().await;
    let answer = client.call(chat(), CallOptions::default()).await;
    let error = answer.error().expect("an error");
    assert_eq!(error.code, codes::UNSUPPORTED, "{error:?}");
    server.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn a_callers_refusal_reaches_the_handler_as_it_was() {
    let (server, client) = setup().await;
    let listener = Arc::new(Listener {
        refuse_sampling: true,
        ..Listener::default()
    });
    let answer = client
        .call(chat(), CallOptions::default().caller(listener.clone()))
        .await;
    let error = answer.error().expect("an error");
    assert_eq!(error.code, codes::UNSUPPORTED);
    assert_eq!(error.message, "this client has no model");
    assert_eq!(listener.heard()[2], "sample None");
    server.shutdown(Duration::from_secs(1)).await;
}

/// A raw DEALER that has sent a `chat` call with `talk_back` and read its
/// Replies up to the handler's first question.
fn asked(context: &zmq::Context, endpoint: &str) -> (zmq::Socket, RequestId) {
    let dealer = context.socket(zmq::DEALER).expect("a socket");
    dealer.set_linger(0).expect("linger");
    dealer
        .set_rcvtimeo(i32::try_from(SOON.as_millis()).expect("fits"))
        .expect("timeout");
    dealer.connect(endpoint).expect("connects");
    let id = RequestId::new();
    let request = chat();
    let body = CallBody {
        request: &request,
        wait: None,
        stream: false,
        owner: None,
        talk_back: true,
        principal: None,
    };
    let frames = hoot::encode(Message::request(id, "", body.encode()));
    dealer.send_multipart(frames, 0).expect("sends");
    loop {
        let said = reply(&dealer, id);
        if said.get("ask").is_some() {
            return (dealer, id);
        }
        assert!(said.get("error").is_none(), "no question: {said}");
    }
}

/// The next Reply to the call `id`, its body as JSON.
fn reply(dealer: &zmq::Socket, id: RequestId) -> Value {
    let frames = dealer.recv_multipart(0).expect("a Reply");
    let message = hoot::decode(frames, 1 << 20).expect("a HOOT01 message");
    assert_eq!(message.command, Command::Reply);
    assert_eq!(message.request_id, id);
    codec::from_msgpack(&message.body, Limits::default()).expect("MsgPack")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_to_a_silent_caller_is_answered_unavailable() {
    let d = dispatcher(DispatcherConfig::default());
    let config = ServerConfig::new("tcp://127.0.0.1:0").peer_liveness(Duration::from_millis(300));
    let server = Server::serve(d, config).expect("binds");
    let context = zmq::Context::new();
    let endpoint = server.endpoint().to_owned();
    let (dealer, id) = tokio::task::spawn_blocking(move || asked(&context, &endpoint))
        .await
        .expect("asked");
    // The caller neither answers nor heartbeats: it is still connected,
    // so its handler's failure reaches it as the call's final Reply.
    let started = std::time::Instant::now();
    let last = tokio::task::spawn_blocking(move || reply(&dealer, id))
        .await
        .expect("the final Reply");
    let waited = started.elapsed();
    assert_eq!(last["error"]["code"], codes::UNAVAILABLE, "{last}");
    let message = last["error"]["message"].as_str().expect("a message");
    assert!(
        message.contains("has not been heard from") && message.contains("sampling"),
        "{message}"
    );
    assert!(
        waited >= Duration::from_millis(200) && waited < Duration::from_secs(3),
        "failed after {waited:?}, with a liveness of 300 ms"
    );
    server.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_to_a_caller_that_hung_up_ends_its_call() {
    let d = dispatcher(DispatcherConfig::default());
    let config = ServerConfig::new("tcp://127.0.0.1:0").peer_liveness(Duration::from_millis(300));
    let server = Server::serve(d, config).expect("binds");
    let context = zmq::Context::new();
    let endpoint = server.endpoint().to_owned();
    let (dealer, _) = tokio::task::spawn_blocking(move || asked(&context, &endpoint))
        .await
        .expect("asked");
    // Gone as a killed process goes: no Disconnect, the connection closed.
    drop(dealer);
    let before = server.stats().undeliverable;
    let deadline = tokio::time::Instant::now() + SOON;
    // The question is failed, the handler ends, and its final Reply finds
    // no peer to go to.
    while server.stats().undeliverable == before {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the call never ended: {:?}",
            server.stats()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    server.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn a_live_callers_slow_answer_is_waited_for() {
    let d = dispatcher(DispatcherConfig::default());
    let config = ServerConfig::new("tcp://127.0.0.1:0").peer_liveness(Duration::from_millis(300));
    let server = Server::serve(d, config).expect("binds");
    let config = ClientConfig::default()
        .timeout(SOON)
        .heartbeat(Duration::from_millis(50), Duration::from_secs(2));
    let client: Client<ToolCatalogue> =
        Client::connect(&[server.endpoint()], config).expect("connects");
    assert!(client.ready(SOON).await, "the backend answers");
    // Its user thinks for longer than the liveness; its heartbeats say it
    // is still there.
    let listener = Arc::new(Listener {
        think: Duration::from_millis(900),
        ..Listener::default()
    });
    let options = CallOptions::default().caller(listener.clone());
    let answer = client.call(chat(), options).await;
    let ResponseEnvelope::Success(ToolResponse::Chat(chat)) = answer else {
        panic!("an answer: {answer:?}")
    };
    assert_eq!(chat.answer, "re: name this tune");
    server.shutdown(Duration::from_secs(1)).await;
}
