//! The runtime's job tool types (`runtime/src/jobs/types.rs`) are generated
//! from the built-in `codegen/src/builtin/jobs.tool` by the same backend as
//! every catalogue, and checked in. This test regenerates them and fails on
//! drift; run with `TOOLWRIGHT_BLESS=1` to rewrite the file, then review
//! the diff.
//!
//! The checked-in copy is passed through rustfmt, like every other file of
//! the runtime, so that `cargo fmt --check` holds for the workspace
//! (prettyplease's layout differs from rustfmt's in small ways).

mod common;

use std::path::Path;

use common::rustfmt;
use toolwright_codegen::{Generator, Options, Sources, generate};

fn fresh() -> String {
    let mut sources = Sources::new();
    sources.add_job_tools();
    // The runtime's feature `schemars` gives them `JsonSchema`, for
    // catalogues whose own types derive it.
    let mut options = Options::new(Generator::Runtime);
    options.schemars_feature = Some("schemars".to_owned());
    let files = generate(&sources, &options).unwrap_or_else(|d| {
        panic!(
            "{}",
            d.render(&sources, toolwright_codegen::ColorChoice::Never)
        )
    });
    assert_eq!(files.len(), 1);
    files
        .into_iter()
        .next()
        .map(|f| f.contents)
        .unwrap_or_default()
}

#[test]
fn runtime_job_types_are_fresh() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/src/jobs/types.rs");
    let fresh = rustfmt(&fresh());
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current == fresh {
        return;
    }
    if std::env::var_os("TOOLWRIGHT_BLESS").is_some() {
        std::fs::write(&path, fresh).unwrap();
        return;
    }
    panic!("runtime/src/jobs/types.rs is stale; rerun with TOOLWRIGHT_BLESS=1 and review the diff");
}

#[test]
fn runtime_copy_has_only_the_job_tools_items() {
    let text = fresh();
    for name in [
        "pub struct JobRef",
        "pub enum JobState",
        "pub enum PollMode",
        "pub struct JobInfo",
        "pub struct JobCounts",
        "pub struct JobListRequest",
        "pub struct JobListResponse",
        "pub struct JobPollRequest",
        "pub struct JobPollResponse",
        "pub struct JobCancelResponse",
        "pub enum JobError",
        "pub struct JobStatusTool;",
        "pub struct JobListTool;",
        "pub struct JobPollTool;",
        "pub struct JobCancelTool;",
    ] {
        assert!(text.contains(name), "{name} missing");
    }
    for absent in [
        "ToolRequest",
        "ToolCatalogue",
        "macro_rules!",
        "::toolwright::",
    ] {
        assert!(!text.contains(absent), "{absent} present");
    }
    syn::parse_file(&text).expect("parses");
}
