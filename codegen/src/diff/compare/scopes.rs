//! The OAuth scopes a tool's calls (a resource's reads, a prompt's gets)
//! need, compared on what each version resolves them to (its own
//! `@scopes`, or its category's), so a changed category default shows as a
//! change of everything that takes it.

use super::super::rules::{Category, Rule};
use super::Walk;
use crate::model::Scope;
use crate::source::Location;

/// What needs scopes, in one version: its scopes and where it is.
pub(super) type Needs<'a> = (&'a [Scope], Location);

impl Walk<'_> {
    /// A scope a call needs now and did not: callers whose token lacks it
    /// are refused. One the call no longer needs refuses nobody. `what` is
    /// `tool`, `resource` or `prompt`.
    pub(super) fn scopes(&mut self, what: &str, item: &str, o: Needs<'_>, n: Needs<'_>) {
        let only_in = |a: &[Scope], b: &[Scope]| -> Vec<Scope> {
            a.iter()
                .filter(|s| !b.iter().any(|other| other.name == s.name))
                .cloned()
                .collect()
        };
        let added = only_in(n.0, o.0);
        if let Some(first) = added.first() {
            let it = if added.len() == 1 {
                "it"
            } else {
                "one of them"
            };
            self.push(
                Rule::ScopeAdded,
                item,
                format!("{what} `{item}` now requires {}", listed(&added)),
                &format!(
                    "callers whose access token lacks {it} are refused once the server enforces scopes"
                ),
                &[Category::Semantic],
                Some(o.1),
                Some(first.location),
            );
        }
        let removed = only_in(o.0, n.0);
        if let Some(first) = removed.first() {
            self.push(
                Rule::ScopeRemoved,
                item,
                format!("{what} `{item}` no longer requires {}", listed(&removed)),
                "",
                &[],
                Some(first.location),
                Some(n.1),
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
