//! Allow entries: breaking changes a release makes on purpose, each with a
//! reason the report shows. They live in `allowed-breaks.toml` beside the
//! new version's `.tool` files, so a reviewer sees them in the same change:
//!
//! ```toml
//! [[allow]]
//! rule = "FIELD_REMOVED"
//! item = "transpose.request.semitones"
//! reason = "Replaced by `interval` in 2.0; every client was updated."
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::Change;
use super::rules::Rule;
use crate::suggest;

/// The allow file's name, looked for in each directory of the new version.
pub const ALLOW_FILE: &str = "allowed-breaks.toml";

/// One accepted change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allow {
    /// The rule it accepts.
    pub rule: Rule,
    /// The item it accepts it for (`transpose.request.semitones`); an entry
    /// without one accepts the rule everywhere, and a path ending in `.*`
    /// accepts every item under it.
    pub item: Option<String>,
    /// Why the break is intended; shown beside the change.
    pub reason: String,
    /// The file and 1-based line of the entry.
    pub origin: (PathBuf, usize),
}

impl Allow {
    fn matches(&self, change: &Change) -> bool {
        if self.rule != change.rule {
            return false;
        }
        match self.item.as_deref() {
            None => true,
            Some(item) => match item.strip_suffix(".*") {
                Some(prefix) => change
                    .item
                    .strip_prefix(prefix)
                    .is_some_and(|rest| rest.starts_with('.')),
                None => item == change.item,
            },
        }
    }
}

/// The allow entries of one diff.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AllowList {
    entries: Vec<Allow>,
}

/// An allow file that cannot be used.
#[derive(Debug)]
pub struct AllowError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line and column, when the problem has a place.
    pub at: Option<(usize, usize)>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for AllowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, column)) => write!(
                f,
                "{}:{line}:{column}: {}",
                self.path.display(),
                self.message
            ),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for AllowError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileShape {
    #[serde(default)]
    allow: Vec<EntryShape>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryShape {
    rule: toml::Spanned<String>,
    item: Option<String>,
    reason: toml::Spanned<String>,
}

impl AllowList {
    /// No entries.
    pub fn new() -> Self {
        AllowList::default()
    }

    /// The entries, in file order.
    pub fn entries(&self) -> &[Allow] {
        &self.entries
    }

    /// Reads the entries of one allow file's text; `path` names it in
    /// errors. Every entry needs a known `rule` and a non-empty `reason`.
    pub fn add_text(&mut self, path: &Path, text: &str) -> Result<(), AllowError> {
        let error = |span: Option<std::ops::Range<usize>>, message: String| AllowError {
            path: path.to_owned(),
            at: span.map(|s| line_col(text, s.start)),
            message,
        };
        let shape: FileShape =
            toml::from_str(text).map_err(|e| error(e.span(), e.message().to_owned()))?;
        for entry in shape.allow {
            let id = entry.rule.get_ref();
            let Some(rule) = Rule::parse(id) else {
                let hint = suggest::closest(id, Rule::ALL.iter().map(|r| r.id()))
                    .map_or_else(String::new, |s| format!("; did you mean `{s}`?"));
                return Err(error(
                    Some(entry.rule.span()),
                    format!(
                        "`{id}` is not a rule of `toolwright diff` (docs/diff.md lists them){hint}"
                    ),
                ));
            };
            if entry.reason.get_ref().trim().is_empty() {
                return Err(error(
                    Some(entry.reason.span()),
                    "the reason is empty: say why the break is intended, for the reviewer".into(),
                ));
            }
            self.entries.push(Allow {
                rule,
                item: entry.item,
                reason: entry.reason.get_ref().trim().to_owned(),
                origin: (path.to_owned(), line_col(text, entry.rule.span().start).0),
            });
        }
        Ok(())
    }

    /// Reads `path` if it exists.
    pub fn add_file(&mut self, path: &Path) -> Result<(), AllowError> {
        match std::fs::read_to_string(path) {
            Ok(text) => self.add_text(path, &text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(AllowError {
                path: path.to_owned(),
                at: None,
                message: e.to_string(),
            }),
        }
    }

    /// Marks every change an entry accepts with the entry's reason, and
    /// returns the entries that accepted nothing (stale entries to remove).
    pub fn apply(&self, changes: &mut [Change]) -> Vec<Allow> {
        let mut used = vec![false; self.entries.len()];
        for change in changes.iter_mut().filter(|c| !c.breaks.is_empty()) {
            if let Some(i) = self.entries.iter().position(|a| a.matches(change)) {
                used[i] = true;
                change.allowed = Some(self.entries[i].reason.clone());
            }
        }
        self.entries
            .iter()
            .zip(used)
            .filter(|(_, used)| !used)
            .map(|(a, _)| a.clone())
            .collect()
    }
}

fn line_col(text: &str, byte: usize) -> (usize, usize) {
    let before = &text[..byte.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
