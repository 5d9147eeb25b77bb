//! Completing an argument: what a client asks (`completion/complete`) and
//! what a `#[complete]` handler answers.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{IntoToolError, ToolError, Validate};

/// The most values one completion carries: MCP's limit. A handler that
/// returns more has the rest cut, with `has_more` set.
pub const COMPLETION_VALUES_MAX: usize = 100;

/// What a `#[complete]` handler is asked: the argument, what the user has
/// typed so far, and the values of the entry's other arguments already
/// chosen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompletionRequest {
    /// The argument (a prompt's argument, a template's variable).
    pub argument: String,
    /// What has been typed so far.
    pub value: String,
    /// The entry's other arguments, as the client has filled them in.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub context: BTreeMap<String, String>,
}

impl Validate for CompletionRequest {}

/// The values an argument may take, best first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Completion {
    /// The values, at most [`COMPLETION_VALUES_MAX`] of them.
    pub values: Vec<String>,
    /// How many values there are in all, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// There are more values than these.
    #[serde(default)]
    pub has_more: bool,
}

impl Completion {
    /// At most [`COMPLETION_VALUES_MAX`] values; those cut are counted in
    /// `total` and set `has_more`.
    #[must_use]
    pub fn capped(mut self) -> Self {
        let all = self.values.len();
        if all > COMPLETION_VALUES_MAX {
            self.values.truncate(COMPLETION_VALUES_MAX);
            self.has_more = true;
            self.total = Some(self.total.unwrap_or(0).max(all as u64));
        }
        self
    }

    /// The values of `candidates` that start with `prefix`, in order.
    pub fn matching<'a>(candidates: impl IntoIterator<Item = &'a str>, prefix: &str) -> Self {
        candidates
            .into_iter()
            .filter(|value| value.starts_with(prefix))
            .map(str::to_owned)
            .collect()
    }
}

impl From<Vec<String>> for Completion {
    fn from(values: Vec<String>) -> Self {
        Completion {
            values,
            total: None,
            has_more: false,
        }
    }
}

impl FromIterator<String> for Completion {
    fn from_iter<I: IntoIterator<Item = String>>(values: I) -> Self {
        Completion::from(values.into_iter().collect::<Vec<_>>())
    }
}

/// What a `#[complete]` handler may return: a [`Completion`], the values
/// (`Vec<String>`), or a `Result` of either. Used by `#[tools]`.
#[doc(hidden)]
pub trait IntoCompletion {
    /// The completion, at most [`COMPLETION_VALUES_MAX`] values of it.
    ///
    /// # Errors
    /// The handler's error.
    fn into_completion(self) -> Result<Completion, ToolError>;
}

impl IntoCompletion for Completion {
    fn into_completion(self) -> Result<Completion, ToolError> {
        Ok(self.capped())
    }
}

impl IntoCompletion for Vec<String> {
    fn into_completion(self) -> Result<Completion, ToolError> {
        Ok(Completion::from(self).capped())
    }
}

impl<T: IntoCompletion, E: IntoToolError> IntoCompletion for Result<T, E> {
    fn into_completion(self) -> Result<Completion, ToolError> {
        self.map_err(IntoToolError::into_tool_error)?
            .into_completion()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_completion_is_cut_to_the_limit_and_says_so() {
        let many: Completion = (0..250).map(|i| format!("v{i}")).collect();
        let capped = many.capped();
        assert_eq!(capped.values.len(), COMPLETION_VALUES_MAX);
        assert!(capped.has_more);
        assert_eq!(capped.total, Some(250));
        let few = Completion::from(vec!["a".to_owned()]).capped();
        assert_eq!(
            (few.values.len(), few.has_more, few.total),
            (1, false, None)
        );
    }

    #[test]
    fn matching_keeps_the_candidates_with_the_prefix_in_order() {
        let found = Completion::matching(["happy", "sad", "hazy"], "ha");
        assert_eq!(found.values, ["happy", "hazy"]);
    }
}
