//! The `requestState` of MCP 2026-07-28 rounds: the answers gathered so
//! far, sealed (HMAC-SHA256, rmcp's `RequestStateCodec`) and bound to the
//! tool, its arguments and the caller, so a client cannot forge answers into
//! it or replay it into another call; a state that does not open is refused
//! (`-32602`).

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use rmcp::model::{
    ErrorData, InputRequiredResult, InputResponses, JsonObject, RequestStateCodec, SealOptions,
};

use super::rounds::Rounds;
use crate::Json;

/// How long a sealed state opens: a client that takes longer to answer
/// starts the call again.
pub(in crate::mcp) const STATE_TTL: Duration = Duration::from_secs(3600);

/// Seals and opens the `requestState` of calls.
pub(crate) struct Seal(RequestStateCodec);

impl std::fmt::Debug for Seal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Seal(<key>)")
    }
}

/// What a call's state is bound to: the caller, the tool and its
/// arguments.
pub(in crate::mcp) struct Binding<'a> {
    pub(in crate::mcp) owner: &'a str,
    pub(in crate::mcp) tool: &'a str,
    pub(in crate::mcp) arguments: &'a JsonObject,
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
    pub(in crate::mcp) fn open(
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
    pub(in crate::mcp) fn questions(
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
    use rmcp::model::InputResponses;

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
