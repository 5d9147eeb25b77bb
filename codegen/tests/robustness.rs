//! Arbitrary input never makes the frontend or the Rust backend panic:
//! random bytes, random token soups, and random edits of real catalogue
//! files all end in diagnostics that render, or in a model and Rust that
//! parses.

use proptest::prelude::*;
use toolwright_codegen::{ColorChoice, Options, Sources, check, generate};

fn run(bytes: Vec<u8>) {
    let mut sources = Sources::new();
    sources.add("fuzz.tool", bytes);
    match check(&sources) {
        Ok(model) => {
            serde_json::to_string(&model).expect("model serializes");
            let files = generate(&sources, &Options::default()).expect("a valid model generates");
            for file in files {
                if let Err(e) = syn::parse_file(&file.contents) {
                    panic!("generated Rust does not parse: {e}\n{}", file.contents);
                }
            }
        }
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty());
            let text = diagnostics.render(&sources, ColorChoice::Never);
            assert!(text.contains("error["));
        }
    }
}

const VOCABULARY: &[&str] = &[
    "category",
    "tool",
    "struct",
    "enum",
    "union",
    "error",
    "timing",
    "title",
    "request",
    "response",
    "errors",
    "stream",
    "action",
    "resource",
    "prompt",
    "uri",
    "mime",
    "contents",
    "arguments",
    "text",
    "\"cas://objects/{foo}\"",
    "\"cas://objects/{foo}{?bar}\"",
    "\"x:{+foo}/{bar:2}\"",
    "\"text/plain; a=b\"",
    "sync",
    "async_long",
    "fire_and_forget",
    "list",
    "map",
    "string",
    "u8",
    "i8",
    "f32",
    "bytes",
    "json",
    "bool",
    "Foo",
    "Bar",
    "foo",
    "bar",
    "true",
    "false",
    "{",
    "}",
    "(",
    ")",
    "<",
    ">",
    "[",
    "]",
    ",",
    ":",
    ";",
    "=",
    "?",
    "@",
    "@range(0, 10)",
    "@length(1, 2)",
    "@pattern(\"a+\")",
    "@read_only",
    "@deprecated(\"x\")",
    "@complete",
    "@subscribable",
    "@audience(user)",
    "@priority(0.5)",
    "@size(3)",
    "@cache(5, private)",
    "/// doc\n",
    "// c\n",
    "\"str\"",
    "42",
    "-7",
    "1.5",
    "1e400",
    "0x1F",
    "\"unterminated\n",
    "/*",
    "é",
    "\n",
];

const CATALOGUE: &[&str] = &[
    include_str!("../../idl/abc.tool"),
    include_str!("../../idl/fs.tool"),
    include_str!("../../idl/garden.tool"),
    include_str!("../../idl/orpheus.tool"),
    include_str!("../src/builtin/jobs.tool"),
    include_str!("fixtures/valid/resources.tool"),
];

/// Applies one random edit: insert a token, delete a few bytes, or truncate.
fn edit(text: &mut String, at: prop::sample::Index, op: u8, token: &str) {
    let floor = |text: &str, mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let i = floor(text, at.index(text.len() + 1));
    match op {
        0 => text.insert_str(i, token),
        1 => {
            let end = floor(text, (i + 7).min(text.len()));
            text.replace_range(i..end, "");
        }
        2 => text.truncate(i),
        _ => text.insert_str(i, &format!(" {token} ")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        run(bytes);
    }

    #[test]
    fn token_soup_never_panics(
        tokens in proptest::collection::vec(proptest::sample::select(VOCABULARY), 0..80),
    ) {
        run(tokens.join(" ").into_bytes());
    }

    #[test]
    fn edited_catalogue_files_never_panic(
        file in proptest::sample::select(CATALOGUE),
        edits in proptest::collection::vec(
            (any::<prop::sample::Index>(), 0..4u8, proptest::sample::select(VOCABULARY)),
            1..6,
        ),
    ) {
        let mut text = file.to_owned();
        for (at, op, token) in edits {
            edit(&mut text, at, op, token);
        }
        run(text.into_bytes());
    }
}

#[test]
fn deep_type_nesting_is_an_error_not_a_stack_overflow() {
    let depth = 10_000;
    let ty = format!("{}u8{}", "list<".repeat(depth), ">".repeat(depth));
    let mut sources = Sources::new();
    sources.add("deep.tool", format!("struct Deep {{ x: {ty} }}"));
    let diagnostics = check(&sources).expect_err("nesting is capped");
    assert!(diagnostics.iter().any(|d| d.code.as_str() == "TW015"));
}

#[test]
fn deeply_nested_actions_are_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let text = format!("tool t {{ {} }}", "action a { ".repeat(depth));
    let mut sources = Sources::new();
    sources.add("deep.tool", text);
    let diagnostics = check(&sources).expect_err("actions do not nest");
    assert!(diagnostics.iter().any(|d| d.code.as_str() == "TW204"));
}

#[test]
fn long_chains_of_types_check() {
    // 5,000 structs each holding the next: deep graphs, no recursion limits hit.
    let mut text = String::new();
    for i in 0..5_000 {
        text.push_str(&format!("struct T{i} {{ next: T{}? }}\n", i + 1));
    }
    text.push_str("struct T5000 { end: bool }\n");
    let mut sources = Sources::new();
    sources.add("chain.tool", text);
    let model = check(&sources).expect("valid");
    assert_eq!(model.types.len(), 5_001);
    assert_eq!(model.type_order.first().map(|id| id.index()), Some(5_000));
}
