//! The TypeScript backend: which files it writes, that the output is
//! deterministic, and how it spells awkward names. The package itself is
//! type-checked and exercised by `tests/typescript/run`.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use toolwright_codegen::{Binding, ColorChoice, Sources, generate_bindings};

/// The files generated for `dir` (plus the built-in job tools), by path.
fn generate(dir: &str) -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut sources = Sources::new();
    sources.add_job_tools();
    sources
        .load_paths(&[path])
        .expect("the catalogue is readable");
    let files = generate_bindings(&sources, &[Binding::TypeScript])
        .unwrap_or_else(|d| panic!("{}", d.render(&sources, ColorChoice::Never)));
    files
        .into_iter()
        .map(|f| (f.path.to_string_lossy().replace('\\', "/"), f.contents))
        .collect()
}

#[test]
fn writes_an_npm_package() {
    let files = generate("../idl");
    let names: Vec<&str> = files.keys().map(String::as_str).collect();
    for expected in [
        "typescript/package.json",
        "typescript/tsconfig.json",
        "typescript/README.md",
        "typescript/.gitignore",
        "typescript/src/index.ts",
        "typescript/src/types.ts",
        "typescript/src/schemas.ts",
        "typescript/src/shapes.ts",
        "typescript/src/registry.ts",
        "typescript/src/toon.ts",
        "typescript/src/catalogue.ts",
        "typescript/src/client.ts",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} is missing from {names:?}"
        );
    }
    let package: serde_json::Value =
        serde_json::from_str(&files["typescript/package.json"]).expect("package.json is JSON");
    assert_eq!(package["type"], "module");
    assert!(package["dependencies"]["zod"].is_string());
    assert!(package["dependencies"]["@msgpack/msgpack"].is_string());
    for (path, text) in &files {
        if path.ends_with(".ts") {
            for any in [
                ": any;", ": any,", ": any)", ": any =", "<any>", " as any;", " as any)", "any[]",
            ] {
                assert!(!text.contains(any), "{path} uses `any` ({any:?})");
            }
        }
        assert!(
            text.ends_with('\n') && !text.ends_with("\n\n"),
            "{path} does not end in one newline"
        );
        assert!(
            !text.lines().any(|l| l.ends_with(' ')),
            "{path} has trailing spaces"
        );
    }
}

#[test]
fn output_is_deterministic() {
    assert_eq!(generate("../idl"), generate("../idl"));
}

#[test]
fn reserved_words_keep_their_wire_names() {
    let files = generate("../tests/typescript/fixtures");
    let types = &files["typescript/src/types.ts"];
    for line in [
        "  type: string;",
        "  from: number;",
        "  class?: Kind;",
        "  default?: boolean;",
        "  delete: string[];",
        "  function?: Record<string, number>;",
        "  await?: Uint8Array;",
        "export interface Promise_ {",
        "  | \"function\"",
    ] {
        assert!(types.contains(line), "types.ts lacks {line:?}");
    }
    let schemas = &files["typescript/src/schemas.ts"];
    assert!(schemas.contains("  delete: v.list(v.string()),"));
    assert!(schemas.contains("export const Promise_Schema: z.ZodType<t.Promise_>"));
    let shapes = &files["typescript/src/shapes.ts"];
    assert!(shapes.contains("[\"class\", [\"ref\", \"Kind\"]]"));
}

#[test]
fn registry_lists_every_tool_as_local() {
    let files = generate("../idl");
    let registry = &files["typescript/src/registry.ts"];
    assert!(registry.contains("\"name\": \"abc_parse\""));
    assert!(registry.contains("\"source\": \"local\""));
    assert!(!registry.contains("\"source\": \"mcp\""));
    assert!(registry.contains("\"name\": \"job_status\""));
}

/// The files the catalogue shapes, one snapshot per feature fixture, as
/// for Rust and the schemas. Review a changed one as code; update with
/// `INSTA_UPDATE=always cargo test -p toolwright-codegen --test typescript`.
#[test]
fn feature_fixtures() {
    let texts = common::feature_fixture_texts(
        Binding::TypeScript,
        &[
            "src/types.ts",
            "src/schemas.ts",
            "src/shapes.ts",
            "src/registry.ts",
        ],
    );
    for (stem, text) in texts {
        insta::assert_snapshot!(stem, text);
    }
}
