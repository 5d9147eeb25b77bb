//! `toolwright diff`: what changed between two versions of a catalogue, and
//! whom it breaks.
//!
//! Both versions are checked models. They are walked side by side from
//! their tools, so a type is compared with the type used in its place
//! (a renamed type is a rename, not a removal and an addition) and each
//! change is judged by the direction its data travels: a new enum value
//! is harmless in a request (old clients never send it) and breaking in a
//! response (old clients cannot read it). Every change carries a stable
//! [`Rule`] id, the [`Category`]s it breaks (none for a compatible change),
//! and where it is in both versions. docs/diff.md lists every rule.
//!
//! ```
//! use toolwright_codegen::{Sources, check, diff};
//!
//! let catalogue = |text: &str| {
//!     let mut sources = Sources::new();
//!     sources.add("music.tool", text);
//!     check(&sources).expect("valid catalogue")
//! };
//! let old = catalogue("tool transpose { timing sync request { semitones: i8 } }");
//! let new = catalogue("tool transpose { timing sync request { semitones: i8, octave: i8 } }");
//! let changes = diff::diff(&old, &new);
//! assert_eq!(changes[0].rule, diff::Rule::FieldAddedRequired);
//! assert_eq!(changes[0].item, "transpose.request.octave");
//! assert_eq!(changes[0].breaks, [diff::Category::Wire]);
//! ```

mod allow;
mod compare;
mod render;
mod rules;

pub use allow::{ALLOW_FILE, Allow, AllowError, AllowList};
pub use render::Report;
pub use rules::{Category, Rule};

use std::collections::HashMap;

use crate::model::Model;
use crate::source::Location;

/// Which way the data a change touches travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// From a client to the server: a request, or a type a request reaches.
    Request,
    /// From the server to a client: a response, error or stream chunk.
    Response,
}

/// One change between the two versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// What kind of change.
    pub rule: Rule,
    /// The item changed, as a dotted path: `transpose`, `clip.render`,
    /// `transpose.request.semitones`, `Chord.root`, `Mode.dorian`.
    pub item: String,
    /// The headline.
    pub message: String,
    /// Who it breaks and how; `None` for a compatible change.
    pub consequence: Option<String>,
    /// The categories it breaks; empty when it is compatible.
    pub breaks: Vec<Category>,
    /// Where it is in the old version (for an addition: the item's parent).
    pub old: Option<Location>,
    /// Where it is in the new version (for a removal: the item's parent).
    pub new: Option<Location>,
    /// Set when an allow entry accepts the change: its reason.
    pub allowed: Option<String>,
}

impl Change {
    /// True when the change breaks one of `categories` and no allow entry
    /// accepts it.
    pub fn fails(&self, categories: &[Category]) -> bool {
        self.allowed.is_none() && self.breaks.iter().any(|c| categories.contains(c))
    }
}

/// Every change from `old` to `new`: breaking changes first, then by item.
/// A type reached from both requests and responses is reported once, with
/// what it breaks in either direction.
pub fn diff(old: &Model, new: &Model) -> Vec<Change> {
    let mut changes: Vec<Change> = Vec::new();
    let mut index: HashMap<(Rule, String), usize> = HashMap::new();
    for change in compare::compare(old, new) {
        let key = (change.rule, change.item.clone());
        let Some(&at) = index.get(&key) else {
            index.insert(key, changes.len());
            changes.push(change);
            continue;
        };
        let known = &mut changes[at];
        if change.breaks.len() > known.breaks.len() {
            known.consequence = change.consequence;
        }
        for category in change.breaks {
            if !known.breaks.contains(&category) {
                known.breaks.push(category);
            }
        }
        known.breaks.sort();
    }
    changes.sort_by(|a, b| {
        (a.breaks.is_empty(), &a.item, a.rule).cmp(&(b.breaks.is_empty(), &b.item, b.rule))
    });
    changes
}
