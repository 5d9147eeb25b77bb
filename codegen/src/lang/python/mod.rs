//! The Python backend: the model → a pip package (`pyproject.toml`,
//! `src/toolwright_catalogue/`) of pydantic models, a tool registry and the
//! TOON codec. Used by [`crate::generate_bindings`]; docs/python.md
//! describes what it emits.
//!
//! Per-catalogue modules come from tera templates (`templates/`) filled
//! with a context built in Rust ([`context`]); the fixed helpers
//! (`runtime/`) are real Python files, type-checked as such, copied in
//! verbatim.

mod context;
mod envelopes;
pub(crate) mod names;
mod registry;

use std::path::PathBuf;

use crate::generate::OutputFile;
use crate::model::Model;

/// The import name of the package.
const PACKAGE: &str = "toolwright_catalogue";
/// The distribution name pip knows it by.
const DISTRIBUTION: &str = "toolwright-catalogue";

/// Templates, by the name their output takes.
const TEMPLATES: &[(&str, &str)] = &[
    ("macros.tera", include_str!("templates/macros.tera")),
    ("models.py", include_str!("templates/models.py.tera")),
    ("tools.py", include_str!("templates/tools.py.tera")),
    ("registry.py", include_str!("templates/registry.py.tera")),
    ("__init__.py", include_str!("templates/__init__.py.tera")),
    (
        "pyproject.toml",
        include_str!("templates/pyproject.toml.tera"),
    ),
    ("README.md", include_str!("templates/README.md.tera")),
];

/// The helper modules every package holds, as they are.
const RUNTIME: &[(&str, &str)] = &[
    ("_canonical.py", include_str!("runtime/_canonical.py")),
    ("_wire.py", include_str!("runtime/_wire.py")),
    ("codec.py", include_str!("runtime/codec.py")),
    ("errors.py", include_str!("runtime/errors.py")),
    ("metadata.py", include_str!("runtime/metadata.py")),
    ("rle.py", include_str!("runtime/rle.py")),
    ("toon.py", include_str!("runtime/toon.py")),
    ("web.py", include_str!("runtime/web.py")),
];

/// The files of the python package, relative to its root.
pub(crate) fn generate(model: &Model) -> Vec<OutputFile> {
    let cx = context::package(model, PACKAGE, DISTRIBUTION);
    let tera = templates();
    let cx = tera::Context::from_serialize(&cx).expect("the context is a map of plain values");
    let src = PathBuf::from("src").join(PACKAGE);
    let mut files = Vec::new();
    for &(name, _) in TEMPLATES {
        if name.ends_with(".tera") {
            continue;
        }
        let text = tera
            .render(name, &cx)
            .unwrap_or_else(|e| panic!("template `{name}` does not render: {}", chain(&e)));
        let path = if name.ends_with(".py") {
            src.join(name)
        } else {
            PathBuf::from(name)
        };
        files.push(OutputFile {
            path,
            contents: tidy(&text),
        });
    }
    for &(name, text) in RUNTIME {
        files.push(OutputFile {
            path: src.join(name),
            contents: text.to_owned(),
        });
    }
    files.push(OutputFile {
        path: src.join("py.typed"),
        contents: String::new(),
    });
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// The templates, parsed once per generation. They are part of this crate,
/// so one that does not parse is a bug caught by every test.
fn templates() -> tera::Tera {
    let mut tera = tera::Tera::default();
    tera.autoescape_on(Vec::new());
    tera.add_raw_templates(TEMPLATES.iter().copied())
        .unwrap_or_else(|e| panic!("the Python templates do not parse: {}", chain(&e)));
    tera
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

/// Trailing spaces removed, at most two blank lines in a row, one newline
/// at the end: templates stay readable without fighting over whitespace.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blanks = 0;
    for line in text.trim_start_matches('\n').lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blanks += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(&"\n".repeat(blanks.min(2)));
        }
        blanks = 0;
        out.push_str(line);
        out.push('\n');
    }
    out
}
