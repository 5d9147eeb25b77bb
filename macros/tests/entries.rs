//! End to end: a `#[tools]` block binding resources, prompts and
//! completions of the test catalogue `support/entries.tool`, answered
//! through the dispatcher as every door asks it.

use std::sync::Arc;

use serde_json::{Value, json};
use toolwright::codec::{self, Limits};
use toolwright::entry::{
    Completion, CompletionRequest, EntryAnswer, PromptMessages, ResourceContents,
};
use toolwright::port::CallOptions;
use toolwright::{Context, Dispatcher, Principal, ResponseEnvelope, ToolError, codes};

include!("support/entries.rs");

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
        let _ = cx.principal();
        match arguments.hash.as_str() {
            "beef" => Ok(vec![0xbe, 0xef]),
            "dead" => panic!("the store is on fire"),
            _ => Err(CasError::NotFound {
                hash: arguments.hash,
            }),
        }
    }

    #[resource(name = "cas_listing")]
    fn listing(&self, arguments: CasListingArguments) -> Result<CasListing, ToolError> {
        let page = arguments.page;
        Ok(CasListing {
            hashes: vec![format!("{}{page}", arguments.prefix)],
        })
    }

    #[toolwright::resource]
    fn licence(&self) -> Result<&'static str, ToolError> {
        Ok("# Licence\n")
    }

    #[prompt]
    fn compose(&self, arguments: ComposeArguments) -> Result<PromptMessages, ToolError> {
        let mood = arguments.mood.unwrap_or_else(|| "calm".into());
        Ok(PromptMessages::new()
            .described(format!("A {mood} tune"))
            .user(format!("Write a {mood} tune in {:?}.", arguments.key)))
    }

    #[prompt]
    async fn summarise(&self) -> Result<PromptMessages, ToolError> {
        Ok(PromptMessages::new().user("Summarise the store."))
    }

    #[complete(cas_object.hash)]
    fn hashes(&self, request: CompletionRequest) -> Vec<String> {
        (0..150)
            .map(|i| format!("{i:04x}"))
            .filter(|h| h.starts_with(&request.value))
            .collect()
    }

    #[complete(compose.mood)]
    async fn moods(&self, request: CompletionRequest) -> Result<Completion, ToolError> {
        let key = request.context.get("key").cloned().unwrap_or_default();
        let moods = if key == "a_minor" {
            ["sad", "stern"]
        } else {
            ["happy", "hazy"]
        };
        Ok(Completion::matching(moods, &request.value))
    }
}

fn dispatcher() -> Dispatcher<Store> {
    Dispatcher::new(Store)
}

/// `request` as MsgPack with its kind's key first, as the wire has it
/// (`json!` sorts keys).
fn encode(request: &Value) -> Vec<u8> {
    let object = request.as_object().unwrap();
    let head = ["resource", "prompt", "complete"]
        .into_iter()
        .find(|key| object.contains_key(*key))
        .unwrap();
    let mut text = format!("{{{}:{}", json!(head), object[head]);
    for (key, value) in object.iter().filter(|(k, _)| *k != head) {
        text.push_str(&format!(",{}:{value}", json!(key)));
    }
    text.push('}');
    codec::json_to_msgpack(text.as_bytes(), Limits::default()).unwrap()
}

async fn ask(request: Value, options: CallOptions) -> ResponseEnvelope<EntryAnswer> {
    dispatcher().entry(encode(&request), options).await
}

async fn answer(request: Value) -> EntryAnswer {
    match ask(request.clone(), CallOptions::default()).await {
        ResponseEnvelope::Success(answer) => answer,
        other => panic!("{request}: {other:?}"),
    }
}

async fn error(request: Value, options: CallOptions) -> ToolError {
    match ask(request.clone(), options).await {
        ResponseEnvelope::Error(e) => e,
        other => panic!("{request}: {other:?}"),
    }
}

fn as_principal(principal: Principal) -> CallOptions {
    CallOptions::default().principal(Arc::new(principal))
}

#[tokio::test]
async fn resources_are_read_in_their_declared_contents() {
    assert_eq!(
        answer(json!({"resource": "cas_object", "hash": "beef"})).await,
        EntryAnswer::Contents(ResourceContents::blob(vec![0xbe, 0xef]))
    );
    assert_eq!(
        answer(json!({"resource": "cas_listing", "prefix": "ab"})).await,
        EntryAnswer::Contents(ResourceContents::text(r#"{"hashes":["ab0"]}"#))
    );
    assert_eq!(
        answer(json!({"resource": "licence"})).await,
        EntryAnswer::Contents(ResourceContents::text("# Licence\n"))
    );
}

#[tokio::test]
async fn prompts_are_got_with_their_arguments() {
    let EntryAnswer::Prompt(prompt) =
        answer(json!({"prompt": "compose", "key": "a_minor", "mood": "stern"})).await
    else {
        panic!("a prompt");
    };
    assert_eq!(prompt.description.as_deref(), Some("A stern tune"));
    assert_eq!(prompt.messages.len(), 1);
    let EntryAnswer::Prompt(summary) = answer(json!({"prompt": "summarise"})).await else {
        panic!("a prompt");
    };
    assert_eq!(summary.messages.len(), 1);
}

#[tokio::test]
async fn completions_come_from_their_handlers_capped_at_the_limit() {
    let EntryAnswer::Completion(all) =
        answer(json!({"complete": "cas_object", "argument": "hash", "value": ""})).await
    else {
        panic!("a completion");
    };
    assert_eq!(
        (all.values.len(), all.has_more, all.total),
        (100, true, Some(150))
    );
    let asked = json!({
        "complete": "compose", "argument": "mood", "value": "s", "context": {"key": "a_minor"}
    });
    assert_eq!(
        answer(asked).await,
        EntryAnswer::Completion(Completion::from(vec!["sad".to_owned(), "stern".to_owned()]))
    );
    // An argument no handler completes (the enum `key`, which the edge
    // completes from the schema) has no values here.
    assert_eq!(
        answer(json!({"complete": "compose", "argument": "key", "value": ""})).await,
        EntryAnswer::Completion(Completion::default())
    );
}

#[tokio::test]
async fn bad_requests_get_their_codes() {
    let unknown = error(json!({"resource": "cas_objects"}), CallOptions::default()).await;
    assert_eq!(unknown.code, codes::UNKNOWN_ENTRY);
    assert_eq!(unknown.details, Some(json!({"resource": "cas_objects"})));
    // A prompt's name read as a resource's is no resource.
    let crossed = error(json!({"resource": "compose"}), CallOptions::default()).await;
    assert_eq!(crossed.code, codes::UNKNOWN_ENTRY);

    let broken = error(
        json!({"resource": "cas_object", "hash": "XYZ"}),
        CallOptions::default(),
    )
    .await;
    assert_eq!(broken.code, codes::INVALID_REQUEST);
    assert!(broken.message.contains("hash"), "{}", broken.message);
    let extra = error(
        json!({"resource": "licence", "page": 1}),
        CallOptions::default(),
    )
    .await;
    assert_eq!(extra.code, codes::INVALID_REQUEST);

    let typed = error(
        json!({"resource": "cas_object", "hash": "f00d"}),
        CallOptions::default(),
    )
    .await;
    assert_eq!(typed.code, "NOT_FOUND");
    assert_eq!(typed.details, Some(json!({"not_found": {"hash": "f00d"}})));

    let panicked = error(
        json!({"resource": "cas_object", "hash": "dead"}),
        CallOptions::default(),
    )
    .await;
    assert_eq!(panicked.code, codes::INTERNAL);
    assert!(
        panicked
            .message
            .contains("the handler of `resource cas_object` panicked: the store is on fire"),
        "{}",
        panicked.message
    );
}

#[tokio::test]
async fn an_entry_s_scopes_are_checked_before_its_handler() {
    let reader = Principal::new("ann").with_scopes(["cas:read"]);
    let stranger = Principal::new("bob");
    let request = json!({"resource": "cas_object", "hash": "beef"});
    assert!(matches!(
        ask(request.clone(), as_principal(reader)).await,
        ResponseEnvelope::Success(_)
    ));
    let refused = error(request, as_principal(stranger.clone())).await;
    assert_eq!(refused.code, codes::FORBIDDEN);
    assert_eq!(
        refused.details.as_ref().map(|d| &d["scopes"]),
        Some(&json!(["cas:read"]))
    );
    // Completing its argument needs them too; an entry without scopes does not.
    let complete = json!({"complete": "cas_object", "argument": "hash", "value": "0"});
    assert_eq!(
        error(complete, as_principal(stranger.clone())).await.code,
        codes::FORBIDDEN
    );
    assert!(matches!(
        ask(json!({"resource": "licence"}), as_principal(stranger)).await,
        ResponseEnvelope::Success(_)
    ));
}

#[tokio::test]
async fn the_answer_crosses_msgpack_as_the_wire_carries_it() {
    let envelope = ask(
        json!({"resource": "cas_object", "hash": "beef"}),
        CallOptions::default(),
    )
    .await;
    let bytes = codec::to_msgpack(&envelope).unwrap();
    // {"success": {"contents": {"blob": bin8 [be ef]}}}
    assert!(bytes.ends_with(&[0xc4, 2, 0xbe, 0xef]), "{bytes:02x?}");
    let back: ResponseEnvelope<EntryAnswer> =
        codec::from_msgpack(&bytes, Limits::default()).unwrap();
    assert_eq!(back, envelope);
}

/// The byte examples of docs/wire.md's "Entries" are what the runtime
/// reads and writes.
#[tokio::test]
async fn the_examples_in_the_wire_spec_are_exact() {
    let spec = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/wire.md"))
        .expect("docs/wire.md");
    let hex = |bytes: &[u8]| {
        bytes
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let request = encode(&json!({"resource": "licence"}));
    assert!(spec.contains(&hex(&request)), "{}", hex(&request));
    let answer = ask(
        json!({"resource": "cas_object", "hash": "beef"}),
        CallOptions::default(),
    )
    .await;
    let answer = codec::to_msgpack(&answer).unwrap();
    assert!(spec.contains(&hex(&answer)), "{}", hex(&answer));
}
