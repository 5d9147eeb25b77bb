//! A diff's report: for people, with snippets from both versions (as
//! `check` prints diagnostics), or as JSON lines for CI.

use std::ops::Range;

use codespan_reporting::diagnostic::{self as cs, Severity};
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::{self, Config, Styles, StylesWriter, termcolor};
use serde::Serialize;

use super::Change;
use super::allow::Allow;
use super::rules::Category;
use crate::diag::ColorChoice;
use crate::source::{FileId, Location, Sources};

/// The changes of one diff, with the allow entries that matched nothing.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every change, breaking first.
    pub changes: Vec<Change>,
    /// Allow entries that accepted no change: stale, to be removed.
    pub unused: Vec<Allow>,
}

/// Which version a file belongs to, for snippets from both at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Version {
    Old,
    New,
}

/// Both versions' files as one set, for codespan.
struct Both<'a> {
    old: &'a Sources,
    new: &'a Sources,
}

impl<'a> Both<'a> {
    fn side(&self, version: Version) -> &'a Sources {
        match version {
            Version::Old => self.old,
            Version::New => self.new,
        }
    }

    /// The span of the name at a location: what a caret underlines.
    fn span(
        &self,
        version: Version,
        location: Location,
    ) -> Option<((Version, FileId), Range<usize>)> {
        let sources = self.side(version);
        if location.file >= sources.len() {
            return None;
        }
        let span = sources.name_span(location);
        Some(((version, span.file), span.range()))
    }

    fn place(&self, version: Version, location: Location) -> Place<'a> {
        let sources = self.side(version);
        let name = u32::try_from(location.file)
            .ok()
            .filter(|_| location.file < sources.len())
            .map_or("?", |f| sources.get(FileId(f)).name());
        Place {
            file: name,
            line: location.line,
            column: location.column,
        }
    }
}

impl<'a> Files<'a> for Both<'a> {
    type FileId = (Version, FileId);
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (version, id): Self::FileId) -> Result<&'a str, FilesError> {
        self.side(version).name(id)
    }

    fn source(&'a self, (version, id): Self::FileId) -> Result<&'a str, FilesError> {
        self.side(version).source(id)
    }

    fn line_index(&'a self, (version, id): Self::FileId, byte: usize) -> Result<usize, FilesError> {
        self.side(version).line_index(id, byte)
    }

    fn line_range(
        &'a self,
        (version, id): Self::FileId,
        line: usize,
    ) -> Result<Range<usize>, FilesError> {
        self.side(version).line_range(id, line)
    }
}

/// A place in one version, for JSON.
#[derive(Serialize)]
struct Place<'a> {
    file: &'a str,
    line: usize,
    column: usize,
}

#[derive(Serialize)]
struct JsonChange<'a> {
    rule: &'static str,
    item: &'a str,
    message: &'a str,
    breaking: bool,
    breaks: Vec<&'static str>,
    consequence: Option<&'a str>,
    allowed: Option<&'a str>,
    old: Option<Place<'a>>,
    new: Option<Place<'a>>,
}

impl Report {
    /// How many changes break one of `categories` and are not allowed.
    pub fn failures(&self, categories: &[Category]) -> usize {
        self.changes.iter().filter(|c| c.fails(categories)).count()
    }

    /// The report for people: every change with snippets from both
    /// versions, what it breaks and why, then a summary. Changes that break
    /// only categories outside `categories` are shown as warnings.
    pub fn render(
        &self,
        old: &Sources,
        new: &Sources,
        categories: &[Category],
        color: ColorChoice,
    ) -> String {
        let files = Both { old, new };
        let config = Config::default();
        let styles = Styles::default();
        let mut buffer = match color {
            ColorChoice::Never => termcolor::Buffer::no_color(),
            ColorChoice::Always => termcolor::Buffer::ansi(),
        };
        for change in &self.changes {
            let severity = if change.fails(categories) {
                Severity::Error
            } else if change.breaks.is_empty() {
                Severity::Note
            } else {
                Severity::Warning
            };
            let mut labels = Vec::new();
            let sides = [
                (Version::Old, change.old, "old"),
                (Version::New, change.new, "new"),
            ];
            for (version, location, name) in sides {
                if let Some((file, range)) = location.and_then(|l| files.span(version, l)) {
                    let label = if labels.is_empty() {
                        cs::Label::primary(file, range)
                    } else {
                        cs::Label::secondary(file, range)
                    };
                    labels.push(label.with_message(name));
                }
            }
            let mut notes = Vec::new();
            if change.breaks.is_empty() {
                notes.push("compatible".to_owned());
            } else {
                let names: Vec<&str> = change.breaks.iter().map(|c| c.as_str()).collect();
                let unselected = if change.breaks.iter().any(|c| categories.contains(c)) {
                    ""
                } else {
                    " (not a selected category)"
                };
                notes.push(match &change.consequence {
                    Some(why) => format!("breaks {}{unselected}: {why}", names.join(", ")),
                    None => format!("breaks {}{unselected}", names.join(", ")),
                });
            }
            if let Some(reason) = &change.allowed {
                notes.push(format!("allowed: {reason}"));
            }
            let diagnostic = cs::Diagnostic::new(severity)
                .with_code(change.rule.id())
                .with_message(change.message.clone())
                .with_labels(labels)
                .with_notes(notes);
            let mut writer = StylesWriter::new(&mut buffer, &styles);
            if term::emit_to_write_style(&mut writer, &config, &files, &diagnostic).is_err() {
                // Only a location outside its file gets here; keep the
                // headline rather than lose the change.
                let line = format!("{}: {}\n", change.rule.id(), change.message);
                let _ = std::io::Write::write_all(&mut buffer, line.as_bytes());
            }
        }
        let mut out = String::from_utf8_lossy(buffer.as_slice()).into_owned();
        for allow in &self.unused {
            let item = allow
                .item
                .as_deref()
                .map_or_else(String::new, |i| format!(" for `{i}`"));
            out.push_str(&format!(
                "warning: the allow entry at {}:{} ({}{item}) matched no change; remove it\n",
                allow.origin.0.display(),
                allow.origin.1,
                allow.rule.id(),
            ));
        }
        out.push_str(&self.summary(categories));
        out
    }

    /// One line: how many changes of each kind.
    pub fn summary(&self, categories: &[Category]) -> String {
        if self.changes.is_empty() {
            return "no changes\n".to_owned();
        }
        let failing = self.failures(categories);
        let mut per_category = Vec::new();
        for category in categories {
            let n = self
                .changes
                .iter()
                .filter(|c| c.allowed.is_none() && c.breaks.contains(category))
                .count();
            if n > 0 {
                per_category.push(format!("{category} {n}"));
            }
        }
        let allowed = self.changes.iter().filter(|c| c.allowed.is_some()).count();
        let compatible = self.changes.iter().filter(|c| c.breaks.is_empty()).count();
        let other = self.changes.len() - failing - allowed - compatible;
        let mut parts = vec![format!(
            "{failing} breaking change{}{}",
            plural(failing),
            if per_category.is_empty() {
                String::new()
            } else {
                format!(" ({})", per_category.join(", "))
            }
        )];
        if other > 0 {
            parts.push(format!("{other} breaking only unselected categories"));
        }
        if allowed > 0 {
            parts.push(format!("{allowed} allowed"));
        }
        parts.push(format!("{compatible} compatible"));
        format!("{}\n", parts.join(", "))
    }

    /// One JSON object per change per line: `rule`, `item`, `message`,
    /// `breaking` (breaks a selected category and is not allowed),
    /// `breaks`, `consequence`, `allowed` (the reason), and `old`/`new`
    /// places (`file`, 1-based `line` and `column`).
    pub fn render_json(&self, old: &Sources, new: &Sources, categories: &[Category]) -> String {
        let files = Both { old, new };
        let mut out = String::new();
        for change in &self.changes {
            let json = JsonChange {
                rule: change.rule.id(),
                item: &change.item,
                message: &change.message,
                breaking: change.fails(categories),
                breaks: change.breaks.iter().map(|c| c.as_str()).collect(),
                consequence: change.consequence.as_deref(),
                allowed: change.allowed.as_deref(),
                old: change.old.map(|l| files.place(Version::Old, l)),
                new: change.new.map(|l| files.place(Version::New, l)),
            };
            // A struct of strings, numbers and options always serializes.
            out.push_str(&serde_json::to_string(&json).unwrap_or_default());
            out.push('\n');
        }
        out
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
