//! Declared examples: `example "Title" { request ... response ... }` in a
//! tool or action body, after the checker has proved them against the
//! declared types and constraints.

use serde::Serialize;

use crate::source::Location;

/// A call of a tool or action and what it answers. Every part decodes as
/// the types the tool declares, within their constraints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Example {
    /// The title, unique within its tool or action.
    pub title: String,
    /// The arguments, a JSON object; an action's name is not among them.
    pub request: serde_json::Value,
    /// What the call answers.
    pub outcome: ExampleOutcome,
    /// Where it is declared.
    pub location: Location,
}

impl Example {
    /// The request as a call sends it: for an action, its name first.
    pub fn call(&self, action: Option<&str>) -> serde_json::Value {
        let Some(action) = action else {
            return self.request.clone();
        };
        let mut call = serde_json::Map::new();
        call.insert("action".to_owned(), action.into());
        if let serde_json::Value::Object(fields) = &self.request {
            call.extend(fields.clone());
        }
        serde_json::Value::Object(call)
    }
}

/// How an example's call ends.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ExampleOutcome {
    /// It succeeds; the example states no response (a tool that answers
    /// with an acknowledgement, or one whose answer varies).
    Succeeds,
    /// It answers this response.
    Response {
        /// The response, as JSON.
        value: serde_json::Value,
    },
    /// It fails with one of the tool's errors.
    Error {
        /// The error's wire code, such as `OVERFLOW`.
        code: String,
        /// The variant's IDL name, such as `overflow`.
        name: String,
        /// The error's fields, when the example states them.
        #[serde(skip_serializing_if = "Option::is_none")]
        details: Option<serde_json::Value>,
    },
}
