//! Who hosts let see and call a tool (`@app_visibility`), compared as the
//! values in effect: none written is both, the extension's default.

use super::super::rules::{Category, Rule};
use super::{At, Walk};
use crate::model::Visibility;

impl Walk<'_> {
    /// The visibility of tool `name` in both versions.
    pub(super) fn visibility(&mut self, name: &str, o: &[Visibility], n: &[Visibility], at: At) {
        let item = format!("{name}.visibility");
        let (o, n) = (in_effect(o), in_effect(n));
        for lost in o.iter().filter(|v| !n.contains(v)) {
            // Semantic, not wire: the server lists and answers the tool for
            // every client as before, but hosts that follow the extension
            // stop doing so for the model (no agent in a rendering host
            // calls it) or for apps (a page's calls of it are refused by
            // its host), which is what the users of those hosts relied on.
            let (message, consequence) = match lost {
                Visibility::Model => (
                    format!("tool `{name}` is no longer visible to the model"),
                    "hosts that render apps leave it out of the agent's tools, so agents there can no longer call it",
                ),
                Visibility::App => (
                    format!("tool `{name}` may no longer be called by apps"),
                    "hosts refuse the calls an app makes of it, so the pages that call it break",
                ),
            };
            self.push_at(
                Rule::AppVisibilityNarrowed,
                &item,
                message,
                consequence,
                &[Category::Semantic],
                at,
            );
        }
        for gained in n.iter().filter(|v| !o.contains(v)) {
            let message = match gained {
                Visibility::Model => format!("tool `{name}` is now visible to the model"),
                Visibility::App => format!("tool `{name}` may now be called by apps"),
            };
            self.push_at(Rule::AppVisibilityWidened, &item, message, "", &[], at);
        }
    }
}

/// The values in effect: those written, or both when none is.
fn in_effect(written: &[Visibility]) -> &[Visibility] {
    if written.is_empty() {
        &Visibility::ALL
    } else {
        written
    }
}
