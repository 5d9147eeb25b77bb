//! Helpers several test binaries share. Each binary uses a part.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use toolwright_codegen::{Binding, ColorChoice, Sources, generate_bindings};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// `text` as `cargo fmt` leaves it.
pub fn rustfmt(text: &str) -> String {
    let mut child = Command::new(std::env::var("RUSTFMT").unwrap_or_else(|_| "rustfmt".to_owned()))
        .args(["--edition", "2024", "--emit", "stdout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("rustfmt runs (install it with `rustup component add rustfmt`)");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("rustfmt reads");
    let out = child.wait_with_output().expect("rustfmt finishes");
    assert!(out.status.success(), "rustfmt failed");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// For each feature fixture (`fixtures/rust/*.tool`), its stem and the
/// files of `binding` whose names end with one of `shaped` (the files the
/// catalogue shapes; the rest are helpers every package has byte for
/// byte), run together: what a test snapshots, under its own name.
pub fn feature_fixture_texts(binding: Binding, shaped: &[&str]) -> Vec<(String, String)> {
    let dir = root().join("codegen/tests/fixtures/rust");
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tool"))
        .collect();
    fixtures.sort();
    assert!(fixtures.len() >= 9, "one fixture per feature");
    let mut texts = Vec::new();
    for path in fixtures {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let mut sources = Sources::new();
        sources.add_at(
            format!("codegen/tests/fixtures/rust/{stem}.tool"),
            &path,
            std::fs::read(&path).unwrap(),
        );
        let files = generate_bindings(&sources, &[binding])
            .unwrap_or_else(|d| panic!("{}", d.render(&sources, ColorChoice::Never)));
        let mut text = String::new();
        for file in files {
            let name = file.path.to_string_lossy().replace('\\', "/");
            if shaped.iter().any(|s| name.ends_with(&format!("/{s}"))) {
                text.push_str(&format!("=== {name}\n{}\n", file.contents));
            }
        }
        texts.push((stem, text));
    }
    texts
}
