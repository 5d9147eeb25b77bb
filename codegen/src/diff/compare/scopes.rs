//! The OAuth scopes a tool's calls need, compared on what each version
//! resolves them to (its own `@scopes`, or its category's), so a changed
//! category default shows as a change of every tool that takes it.

use super::super::rules::{Category, Rule};
use super::Walk;
use crate::model::{Scope, Tool};

impl Walk<'_> {
    /// A scope a call needs now and did not: callers whose token lacks it
    /// are refused. One the call no longer needs refuses nobody.
    pub(super) fn scopes(&mut self, item: &str, o: &Tool, n: &Tool) {
        let only_in = |a: &'_ Tool, b: &Tool| -> Vec<Scope> {
            a.scopes
                .iter()
                .filter(|s| !b.scope_names().any(|name| name == s.name))
                .cloned()
                .collect()
        };
        let added = only_in(n, o);
        if let Some(first) = added.first() {
            let it = if added.len() == 1 {
                "it"
            } else {
                "one of them"
            };
            self.push(
                Rule::ScopeAdded,
                item,
                format!("tool `{item}` now requires {}", listed(&added)),
                &format!(
                    "callers whose access token lacks {it} are refused once the server enforces scopes"
                ),
                &[Category::Semantic],
                Some(o.location),
                Some(first.location),
            );
        }
        let removed = only_in(o, n);
        if let Some(first) = removed.first() {
            self.push(
                Rule::ScopeRemoved,
                item,
                format!("tool `{item}` no longer requires {}", listed(&removed)),
                "",
                &[],
                Some(first.location),
                Some(n.location),
            );
        }
    }
}

/// "scope `a`", "scopes `a` and `b`", "scopes `a`, `b` and `c`".
fn listed(scopes: &[Scope]) -> String {
    let quoted: Vec<String> = scopes.iter().map(|s| format!("`{}`", s.name)).collect();
    match quoted.split_last() {
        Some((last, [])) => format!("scope {last}"),
        Some((last, rest)) => format!("scopes {} and {last}", rest.join(", ")),
        None => String::new(),
    }
}
