//! What the driver sends, and how it checks each answer: `add`, a resource
//! read, a prompt get, or one store to fill the studio's content store.
//!
//! Every answer is checked, cheaply: the first one fully (a read's blob
//! decoded and compared with the file), each later one for equality with
//! the first, so the client's own cost stays small next to the server's.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use rmcp::model::{CallToolRequestParams, GetPromptRequestParams, ReadResourceRequestParams};
use serde_json::{Map, Value, json};

use crate::Client;

type Error = Box<dyn std::error::Error>;

pub(crate) enum Operation {
    /// `tools/call` of `add(i, 1)`.
    Add,
    /// `resources/read` of `uri`, whose one blob is `expected`.
    Read {
        uri: String,
        expected: Vec<u8>,
        /// The first answer's contents, once checked, and their digest.
        first: Option<(Value, u64)>,
    },
    /// `prompts/get` of `name` with `arguments`.
    Prompt {
        name: String,
        arguments: Map<String, Value>,
        /// The first answer's messages, and their digest.
        first: Option<(Value, u64)>,
    },
    /// One `tools/call` of `cas_store` with `data`.
    Store { data: Vec<u8>, mime: String },
}

impl Operation {
    /// The operation a flag and its two values name.
    pub(crate) fn parse(flag: &str, first: &str, second: &str) -> Result<Operation, String> {
        let read = |path: &str| std::fs::read(path).map_err(|e| format!("{flag} {path}: {e}"));
        Ok(match flag {
            "--read" => Operation::Read {
                uri: first.to_owned(),
                expected: read(second)?,
                first: None,
            },
            "--prompt" => Operation::Prompt {
                name: first.to_owned(),
                arguments: serde_json::from_str(second)
                    .map_err(|e| format!("{flag} {first}: the arguments are not an object: {e}"))?,
                first: None,
            },
            "--store" => Operation::Store {
                data: read(first)?,
                mime: second.to_owned(),
            },
            _ => return Err(format!("no operation {flag}")),
        })
    }

    /// Sends it once (the `i`th time) and checks the answer; a digest of
    /// what was checked.
    pub(crate) async fn run(&mut self, client: &mut Client, i: i64) -> Result<u64, Error> {
        match self {
            Operation::Add => add(client, i).await,
            Operation::Read {
                uri,
                expected,
                first,
            } => {
                let contents = match client {
                    Client::Sdk(client) => {
                        let result = client
                            .read_resource(ReadResourceRequestParams::new(uri.as_str()))
                            .await?;
                        serde_json::to_value(result.contents)?
                    }
                    Client::Lean(client) => {
                        let mut result =
                            client.call("resources/read", json!({ "uri": uri })).await?;
                        result["contents"].take()
                    }
                };
                same_as_first(first, contents, |contents| {
                    let blob = contents[0]["blob"]
                        .as_str()
                        .ok_or_else(|| format!("{uri} answered no blob: {contents:.200}"))?;
                    if STANDARD.decode(blob)? != *expected {
                        return Err(format!("{uri} answered other bytes than the file's").into());
                    }
                    Ok(())
                })
            }
            Operation::Prompt {
                name,
                arguments,
                first,
            } => {
                let messages = match client {
                    Client::Sdk(client) => {
                        let result = client
                            .get_prompt(
                                GetPromptRequestParams::new(name.as_str())
                                    .with_arguments(arguments.clone()),
                            )
                            .await?;
                        serde_json::to_value(result.messages)?
                    }
                    Client::Lean(client) => {
                        let params = json!({ "name": name, "arguments": arguments });
                        let mut result = client.call("prompts/get", params).await?;
                        result["messages"].take()
                    }
                };
                same_as_first(first, messages, |messages| match messages.as_array() {
                    Some(messages) if !messages.is_empty() => Ok(()),
                    _ => Err(format!("prompt {name} answered no messages").into()),
                })
            }
            Operation::Store { .. } => Err("a store is sent once, with `store`".into()),
        }
    }

    /// Stores the data; its hash.
    pub(crate) async fn store(&self, client: &mut Client) -> Result<String, Error> {
        let Operation::Store { data, mime } = self else {
            return Err("not a store".into());
        };
        let mut arguments = Map::new();
        arguments.insert("data".into(), json!(STANDARD.encode(data)));
        arguments.insert("mime_type".into(), json!(mime));
        let stored = match client {
            Client::Sdk(client) => {
                let result = client
                    .call_tool(CallToolRequestParams::new("cas_store").with_arguments(arguments))
                    .await?;
                result.structured_content
            }
            Client::Lean(client) => {
                let params = json!({ "name": "cas_store", "arguments": arguments });
                let mut result = client.call("tools/call", params).await?;
                Some(result["structuredContent"].take())
            }
        };
        stored
            .as_ref()
            .and_then(|s| s["hash"].as_str())
            .map(str::to_owned)
            .ok_or_else(|| format!("cas_store answered no hash: {stored:?}").into())
    }
}

/// Calls `add(a, 1)` and checks the answer.
async fn add(client: &mut Client, a: i64) -> Result<u64, Error> {
    let expected = json!({"result": a + 1});
    let answered = match client {
        Client::Sdk(client) => {
            let mut arguments = Map::new();
            arguments.insert("a".into(), json!(a));
            arguments.insert("b".into(), json!(1));
            let result = client
                .call_tool(CallToolRequestParams::new("add").with_arguments(arguments))
                .await?;
            if result.is_error == Some(true) {
                return Err(format!("add({a}, 1) failed: {result:?}").into());
            }
            result.structured_content
        }
        Client::Lean(client) => Some(client.add(a, 1).await?),
    };
    match answered {
        Some(value) if value == expected => Ok(0),
        other => Err(format!("add({a}, 1) answered {other:?}, not {expected}").into()),
    }
}

/// Checks the first answer with `check` and keeps it; any later one must
/// equal it. The digest of the first.
fn same_as_first(
    first: &mut Option<(Value, u64)>,
    answer: Value,
    check: impl FnOnce(&Value) -> Result<(), Error>,
) -> Result<u64, Error> {
    match first {
        Some((first, digest)) if *first == answer => Ok(*digest),
        Some(_) => Err("an answer differs from the first".into()),
        None => {
            check(&answer)?;
            let digest = digest(&answer);
            *first = Some((answer, digest));
            Ok(digest)
        }
    }
}

/// FNV-1a of a value's JSON text: equal answers, equal digests.
fn digest(value: &Value) -> u64 {
    value
        .to_string()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325, |hash, b| {
            (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}
