//! TW407: a scope only one tool (or resource, or prompt) needs that is a
//! likely typo of a scope others need. A misspelt scope is one no token
//! carries, so every call of that tool would be refused once scopes are
//! enforced.

use std::collections::BTreeMap;

use super::Lints;
use crate::diag::messages;
use crate::model::Scope;
use crate::source::Location;
use crate::suggest;

/// How many edits apart two scopes may be for one to be a typo of the
/// other: scopes are short parts (`cas:read`), and three edits reach
/// scopes that mean something else (`cas:read`, `cas:lead`).
const MAX_EDITS: usize = 2;

impl Lints<'_> {
    /// `@scopes("cas:raed")` on one tool while others need `cas:read`.
    pub(super) fn scope_typos(&mut self) {
        let model = self.model;
        // What needs scopes: (kind, name, its scopes).
        let tools = model
            .tools
            .iter()
            .filter(|t| !model.is_builtin(&t.location))
            .map(|t| ("tool", t.name.as_str(), &t.scopes));
        let resources = model
            .resources
            .iter()
            .map(|r| ("resource", r.name.as_str(), &r.scopes));
        let prompts = model
            .prompts
            .iter()
            .map(|p| ("prompt", p.name.as_str(), &p.scopes));
        // Each scope, with what needs it and where it is written.
        let mut users: BTreeMap<&str, Vec<(&str, &str, Location)>> = BTreeMap::new();
        for (kind, name, scopes) in tools.chain(resources).chain(prompts) {
            for Scope {
                name: scope,
                location,
            } in scopes
            {
                users
                    .entry(scope.as_str())
                    .or_default()
                    .push((kind, name, *location));
            }
        }
        for (scope, needed_by) in &users {
            let [(kind, name, location)] = needed_by.as_slice() else {
                continue;
            };
            let others = users.keys().copied().filter(|other| other != scope);
            let Some(other) = suggest::closest_within(scope, others, MAX_EDITS) else {
                continue;
            };
            let Some(&(_, _, other_location)) = users.get(other).and_then(|u| u.first()) else {
                continue;
            };
            let diagnostic = messages::scope_typo(
                self.span(*location),
                scope,
                (kind, name),
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
    fn resources_and_prompts_need_scopes_too() {
        let text = "@scopes(\"cas:read\") tool a { timing sync }\n\
                    @scopes(\"cas:read\") prompt p { }\n\
                    @scopes(\"cas:raed\") resource r { uri \"cas:x\" }";
        assert_eq!(
            typos(text),
            [("cas:raed".to_owned(), "did you mean `cas:read`?".to_owned())]
        );
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
