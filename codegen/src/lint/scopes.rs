//! TW407: a scope only one tool needs that is a likely typo of a scope
//! other tools need. A misspelt scope is one no token carries, so every
//! call of that tool would be refused once scopes are enforced.

use std::collections::BTreeMap;

use super::Lints;
use crate::diag::messages;
use crate::model::Tool;
use crate::source::Location;
use crate::suggest;

/// How many edits apart two scopes may be for one to be a typo of the
/// other: scopes are short parts (`cas:read`), and three edits reach
/// scopes that mean something else (`cas:read`, `cas:lead`).
const MAX_EDITS: usize = 2;

impl Lints<'_> {
    /// `@scopes("cas:raed")` on one tool while others need `cas:read`.
    pub(super) fn scope_typos(&mut self) {
        // Each scope, with the tools that need it and where it is written.
        let mut users: BTreeMap<&str, Vec<(&Tool, Location)>> = BTreeMap::new();
        for tool in &self.model.tools {
            if self.model.is_builtin(&tool.location) {
                continue;
            }
            for scope in &tool.scopes {
                users
                    .entry(scope.name.as_str())
                    .or_default()
                    .push((tool, scope.location));
            }
        }
        for (scope, needed_by) in &users {
            let [(tool, location)] = needed_by.as_slice() else {
                continue;
            };
            let others = users.keys().copied().filter(|other| other != scope);
            let Some(other) = suggest::closest_within(scope, others, MAX_EDITS) else {
                continue;
            };
            let Some(&(_, other_location)) = users.get(other).and_then(|u| u.first()) else {
                continue;
            };
            let diagnostic = messages::scope_typo(
                self.span(*location),
                scope,
                &tool.name,
                other,
                self.span(other_location),
            );
            self.out.push(diagnostic);
        }
    }
}
