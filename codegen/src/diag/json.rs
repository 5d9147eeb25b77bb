//! Diagnostics as JSON, one object per line, for editors and CI annotations.

use serde::Serialize;

use super::{Diagnostic, Diagnostics, Label};
use crate::source::{Sources, Span};

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'static str,
    severity: &'static str,
    message: &'a str,
    file: &'a str,
    start: Position,
    end: Position,
    label: &'a str,
    related: Vec<JsonLabel<'a>>,
    notes: &'a [String],
    help: Option<&'a str>,
    /// The diagnostic as the terminal shows it, snippet included.
    rendered: String,
}

#[derive(Serialize)]
struct JsonLabel<'a> {
    file: &'a str,
    start: Position,
    end: Position,
    message: &'a str,
}

/// 1-based line and column (in characters).
#[derive(Serialize)]
struct Position {
    line: usize,
    column: usize,
}

fn position(sources: &Sources, span: Span, end: bool) -> Position {
    let byte = if end { span.end } else { span.start };
    let (line, column) = sources.get(span.file).line_col(byte as usize);
    Position { line, column }
}

fn label<'a>(sources: &'a Sources, l: &'a Label) -> JsonLabel<'a> {
    JsonLabel {
        file: sources.get(l.span.file).name(),
        start: position(sources, l.span, false),
        end: position(sources, l.span, true),
        message: &l.message,
    }
}

fn one(sources: &Sources, d: &Diagnostic) -> String {
    let span = d.primary.span;
    let single = Diagnostics {
        items: vec![d.clone()],
    };
    let rendered = super::render::render_each(&single, sources, super::ColorChoice::Never);
    let json = JsonDiagnostic {
        code: d.code.as_str(),
        severity: d.severity.as_str(),
        message: &d.message,
        file: sources.get(span.file).name(),
        start: position(sources, span, false),
        end: position(sources, span, true),
        label: &d.primary.message,
        related: d.secondary.iter().map(|l| label(sources, l)).collect(),
        notes: &d.notes,
        help: d.help.as_deref(),
        rendered,
    };
    serde_json::to_string(&json).unwrap_or_default()
}

pub(super) fn render(diagnostics: &Diagnostics, sources: &Sources) -> String {
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&one(sources, d));
        out.push('\n');
    }
    out
}
