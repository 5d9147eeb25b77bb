//! The TypeScript backend: an ESM npm package with the catalogue's types,
//! zod schemas, tool registry and shapes (tera templates), and the fixed
//! TOON codec, canonical writers and client (real `.ts` files under
//! `runtime/`, copied verbatim). docs/typescript.md describes the package.

mod context;
pub(crate) mod names;

use std::path::Path;

use crate::model::Model;
use crate::output::OutputFile;

use super::templates::{self, Layout, Template};

use context::Context;

/// Per-catalogue files, from templates.
const TEMPLATES: &[Template] = &[
    Template {
        name: "types.ts",
        text: include_str!("templates/types.ts.tera"),
        output: "src/types.ts",
    },
    Template {
        name: "schemas.ts",
        text: include_str!("templates/schemas.ts.tera"),
        output: "src/schemas.ts",
    },
    Template {
        name: "shapes.ts",
        text: include_str!("templates/shapes.ts.tera"),
        output: "src/shapes.ts",
    },
    Template {
        name: "registry.ts",
        text: include_str!("templates/registry.ts.tera"),
        output: "src/registry.ts",
    },
    Template {
        name: "package.json",
        text: include_str!("templates/package.json.tera"),
        output: "package.json",
    },
    Template {
        name: "README.md",
        text: include_str!("templates/README.md.tera"),
        output: "README.md",
    },
];

/// Fixed files, the same for every catalogue: (output path, text).
const RUNTIME: &[(&str, &str)] = &[
    (".gitignore", include_str!("runtime/gitignore")),
    ("tsconfig.json", include_str!("runtime/tsconfig.json")),
    ("src/base64.ts", include_str!("runtime/base64.ts")),
    ("src/calls.ts", include_str!("runtime/calls.ts")),
    ("src/canonical.ts", include_str!("runtime/canonical.ts")),
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
    ("src/profile.ts", include_str!("runtime/profile.ts")),
    ("src/rle.ts", include_str!("runtime/rle.ts")),
    ("src/shape.ts", include_str!("runtime/shape.ts")),
    (
        "src/shape_writer.ts",
        include_str!("runtime/shape_writer.ts"),
    ),
    ("src/toon.ts", include_str!("runtime/toon.ts")),
    ("src/validate.ts", include_str!("runtime/validate.ts")),
    ("src/wire.ts", include_str!("runtime/wire.ts")),
    ("src/wire_reader.ts", include_str!("runtime/wire_reader.ts")),
    ("src/web.ts", include_str!("runtime/web.ts")),
];

/// The files of the typescript package.
pub(crate) fn generate(input: &super::Input<'_>) -> Result<Vec<OutputFile>, crate::Diagnostics> {
    let mut files = files(input.model);
    files.push(profiles(input));
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// `src/profiles.ts`: the provider profiles as constants, and the lookup of
/// a tool's input schema that `profileArguments` reads nulls against. The
/// file is `runtime/profiles.ts` with each profile's tools in place of its
/// empty array.
fn profiles(input: &super::Input<'_>) -> OutputFile {
    let mut text = PROFILES_TS.to_owned();
    // Last constant first: the first match is then always the declaration,
    // never text inside tools already put in after it.
    for profile in crate::Profile::ALL.into_iter().rev() {
        let json = serde_json::to_string_pretty(input.profile(profile)).unwrap_or_default();
        let empty = profile_constant(profile, "[]");
        debug_assert!(
            text.contains(&empty),
            "runtime/profiles.ts declares {empty}"
        );
        text = text.replacen(&empty, &profile_constant(profile, &json), 1);
    }
    OutputFile {
        path: Path::new("src").join("profiles.ts"),
        contents: text,
    }
}

/// `src/profiles.ts` with no tools: each profile's constant is `[]`.
const PROFILES_TS: &str = include_str!("runtime/profiles.ts");

/// The declaration of `profile`'s constant in `src/profiles.ts`, with `tools`
/// as its value.
fn profile_constant(profile: crate::Profile, tools: &str) -> String {
    format!(
        "export const {}_TOOLS: readonly JsonValue[] = {tools};",
        profile.name().to_uppercase()
    )
}

fn files(model: &Model) -> Vec<OutputFile> {
    templates::render(
        "TypeScript",
        TEMPLATES,
        &Context::new(model),
        Layout { max_blank_lines: 1 },
        RUNTIME,
        Path::new(""),
    )
}

#[cfg(test)]
mod tests {
    use super::{PROFILES_TS, profile_constant};

    #[test]
    fn profiles_ts_declares_each_profile_once() {
        for profile in crate::Profile::ALL {
            let empty = profile_constant(profile, "[]");
            assert_eq!(PROFILES_TS.matches(&empty).count(), 1, "{empty}");
            let doc = format!(
                "/** The tools as {} takes them: `schemas/profiles/{}.json`. */\n{empty}",
                profile.provider(),
                profile.name()
            );
            assert!(PROFILES_TS.contains(&doc), "{doc}");
        }
        let at = |p| PROFILES_TS.find(&profile_constant(p, "[]"));
        assert!(
            crate::Profile::ALL.windows(2).all(|w| at(w[0]) < at(w[1])),
            "declared in Profile::ALL's order"
        );
    }
}
