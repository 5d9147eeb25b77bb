//! Renders diagnostics with source snippets (codespan-reporting).

use std::io::Write;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::term::{self, Config, Styles, StylesWriter, termcolor};

use super::{Diagnostics, Severity};
use crate::source::Sources;

/// Whether rendered diagnostics carry ANSI colour codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// Plain text: files, logs, snapshots, `cargo` build-script output.
    Never,
    /// ANSI colours, for a terminal.
    Always,
}

pub(super) fn render(diagnostics: &Diagnostics, sources: &Sources, color: ColorChoice) -> String {
    let mut out = render_each(diagnostics, sources, color);
    let errors = diagnostics.count(Severity::Error);
    let warnings = diagnostics.count(Severity::Warning);
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let line = match (errors, warnings) {
        (_, 0) => format!("{} found\n", count(errors, "error")),
        (0, _) => format!("{} found\n", count(warnings, "warning")),
        _ => format!(
            "{} and {} found\n",
            count(errors, "error"),
            count(warnings, "warning")
        ),
    };
    out.push_str(&line);
    out
}

/// The diagnostics alone, without the closing count.
pub(super) fn render_each(
    diagnostics: &Diagnostics,
    sources: &Sources,
    color: ColorChoice,
) -> String {
    let config = Config::default();
    let styles = Styles::default();
    let mut buffer = match color {
        ColorChoice::Never => termcolor::Buffer::no_color(),
        ColorChoice::Always => termcolor::Buffer::ansi(),
    };
    for d in diagnostics {
        let mut labels = vec![
            cs::Label::primary(d.primary.span.file, d.primary.span.range())
                .with_message(d.primary.message.clone()),
        ];
        labels.extend(d.secondary.iter().map(|l| {
            cs::Label::secondary(l.span.file, l.span.range()).with_message(l.message.clone())
        }));
        let mut notes: Vec<String> = d.notes.iter().map(|n| format!("note: {n}")).collect();
        notes.extend(d.help.iter().map(|h| format!("help: {h}")));
        let severity = match d.severity {
            Severity::Error => cs::Severity::Error,
            Severity::Warning => cs::Severity::Warning,
        };
        let diagnostic = cs::Diagnostic::new(severity)
            .with_code(d.code.as_str())
            .with_message(d.message.clone())
            .with_labels(labels)
            .with_notes(notes);
        let mut writer = StylesWriter::new(&mut buffer, &styles);
        // Rendering only fails when a span points outside its file, which the
        // lexer rules out; fall back to the headline rather than lose it.
        if term::emit_to_write_style(&mut writer, &config, sources, &diagnostic).is_err() {
            let location = sources.location(d.primary.span);
            let line = format!(
                "{}[{}]: {} ({}:{}:{})\n",
                d.severity.as_str(),
                d.code.as_str(),
                d.message,
                sources.get(d.primary.span.file).name(),
                location.line,
                location.column
            );
            let _ = buffer.write_all(line.as_bytes());
        }
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}
