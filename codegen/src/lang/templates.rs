//! What the TypeScript and Python backends share: per-catalogue files
//! rendered from tera templates with a context built in Rust, tidied, and
//! fixed helper files copied in as they are.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::output::OutputFile;

/// One template: its name (`types.ts`; a name ending in `.tera` is a
/// library of macros, rendered into nothing), its text, and the path of its
/// output.
pub(crate) struct Template {
    pub(crate) name: &'static str,
    pub(crate) text: &'static str,
    pub(crate) output: &'static str,
}

/// How a language's files want their blank lines.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    /// The most blank lines kept in a row (PEP 8 puts two between
    /// top-level definitions).
    pub(crate) max_blank_lines: usize,
}

/// Renders every template with `context` and adds the `helpers` (output
/// path, text) under `helpers_dir`; the files sorted by path.
///
/// The templates and the context are part of the generator, not of the
/// catalogue: a template that does not parse or render is a bug in this
/// crate, caught by every test, so it panics with the whole error chain.
pub(crate) fn render(
    language: &str,
    templates: &[Template],
    context: &impl Serialize,
    layout: Layout,
    helpers: &[(&str, &str)],
    helpers_dir: &Path,
) -> Vec<OutputFile> {
    let mut tera = tera::Tera::default();
    tera.autoescape_on(Vec::new());
    tera.add_raw_templates(templates.iter().map(|t| (t.name, t.text)))
        .unwrap_or_else(|e| panic!("the {language} templates do not parse: {}", chain(&e)));
    let context = tera::Context::from_serialize(context)
        .unwrap_or_else(|e| panic!("the {language} context does not serialize: {}", chain(&e)));
    let mut files: Vec<OutputFile> = templates
        .iter()
        .filter(|t| !t.name.ends_with(".tera"))
        .map(|t| {
            let text = tera.render(t.name, &context).unwrap_or_else(|e| {
                panic!(
                    "the {language} template `{}` does not render: {}",
                    t.name,
                    chain(&e)
                )
            });
            OutputFile {
                path: PathBuf::from(t.output),
                contents: tidy(&text, layout),
            }
        })
        .collect();
    files.extend(helpers.iter().map(|(path, text)| OutputFile {
        path: helpers_dir.join(path),
        contents: (*text).to_owned(),
    }));
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// An error and its causes, for a panic message.
fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}

/// Trailing spaces removed, no blank line first or last, runs of blank
/// lines cut to the layout's maximum, one final newline: templates stay
/// readable without fighting tera's whitespace control.
pub(crate) fn tidy(text: &str, layout: Layout) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blanks = 0;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blanks += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(&"\n".repeat(blanks.min(layout.max_blank_lines)));
        }
        blanks = 0;
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Layout, tidy};

    #[test]
    fn tidy_keeps_text_and_trims_whitespace() {
        let one = Layout { max_blank_lines: 1 };
        let two = Layout { max_blank_lines: 2 };
        assert_eq!(tidy("\n\na  \n\n\n\nb\n\n", one), "a\n\nb\n");
        assert_eq!(tidy("a\n\n\n\nb", two), "a\n\n\nb\n");
        assert_eq!(tidy("", one), "");
    }
}
