//! Diagnostics: what the parser and checker report, how they are gathered
//! (`Ctxt`), the message catalogue, and rendering. Used by every phase and by
//! every door (CLI, build.rs, proc-macro).

mod ctxt;
mod json;
pub mod messages;
mod render;

pub(crate) use ctxt::Ctxt;
pub use messages::Code;
pub use render::ColorChoice;

use crate::source::{Sources, Span};

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The catalogue cannot be used until this is fixed.
    Error,
    /// The catalogue works, but something in it is probably a mistake or
    /// makes it harder to use. `--deny warnings` (CLI) and
    /// `Builder::deny_warnings` make warnings fail the run.
    Warning,
}

impl Severity {
    /// `error` or `warning`, as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A span with a short message printed under its caret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// What the label points at.
    pub span: Span,
    /// Text beside the caret; may be empty.
    pub message: String,
}

/// One problem found in the IDL, with everything needed to explain it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code, e.g. `TW101`.
    pub code: Code,
    /// Severity.
    pub severity: Severity,
    /// The headline.
    pub message: String,
    /// Where the problem is.
    pub primary: Label,
    /// Related places ("first defined here").
    pub secondary: Vec<Label>,
    /// Background facts.
    pub notes: Vec<String>,
    /// How to fix it, when there is a clear fix.
    pub help: Option<String>,
}

impl Diagnostic {
    pub(crate) fn error(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            primary: Label {
                span,
                message: String::new(),
            },
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    pub(crate) fn warning(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }

    pub(crate) fn label(mut self, message: impl Into<String>) -> Self {
        self.primary.message = message.into();
        self
    }

    pub(crate) fn with_secondary(mut self, span: Span, message: impl Into<String>) -> Self {
        self.secondary.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub(crate) fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    pub(crate) fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub(crate) fn help_opt(self, help: Option<String>) -> Self {
        match help {
            Some(h) => self.help(h),
            None => self,
        }
    }
}

/// Every diagnostic of a failed run, sorted by position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub(crate) fn new(mut items: Vec<Diagnostic>) -> Self {
        items.sort_by_key(|d| {
            (
                d.primary.span.file,
                d.primary.span.start,
                d.primary.span.end,
            )
        });
        Diagnostics { items }
    }

    /// Explains clashes with a built-in file (the job tools): its names are
    /// taken in every catalogue, which a user cannot guess from the clash.
    pub(crate) fn explain_builtins(mut self, sources: &Sources) -> Self {
        for d in &mut self.items {
            let builtin = d
                .secondary
                .iter()
                .find(|l| sources.get(l.span.file).is_builtin());
            if let Some(label) = builtin {
                d.notes.push(format!(
                    "`{}` is built into toolwright: every catalogue has the job tools and their types, unless they are left out (`--no-job-tools`, `Builder::job_tools(false)`)",
                    sources.get(label.span.file).name()
                ));
            }
        }
        self
    }

    /// The diagnostics, in file and position order.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.items.iter()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// How many are of this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.items.iter().filter(|d| d.severity == severity).count()
    }

    /// Keeps the diagnostics `keep` accepts.
    pub fn retain(&mut self, keep: impl FnMut(&Diagnostic) -> bool) {
        self.items.retain(keep);
    }

    /// Renders every diagnostic with source snippets, followed by a count
    /// of errors and warnings.
    pub fn render(&self, sources: &Sources, color: ColorChoice) -> String {
        render::render(self, sources, color)
    }

    /// What every door prints for a failed check: [`Diagnostics::render`],
    /// then a pointer to `toolwright explain` for the first code.
    pub fn report(&self, sources: &Sources, color: ColorChoice) -> String {
        let mut out = self.render(sources, color);
        if let Some(first) = self.items.first() {
            out.push_str(&format!(
                "`toolwright explain {}` says more about a code\n",
                first.code.as_str()
            ));
        }
        out
    }

    /// Renders every diagnostic as one JSON object per line: `code`,
    /// `severity`, `message`, `file`, `start`/`end` (1-based `line` and
    /// `column`), `label`, `related` labels, `notes`, `help`, and the
    /// `rendered` text.
    pub fn render_json(&self, sources: &Sources) -> String {
        json::render(self, sources)
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}
