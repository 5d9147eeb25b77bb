//! Handlers behind HOOT01 that talk back: a call made for a caller (as a
//! gateway makes it for its MCP session) hears its handler's logs and
//! progress and answers its questions (sampling, elicitation, roots)
//! across the wire; a call made without one leaves the handler's questions
//! `UNSUPPORTED`, and a caller's refusal reaches the handler as it was.

mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use support::*;
use toolwright::caller::{
    Caller, CallerFuture, Elicited, LogLevel, Root, Sampled, SamplingRequest,
};
use toolwright::hoot::{Client, ClientConfig, Server, ServerConfig};
use toolwright::port::{CallOptions, CallPort};
use toolwright::{DispatcherConfig, ResponseEnvelope, ToolError, codes};

/// A client's side that writes down what it hears and answers every
/// question, or refuses to sample.
#[derive(Debug, Default)]
struct Listener {
    heard: Mutex<Vec<String>>,
    refuse_sampling: bool,
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
        Box::pin(async move {
            // The answer takes a while: the call goes on meanwhile.
            tokio::time::sleep(Duration::from_millis(20)).await;
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
