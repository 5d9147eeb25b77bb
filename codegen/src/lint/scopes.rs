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

#[cfg(test)]
mod tests {
    use crate::diag::Code;
    use crate::{Sources, check_with_warnings};

    /// The scopes TW407 points at, with what it suggests.
    fn typos(text: &str) -> Vec<(String, String)> {
        let mut sources = Sources::new();
        sources.add("t.tool", text);
        let checked = check_with_warnings(&sources).expect("valid");
        checked
            .warnings
            .iter()
            .filter(|d| d.code == Code::ScopeTypo)
            .map(|d| {
                let scope = sources.snippet(d.primary.span).trim_matches('"').to_owned();
                (scope, d.help.clone().unwrap_or_default())
            })
            .collect()
    }

    fn tools(scopes: &[&str]) -> String {
        scopes
            .iter()
            .enumerate()
            .map(|(i, s)| format!("@scopes(\"{s}\") tool t{i} {{ timing sync }}\n"))
            .collect()
    }

    #[test]
    fn a_lone_scope_near_another_is_a_likely_typo() {
        assert_eq!(
            typos(&tools(&["cas:read", "cas:read", "cas:raed"])),
            [("cas:raed".to_owned(), "did you mean `cas:read`?".to_owned())]
        );
    }

    #[test]
    fn shared_distant_and_far_apart_scopes_are_not() {
        // Each needed by two tools: deliberate.
        assert_eq!(
            typos(&tools(&["cas:read", "cas:read", "cas:raed", "cas:raed"])),
            []
        );
        // Three edits apart, though `closest` alone would take them.
        assert_eq!(typos(&tools(&["project:admin", "project:audit"])), []);
        assert_eq!(typos(&tools(&["cas:read", "cas:write"])), []);
    }

    #[test]
    fn a_category_default_counts_once_per_tool_that_takes_it() {
        let text = "@scopes(\"cas:read\") category t;\n\
                    tool a { timing sync }\ntool b { timing sync }\n\
                    @scopes(\"cas:reed\") tool c { timing sync }";
        assert_eq!(
            typos(text),
            [("cas:reed".to_owned(), "did you mean `cas:read`?".to_owned())]
        );
    }
}
