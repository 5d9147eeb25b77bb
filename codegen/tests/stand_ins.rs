//! Catalogues the macro tests compile against are the generator's own
//! output, checked in: `macros/tests/support/catalogue.rs` is generated
//! from `catalogue.tool` beside it (the macros crate cannot depend on the
//! generator, which would make every macro test rebuild it). This test
//! regenerates the file and fails on drift; run with `TOOLWRIGHT_BLESS=1`
//! to rewrite it, then review the diff.

use std::path::{Path, PathBuf};

use toolwright_codegen::{Generator, Options, Sources, generate};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The generated Rust for one `.tool` file (and the job tools), named as
/// the CLI names it from the workspace root.
fn generated(tool: &str) -> String {
    let mut sources = Sources::new();
    sources.add_job_tools();
    sources.add(tool, std::fs::read(root().join(tool)).unwrap());
    let files = generate(&sources, &Options::new(Generator::Cli)).unwrap_or_else(|d| {
        panic!(
            "{}",
            d.render(&sources, toolwright_codegen::ColorChoice::Never)
        )
    });
    let text = files.into_iter().next().unwrap().contents;
    text.replacen(
        "run `toolwright generate rust`",
        "run `TOOLWRIGHT_BLESS=1 cargo test -p toolwright-codegen --test stand_ins`",
        1,
    )
}

#[test]
fn the_macro_tests_catalogue_is_fresh() {
    let path = root().join("macros/tests/support/catalogue.rs");
    let fresh = generated("macros/tests/support/catalogue.tool");
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current == fresh {
        return;
    }
    if std::env::var_os("TOOLWRIGHT_BLESS").is_some() {
        std::fs::write(&path, fresh).unwrap();
        return;
    }
    panic!(
        "macros/tests/support/catalogue.rs is stale; rerun with TOOLWRIGHT_BLESS=1 and review the diff"
    );
}
