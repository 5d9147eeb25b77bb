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
/// a tool's input schema that `profileArguments` reads nulls against.
fn profiles(input: &super::Input<'_>) -> OutputFile {
    let mut text = String::from(
        "// The catalogue's tools as LLM providers take them (docs/schemas.md,\n\
         // \"Provider profiles\"), and a model's arguments read back.\n\n\
         import { dropAbsentNulls, type Profile } from \"./profile.js\";\n\
         import type { JsonValue } from \"./validate.js\";\n",
    );
    for profile in crate::Profile::ALL {
        let json = serde_json::to_string_pretty(input.profile(profile)).unwrap_or_default();
        text.push_str(&format!(
            "\n/** The tools as {} takes them: `schemas/profiles/{}.json`. */\n\
             export const {}_TOOLS: readonly JsonValue[] = {json};\n",
            profile.provider(),
            profile.name(),
            profile.name().to_uppercase(),
        ));
    }
    text.push_str(PROFILE_FUNCTIONS);
    OutputFile {
        path: Path::new("src").join("profiles.ts"),
        contents: text,
    }
}

/// The functions of `src/profiles.ts` over its constants.
const PROFILE_FUNCTIONS: &str = r#"
/** The tool definitions of `profile`. */
export function profileTools(profile: Profile): readonly JsonValue[] {
  switch (profile) {
    case "openai":
      return OPENAI_TOOLS;
    case "anthropic":
      return ANTHROPIC_TOOLS;
    case "gemini":
      return GEMINI_TOOLS;
  }
}

/**
 * A model's arguments for `tool` as the server reads them: each `null` the
 * tool's input schema does not admit left out (OpenAI's strict mode sends one
 * for every property the model leaves out). A copy; `args` is not changed.
 */
export function profileArguments(
  tool: string,
  args: { readonly [key: string]: JsonValue },
): { [key: string]: JsonValue } {
  // The Anthropic profile carries each tool's MCP input schema as it is.
  const entry = ANTHROPIC_TOOLS.find(
    (t) => typeof t === "object" && t !== null && !Array.isArray(t) && t["name"] === tool,
  );
  const schema =
    typeof entry === "object" && entry !== null && !Array.isArray(entry)
      ? entry["input_schema"]
      : undefined;
  return dropAbsentNulls(schema, args);
}
"#;

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
