//! `toolwright fmt`: canonical, idempotent, faithful (the model does not
//! change), and it keeps every comment.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use toolwright_codegen::format::format_file;
use toolwright_codegen::{Sources, check};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_owned()
}

fn format_text(name: &str, text: &str) -> Option<String> {
    let mut sources = Sources::new();
    let id = sources.add(name, text);
    format_file(&sources, id).ok()
}

/// The model as JSON without source locations, which formatting moves;
/// `dir` is where the file is, for the files it names (`@app`).
fn model_without_locations(dir: &str, name: &str, text: &str) -> Option<serde_json::Value> {
    let mut sources = Sources::new();
    sources.add_at(name, root().join(dir).join(name), text);
    let mut json = serde_json::to_value(check(&sources).ok()?).unwrap();
    strip_locations(&mut json);
    Some(json)
}

fn strip_locations(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.remove("location");
            map.values_mut().for_each(strip_locations);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_locations),
        _ => {}
    }
}

/// Every `//` comment (docs included), found outside string literals.
fn comment_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut in_string = false;
        let mut escaped = false;
        for (i, c) in line.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' if in_string => escaped = true,
                '"' => in_string = !in_string,
                '/' if !in_string && line[i..].starts_with("//") => {
                    out.push(line[i..].trim_end().to_owned());
                    break;
                }
                _ => {}
            }
        }
    }
    out
}

/// (folder, file name, text) of every `.tool` file the tests format.
fn corpus() -> Vec<(&'static str, String, String)> {
    let mut files = Vec::new();
    for dir in ["../idl", "tests/fixtures/valid", "tests/fixtures/format"] {
        let mut paths: Vec<_> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "tool"))
            .collect();
        paths.sort();
        for path in paths {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            files.push((dir, name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    files
}

#[test]
fn the_reference_catalogue_is_formatted() {
    for (_, name, text) in corpus().iter().filter(|(dir, _, _)| *dir == "../idl") {
        let formatted = format_text(name, text).expect("parses");
        assert!(
            &formatted == text,
            "idl/{name} is not in canonical layout: run `toolwright fmt --write idl`"
        );
    }
}

#[test]
fn formatting_is_idempotent_faithful_and_keeps_comments() {
    for (dir, name, text) in corpus() {
        let once = format_text(&name, &text).unwrap_or_else(|| panic!("{name} parses"));
        let twice = format_text(&name, &once).unwrap();
        assert_eq!(once, twice, "{name}: formatting twice changed it");
        assert_eq!(
            model_without_locations(dir, &name, &text),
            model_without_locations(dir, &name, &once),
            "{name}: formatting changed the model"
        );
        let mut before = comment_lines(&text);
        let mut after = comment_lines(&once);
        before.sort();
        after.sort();
        assert_eq!(before, after, "{name}: comments lost or changed");
    }
}

#[test]
fn messy_input_snapshot() {
    let text = std::fs::read_to_string(root().join("tests/fixtures/format/messy.tool")).unwrap();
    insta::assert_snapshot!("messy", format_text("messy.tool", &text).unwrap());
}

#[test]
fn messy_resources_snapshot() {
    let text =
        std::fs::read_to_string(root().join("tests/fixtures/format/messy_resources.tool")).unwrap();
    insta::assert_snapshot!(
        "messy_resources",
        format_text("messy_resources.tool", &text).unwrap()
    );
}

#[test]
fn empty_scopes_keep_their_parentheses_and_category_keeps_its_attribute() {
    // `@scopes()` says "needs none"; `@deprecated()` is plain `@deprecated`.
    let text = "// c1\n@scopes\n/// Doc.\ncategory c;\n\n@scopes() @deprecated()\ntool t { timing sync }\n";
    assert_eq!(
        format_text("c.tool", text).expect("parses"),
        "// c1\n/// Doc.\n@scopes()\ncategory c;\n\n@scopes() @deprecated\ntool t {\n    timing sync\n}\n"
    );
}

#[test]
fn files_that_do_not_parse_are_refused() {
    let mut sources = Sources::new();
    let id = sources.add("bad.tool", "struct A { x: }");
    let diagnostics = format_file(&sources, id).expect_err("syntax error");
    assert_eq!(diagnostics.len(), 1);
}

const CATALOGUE: &[&str] = &[
    include_str!("../../idl/abc.tool"),
    include_str!("../../idl/fs.tool"),
    include_str!("../../idl/proc.tool"),
    include_str!("fixtures/valid/resources.tool"),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random re-spacing of real files: remove or add whitespace and blank
    /// lines anywhere a token boundary allows; formatting must converge to
    /// the same canonical text and keep the model.
    #[test]
    fn whitespace_never_matters(
        file in proptest::sample::select(CATALOGUE),
        seed in proptest::collection::vec(0..4u8, 1..4096),
    ) {
        let mut mangled = String::with_capacity(file.len() * 2);
        let mut seed = seed.into_iter().cycle();
        let mut in_line_comment = false;
        let mut in_string = false;
        for c in file.chars() {
            match c {
                '\n' => in_line_comment = false,
                '/' if !in_string => in_line_comment = true,
                '"' if !in_line_comment => in_string = !in_string,
                _ => {}
            }
            if c == ' ' && !in_line_comment && !in_string {
                match seed.next().unwrap_or(0) {
                    0 => mangled.push_str("  "),
                    1 => mangled.push_str(" \t "),
                    _ => mangled.push(' '),
                }
            } else if c == '\n' && !in_string {
                match seed.next().unwrap_or(0) {
                    0 => mangled.push_str("\n\n"),
                    _ => mangled.push('\n'),
                }
            } else {
                mangled.push(c);
            }
        }
        let canonical = format_text("f.tool", file).unwrap();
        let formatted = format_text("f.tool", &mangled).unwrap();
        prop_assert_eq!(
            model_without_locations(".", "f.tool", file),
            model_without_locations(".", "f.tool", &formatted)
        );
        prop_assert_eq!(format_text("f.tool", &formatted).unwrap(), formatted.clone());
        // Extra blank lines between entries are kept (once); everything else
        // is canonical.
        let squash = |s: &str| s.lines().filter(|l| !l.trim().is_empty()).collect::<Vec<_>>().join("\n");
        prop_assert_eq!(squash(&canonical), squash(&formatted));
    }

    /// Comments dropped at random places between tokens survive formatting,
    /// and the result is stable.
    #[test]
    fn comments_anywhere_are_kept(
        file in proptest::sample::select(CATALOGUE),
        spots in proptest::collection::vec(any::<prop::sample::Index>(), 1..8),
    ) {
        // Candidate spots: just before a space or newline outside strings and
        // comments, where a line comment can end the line.
        let mut candidates = Vec::new();
        let mut in_line_comment = false;
        let mut in_string = false;
        let bytes = file.as_bytes();
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'\n' => in_line_comment = false,
                b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => in_line_comment = true,
                b'"' if !in_line_comment => in_string = !in_string,
                _ => {}
            }
            if !in_line_comment && !in_string && (b == b' ' || b == b'\n') {
                candidates.push(i);
            }
        }
        let mut chosen: Vec<usize> = spots.iter().map(|s| candidates[s.index(candidates.len())]).collect();
        chosen.sort_unstable();
        chosen.dedup();
        let mut text = file.to_owned();
        for (n, &at) in chosen.iter().enumerate().rev() {
            text.insert_str(at, &format!(" // note {n}\n"));
        }
        let once = format_text("f.tool", &text).unwrap();
        let twice = format_text("f.tool", &once).unwrap();
        prop_assert_eq!(&once, &twice);
        let mut before = comment_lines(&text);
        let mut after = comment_lines(&once);
        before.sort();
        after.sort();
        prop_assert_eq!(before, after);
        prop_assert_eq!(
            model_without_locations(".", "f.tool", &text),
            model_without_locations(".", "f.tool", &once)
        );
    }
}
