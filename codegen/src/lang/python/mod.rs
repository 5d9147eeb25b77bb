//! The Python backend: the model → a pip package (`pyproject.toml`,
//! `src/toolwright_catalogue/`) of pydantic models, a tool registry and the
//! TOON codec. Used by [`crate::generate_bindings`]; docs/python.md
//! describes what it emits.
//!
//! Per-catalogue modules come from tera templates (`templates/`) filled
//! with a context built in Rust ([`context`]); the fixed helpers
//! (`runtime/`) are real Python files, type-checked as such, copied in
//! verbatim.

mod classes;
mod context;
mod envelopes;
mod line;
pub(crate) mod names;
mod registry;

use std::path::Path;

use crate::output::OutputFile;

use super::templates::{self, Layout, Template};

/// The import name of the package.
const PACKAGE: &str = "toolwright_catalogue";
/// The distribution name pip knows it by.
const DISTRIBUTION: &str = "toolwright-catalogue";

/// Per-catalogue files, from templates (`macros.tera` is their library).
/// Modules go under `src/` + [`PACKAGE`], spelled out since a `const` cannot
/// be joined into another at compile time; a test pins the layout.
const TEMPLATES: &[Template] = &[
    Template {
        name: "macros.tera",
        text: include_str!("templates/macros.tera"),
        output: "",
    },
    Template {
        name: "models.py",
        text: include_str!("templates/models.py.tera"),
        output: "src/toolwright_catalogue/models.py",
    },
    Template {
        name: "tools.py",
        text: include_str!("templates/tools.py.tera"),
        output: "src/toolwright_catalogue/tools.py",
    },
    Template {
        name: "registry.py",
        text: include_str!("templates/registry.py.tera"),
        output: "src/toolwright_catalogue/registry.py",
    },
    Template {
        name: "__init__.py",
        text: include_str!("templates/__init__.py.tera"),
        output: "src/toolwright_catalogue/__init__.py",
    },
    Template {
        name: "pyproject.toml",
        text: include_str!("templates/pyproject.toml.tera"),
        output: "pyproject.toml",
    },
    Template {
        name: "README.md",
        text: include_str!("templates/README.md.tera"),
        output: "README.md",
    },
];

/// The helper modules every package holds, as they are.
const RUNTIME: &[(&str, &str)] = &[
    ("_canonical.py", include_str!("runtime/_canonical.py")),
    ("_wire.py", include_str!("runtime/_wire.py")),
    ("codec.py", include_str!("runtime/codec.py")),
    ("errors.py", include_str!("runtime/errors.py")),
    ("metadata.py", include_str!("runtime/metadata.py")),
    ("profiles.py", include_str!("runtime/profiles.py")),
    ("rle.py", include_str!("runtime/rle.py")),
    ("toon.py", include_str!("runtime/toon.py")),
    ("web.py", include_str!("runtime/web.py")),
];

/// The files of the python package, relative to its root.
pub(crate) fn generate(input: &super::Input<'_>) -> Result<Vec<OutputFile>, crate::Diagnostics> {
    Ok(files(input))
}

fn files(input: &super::Input<'_>) -> Vec<OutputFile> {
    let model = input.model;
    let mut files = templates::render(
        "Python",
        TEMPLATES,
        &context::package(model, PACKAGE, DISTRIBUTION),
        Layout { max_blank_lines: 2 },
        RUNTIME,
        &Path::new("src").join(PACKAGE),
    );
    files.push(OutputFile {
        path: Path::new("src").join(PACKAGE).join("py.typed"),
        contents: String::new(),
    });
    // The provider profiles, as data `profiles.py` reads.
    for profile in crate::Profile::ALL {
        let name = format!("{}.json", profile.name());
        let path = Path::new("src").join(PACKAGE).join("profiles").join(name);
        files.push(super::schema::profile_file(path, input.profile(profile)));
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}
