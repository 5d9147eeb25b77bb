//! The TypeScript backend: an ESM npm package with the catalogue's types,
//! zod schemas, tool registry and shapes (tera templates), and the fixed
//! TOON codec, canonical writers and client (real `.ts` files under
//! `runtime/`, copied verbatim). docs/typescript.md describes the package.

mod context;
pub(crate) mod names;

use std::path::PathBuf;

use tera::Tera;

use crate::generate::OutputFile;
use crate::model::Model;

use context::Context;

/// Per-catalogue files: (template name, template text, output path).
const TEMPLATES: &[(&str, &str, &str)] = &[
    (
        "types.ts",
        include_str!("templates/types.ts.tera"),
        "src/types.ts",
    ),
    (
        "schemas.ts",
        include_str!("templates/schemas.ts.tera"),
        "src/schemas.ts",
    ),
    (
        "shapes.ts",
        include_str!("templates/shapes.ts.tera"),
        "src/shapes.ts",
    ),
    (
        "registry.ts",
        include_str!("templates/registry.ts.tera"),
        "src/registry.ts",
    ),
    (
        "package.json",
        include_str!("templates/package.json.tera"),
        "package.json",
    ),
    (
        "README.md",
        include_str!("templates/README.md.tera"),
        "README.md",
    ),
];

/// Fixed files, the same for every catalogue: (output path, text).
const RUNTIME: &[(&str, &str)] = &[
    (".gitignore", include_str!("runtime/gitignore")),
    ("tsconfig.json", include_str!("runtime/tsconfig.json")),
    ("src/base64.ts", include_str!("runtime/base64.ts")),
    ("src/calls.ts", include_str!("runtime/calls.ts")),
    ("src/catalogue.ts", include_str!("runtime/catalogue.ts")),
    ("src/client.ts", include_str!("runtime/client.ts")),
    ("src/errors.ts", include_str!("runtime/errors.ts")),
    ("src/floats.ts", include_str!("runtime/floats.ts")),
    ("src/index.ts", include_str!("runtime/index.ts")),
    ("src/json_writer.ts", include_str!("runtime/json_writer.ts")),
    ("src/metadata.ts", include_str!("runtime/metadata.ts")),
    (
        "src/msgpack_writer.ts",
        include_str!("runtime/msgpack_writer.ts"),
    ),
    ("src/rle.ts", include_str!("runtime/rle.ts")),
    ("src/shape.ts", include_str!("runtime/shape.ts")),
    ("src/toon.ts", include_str!("runtime/toon.ts")),
    ("src/validate.ts", include_str!("runtime/validate.ts")),
    ("src/wire.ts", include_str!("runtime/wire.ts")),
    ("src/wire_reader.ts", include_str!("runtime/wire_reader.ts")),
    ("src/web.ts", include_str!("runtime/web.ts")),
];

/// The files of the typescript package.
pub(crate) fn generate(model: &Model) -> Vec<OutputFile> {
    let context = Context::new(model);
    let mut tera = Tera::default();
    // The templates are part of the generator: a failure here is a bug in
    // it, caught by the tests, not something a catalogue can cause.
    tera.add_raw_templates(TEMPLATES.iter().map(|(name, text, _)| (*name, *text)))
        .expect("the TypeScript templates parse");
    let tera_context =
        tera::Context::from_serialize(&context).expect("the TypeScript context serializes");
    let mut files: Vec<OutputFile> = TEMPLATES
        .iter()
        .map(|(name, _, path)| OutputFile {
            path: PathBuf::from(path),
            contents: tidy(
                &tera
                    .render(name, &tera_context)
                    .unwrap_or_else(|e| panic!("the TypeScript template {name} renders: {e:?}")),
            ),
        })
        .collect();
    files.extend(RUNTIME.iter().map(|(path, text)| OutputFile {
        path: PathBuf::from(path),
        contents: (*text).to_owned(),
    }));
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// Trailing spaces removed, runs of blank lines collapsed to one, one final
/// newline: templates stay readable without fighting whitespace control.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
        } else {
            blank = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}
