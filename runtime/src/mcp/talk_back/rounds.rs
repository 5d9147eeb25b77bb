//! Questions in answers, MCP 2026-07-28's way for a handler to ask its
//! client (SEP-2322): a question a handler asks goes to the client in the
//! call's `input_required` result, keyed; the client calls again with its
//! answers (`inputResponses`) and the `requestState` it was given, and
//! the handler runs again, this time finding each answer under its key.
//!
//! The server keeps nothing between rounds: the answers gathered so far
//! travel in the call's `requestState`, sealed (`seal.rs`).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, PoisonError};

use rmcp::model::{ClientCapabilities, InputRequest, InputRequests, JsonObject};

use crate::Json;

/// The answers one run of a call was given, and the questions it asked
/// that have none.
#[derive(Debug, Default)]
pub(in crate::mcp) struct Rounds {
    pub(super) answers: BTreeMap<String, Json>,
    pub(super) asked: Mutex<Asked>,
}

#[derive(Debug, Default)]
pub(super) struct Asked {
    pub(super) questions: BTreeMap<String, Json>,
    /// The capabilities of questions refused because the request did not
    /// declare them.
    pub(super) missing: BTreeMap<&'static str, Json>,
    /// How many questions of each kind were asked without a key.
    pub(super) numbered: HashMap<&'static str, usize>,
}

impl Rounds {
    /// The key of a question of `kind` (`sampling`, `elicitation`,
    /// `roots`): the handler's, or the next of that kind (`sampling_1`,
    /// `sampling_2`, …), stable as long as the handler asks in the same
    /// order each run.
    pub(in crate::mcp) fn key(&self, given: Option<&str>, kind: &'static str) -> String {
        if let Some(key) = given {
            return key.to_owned();
        }
        let mut asked = self.asked.lock().unwrap_or_else(PoisonError::into_inner);
        let n = asked.numbered.entry(kind).or_insert(0);
        *n += 1;
        format!("{kind}_{n}")
    }

    /// The client's answer to the question under `key`, if it gave one.
    pub(in crate::mcp) fn answer(&self, key: &str) -> Option<&Json> {
        self.answers.get(key)
    }

    /// Records a question for the client: `request` is the request it
    /// would be on its own (`{"method", "params"}`).
    pub(in crate::mcp) fn ask(&self, key: String, request: Json) {
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .questions
            .insert(key, request);
    }

    /// Notes a question refused because the request did not declare
    /// `capability`.
    pub(in crate::mcp) fn refuse(&self, capability: &'static str) {
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .missing
            .insert(capability, Json::Object(JsonObject::new()));
    }

    /// The capabilities whose questions were refused, as the
    /// `requiredCapabilities` of a `-32021` error; `None` when none were.
    pub(in crate::mcp) fn missing(&self) -> Option<ClientCapabilities> {
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
    pub(super) fn questions(&self) -> Option<InputRequests> {
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
