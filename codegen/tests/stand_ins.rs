//! The catalogues the macro and runtime tests compile against are the
//! generator's own output, checked in: `macros/tests/support/catalogue.rs`
//! and `runtime/tests/support/catalogue.rs`, each generated from the
//! `catalogue.tool` beside it (those crates' tests cannot run the
//! generator: the runtime is a dependency of it, and the macros' tests
//! would rebuild it). This test regenerates the files and fails on drift;
//! run with `TOOLWRIGHT_BLESS=1` to rewrite them, then review the diff.
//! The runtime's copy is a module of its tests, so it is passed through
//! rustfmt for `cargo fmt --check`.

mod common;

use common::{root, rustfmt};
use toolwright_codegen::{Generator, Options, Sources, generate};

/// The generated Rust for one `.tool` file (and the job tools), named as
/// the CLI names it from the workspace root.
fn generated(tool: &str) -> String {
    let mut sources = Sources::new();
    sources.add_job_tools();
    sources.add_at(
        tool,
        root().join(tool),
        std::fs::read(root().join(tool)).unwrap(),
    );
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

fn fresh_or_bless(rust: &str, fresh: String) {
    let path = root().join(rust);
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current == fresh {
        return;
    }
    if std::env::var_os("TOOLWRIGHT_BLESS").is_some() {
        std::fs::write(&path, fresh).unwrap();
        return;
    }
    panic!("{rust} is stale; rerun with TOOLWRIGHT_BLESS=1 and review the diff");
}

#[test]
fn the_macro_tests_catalogue_is_fresh() {
    fresh_or_bless(
        "macros/tests/support/catalogue.rs",
        generated("macros/tests/support/catalogue.tool"),
    );
}

#[test]
fn the_macro_tests_entries_catalogue_is_fresh() {
    fresh_or_bless(
        "macros/tests/support/entries.rs",
        generated("macros/tests/support/entries.tool"),
    );
}

#[test]
fn the_runtime_tests_apps_catalogue_is_fresh() {
    fresh_or_bless(
        "runtime/tests/support/apps.rs",
        generated("runtime/tests/support/apps.tool"),
    );
}

#[test]
fn the_runtime_tests_catalogue_is_fresh() {
    fresh_or_bless(
        "runtime/tests/support/catalogue.rs",
        rustfmt(&generated("runtime/tests/support/catalogue.tool")),
    );
}
