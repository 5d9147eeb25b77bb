//! Questions in answers, MCP 2026-07-28's way for a handler to ask its
//! client (SEP-2322): a question a handler asks goes to the client in the
//! call's `input_required` result, keyed; the client calls again with its
//! answers (`inputResponses`) and the `requestState` it was given, and
//! the handler runs again, this time finding each answer under its key.
//!
//! The server keeps nothing between rounds. The answers gathered so far
//! travel in `requestState`, sealed (HMAC-SHA256, rmcp's
//! `RequestStateCodec`) and bound to the tool, its arguments and the
//! caller, so a client cannot forge answers into it or replay it into
//! another call; a state that does not open is refused (`-32602`).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    ClientCapabilities, ErrorData, InputRequest, InputRequests, InputRequiredResult,
    InputResponses, JsonObject, RequestStateCodec, SealOptions,
};

use crate::Json;

/// How long a sealed state opens: a client that takes longer to answer
/// starts the call again.
const STATE_TTL: Duration = Duration::from_secs(3600);

/// The answers one run of a call was given, and the questions it asked
/// that have none.
#[derive(Debug, Default)]
pub(crate) struct Rounds {
    answers: BTreeMap<String, Json>,
    asked: Mutex<Asked>,
}

#[derive(Debug, Default)]
struct Asked {
    questions: BTreeMap<String, Json>,
    /// The capabilities of questions refused because the request did not
    /// declare them.
    missing: BTreeMap<&'static str, Json>,
    /// How many questions of each kind were asked without a key.
    numbered: HashMap<&'static str, usize>,
}

impl Rounds {
    /// The key of a question of `kind` (`sampling`, `elicitation`,
    /// `roots`): the handler's, or the next of that kind (`sampling_1`,
    /// `sampling_2`, …), stable as long as the handler asks in the same
    /// order each run.
    pub(super) fn key(&self, given: Option<&str>, kind: &'static str) -> String {
        if let Some(key) = given {
            return key.to_owned();
        }
        let mut asked = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
        let n = asked.numbered.entry(kind).or_insert(0);
        *n += 1;
        format!("{kind}_{n}")
    }

    /// The client's answer to the question under `key`, if it gave one.
    pub(super) fn answer(&self, key: &str) -> Option<&Json> {
        self.answers.get(key)
    }

    /// Records a question for the client: `request` is the request it
    /// would be on its own (`{"method", "params"}`).
    pub(super) fn ask(&self, key: String, request: Json) {
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .questions
            .insert(key, request);
    }

    /// Notes a question refused because the request did not declare
    /// `capability`.
    pub(super) fn refuse(&self, capability: &'static str) {
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .missing
            .insert(capability, Json::Object(JsonObject::new()));
    }

    /// The capabilities whose questions were refused, as the
    /// `requiredCapabilities` of a `-32021` error; `None` when none were.
    pub(super) fn missing(&self) -> Option<ClientCapabilities> {
        let asked = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
        if asked.missing.is_empty() {
            return None;
        }
        serde_json::to_value(&asked.missing)
            .and_then(serde_json::from_value)
            .ok()
    }

    /// The questions asked without an answer, as the result's
    /// `inputRequests`; `None` when there are none, and the call's own
    /// answer stands.
    fn questions(&self) -> Option<InputRequests> {
        let asked = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
        if asked.questions.is_empty() {
            return None;
        }
        let requests = asked
            .questions
            .iter()
            .filter_map(|(key, request)| {
                let request = serde_json::from_value::<InputRequest>(request.clone()).ok()?;
                Some((key.clone(), request))
            })
            .collect();
        Some(requests)
    }
}

/// Seals and opens the `requestState` of calls.
pub(crate) struct Seal(RequestStateCodec);

impl std::fmt::Debug for Seal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Seal(<key>)")
    }
}

/// What a call's state is bound to: the caller, the tool and its
/// arguments.
pub(super) struct Binding<'a> {
    pub(super) owner: &'a str,
    pub(super) tool: &'a str,
    pub(super) arguments: &'a JsonObject,
}

impl Binding<'_> {
    fn bytes(&self) -> Vec<u8> {
        let arguments = serde_json::to_string(self.arguments).unwrap_or_default();
        [self.owner, self.tool, &arguments].join("\0").into_bytes()
    }
}

impl Seal {
    /// A seal with a key of its own, drawn from the operating system:
    /// states it seals open only in this process.
    ///
    /// # Errors
    /// When the operating system gives no random bytes.
    pub(crate) fn random() -> Result<Self, String> {
        let mut key = [0_u8; 32];
        getrandom::fill(&mut key).map_err(|e| format!("no random key for request states: {e}"))?;
        Self::with_key(&key)
    }

    /// A seal with `key` (at least 32 bytes), for servers behind one
    /// address that must open each other's states.
    ///
    /// # Errors
    /// When the key is shorter than 32 bytes.
    pub(crate) fn with_key(key: &[u8]) -> Result<Self, String> {
        RequestStateCodec::try_new(key.to_vec())
            .map(Seal)
            .map_err(|e| e.to_string())
    }

    /// The answers a call is given: those sealed in `state` (from earlier
    /// rounds) and this round's `responses`.
    ///
    /// # Errors
    /// `-32602` when `state` does not open: forged, changed, expired,
    /// sealed by another server, or for another call.
    pub(super) fn open(
        &self,
        binding: &Binding<'_>,
        state: Option<&str>,
        responses: Option<InputResponses>,
    ) -> Result<Rounds, ErrorData> {
        let mut answers: BTreeMap<String, Json> = match state {
            None => BTreeMap::new(),
            Some(state) => self
                .0
                .open_with(state, &binding.bytes())
                .ok()
                .and_then(|bytes| serde_json::from_slice(&bytes).ok())
                .ok_or_else(|| {
                    ErrorData::invalid_params(
                        "the requestState does not verify: it was changed, has expired, or \
                         belongs to another call; call the tool again without it",
                        None,
                    )
                })?,
        };
        let responses = responses.unwrap_or_default();
        // Every answer (a sampling, elicitation or roots result) is an
        // object; anything else is a malformed request, not an answer.
        if let Some((key, _)) = responses.iter().find(|(_, answer)| !answer.is_object()) {
            return Err(ErrorData::invalid_params(
                format!("inputResponses.{key} is not a result object"),
                None,
            ));
        }
        answers.extend(responses);
        Ok(Rounds {
            answers,
            asked: Mutex::default(),
        })
    }

    /// The `input_required` result of a run that asked questions, or
    /// `None` when it asked none.
    pub(super) fn questions(
        &self,
        binding: &Binding<'_>,
        rounds: &Rounds,
    ) -> Option<InputRequiredResult> {
        let questions = rounds.questions()?;
        let state = serde_json::to_vec(&rounds.answers).ok()?;
        let bytes = binding.bytes();
        let options = SealOptions::new().associated_data(&bytes).ttl(STATE_TTL);
        let sealed = self.0.seal_with(&state, &options);
        Some(InputRequiredResult::new(Some(questions), Some(sealed)))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn arguments() -> JsonObject {
        json!({"tune": "reel"})
            .as_object()
            .cloned()
            .unwrap_or_default()
    }

    fn binding(arguments: &JsonObject) -> Binding<'_> {
        Binding {
            owner: "ada",
            tool: "name_tune",
            arguments,
        }
    }

    fn question() -> Json {
        json!({"method": "elicitation/create", "params": {
            "message": "Name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}},
        }})
    }

    #[test]
    fn answers_travel_sealed_from_round_to_round() {
        let seal = Seal::random().expect("a key");
        let args = arguments();
        let first = seal.open(&binding(&args), None, None).expect("opens");
        let key = first.key(None, "elicitation");
        assert_eq!(key, "elicitation_1");
        assert!(first.answer(&key).is_none());
        first.ask(key.clone(), question());
        let result = seal.questions(&binding(&args), &first).expect("a question");
        let state = result.request_state.expect("a state");
        assert!(result.input_requests.is_some_and(|q| q.contains_key(&key)));

        let answer = json!({"action": "accept", "content": {"name": "Ada"}});
        let responses = InputResponses::from([(key.clone(), answer.clone())]);
        let second = seal
            .open(&binding(&args), Some(&state), Some(responses))
            .expect("opens");
        assert_eq!(second.answer(&key), Some(&answer));
        second.ask("color".into(), question());
        let state = seal
            .questions(&binding(&args), &second)
            .and_then(|r| r.request_state)
            .expect("a state");
        // The third round still has the first round's answer.
        let third = seal
            .open(&binding(&args), Some(&state), None)
            .expect("opens");
        assert_eq!(third.answer(&key), Some(&answer));
        assert!(seal.questions(&binding(&args), &third).is_none());
    }

    #[test]
    fn a_state_opens_only_unchanged_for_its_own_call() {
        let seal = Seal::random().expect("a key");
        let args = arguments();
        let rounds = seal.open(&binding(&args), None, None).expect("opens");
        rounds.ask("q".into(), question());
        let state = seal
            .questions(&binding(&args), &rounds)
            .and_then(|r| r.request_state)
            .expect("a state");
        let refused = |binding: &Binding<'_>, state: &str| {
            seal.open(binding, Some(state), None)
                .expect_err("refused")
                .code
                .0
        };
        assert_eq!(
            refused(&binding(&args), &format!("{state}-TAMPERED")),
            -32602
        );
        let other = json!({"tune": "jig"})
            .as_object()
            .cloned()
            .unwrap_or_default();
        assert_eq!(refused(&binding(&other), &state), -32602);
        let stranger = Binding {
            owner: "bob",
            ..binding(&args)
        };
        assert_eq!(refused(&stranger, &state), -32602);
        let elsewhere = Seal::random().expect("a key");
        assert!(elsewhere.open(&binding(&args), Some(&state), None).is_err());
        assert!(Seal::with_key(b"short").is_err());
    }

    #[test]
    fn an_answer_that_is_not_an_object_is_refused() {
        let seal = Seal::random().expect("a key");
        let args = arguments();
        let responses = InputResponses::from([("q".to_owned(), json!(12345))]);
        let refused = seal
            .open(&binding(&args), None, Some(responses))
            .expect_err("refused");
        assert_eq!(refused.code.0, -32602);
        assert!(refused.message.contains("inputResponses.q"));
    }
}
