//! Declared examples: `example "Title" { request … response … }` in a
//! tool's or action's body, proved against the declared types by
//! `toolwright check` and carried by the generated catalogue
//! ([`Catalogue::EXAMPLES`](crate::Catalogue::EXAMPLES)).
//! [`crate::testing::check_examples`] runs them against the handlers.

/// A call of a tool or action and what it answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    /// The tool's wire name.
    pub tool: &'static str,
    /// The action, for an action tool.
    pub action: Option<&'static str>,
    /// The title, unique within its tool or action.
    pub title: &'static str,
    /// The arguments as JSON text: an object, without the tool's or the
    /// action's name.
    pub request: &'static str,
    /// What the call answers.
    pub outcome: ExampleOutcome,
}

/// How an example's call ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExampleOutcome {
    /// It succeeds; the example states no response.
    Succeeds,
    /// It answers this response, JSON text without the tool's name.
    Response(&'static str),
    /// It fails with one of the tool's errors.
    Error {
        /// The error's code, such as `OVERFLOW`.
        code: &'static str,
        /// The error's details as JSON text, as [`ToolError::details`]
        /// carries them (`{"variant": {fields}}`), when the example states
        /// them.
        ///
        /// [`ToolError::details`]: crate::ToolError::details
        details: Option<&'static str>,
    },
}

impl Example {
    /// `tool` or `tool.action`: how reports name the call.
    pub fn call_name(&self) -> String {
        match self.action {
            Some(action) => format!("{}.{action}", self.tool),
            None => self.tool.to_owned(),
        }
    }
}
