//! Generation in process, as a build script runs it: the Rust alone (what
//! `Builder::compile` does by default), and every backend at once (the
//! Rust, the three bindings and the documentation site, in one
//! `Builder` run). Files whose bytes are unchanged are not rewritten, so
//! after the first iteration this is reading, checking, generating and
//! comparing.
//!
//! `cargo bench -p toolwright-codegen --bench generate` times the
//! reference catalogue; `scripts/bench-check` points
//! `TOOLWRIGHT_BENCH_CATALOGUE` at a synthetic one of 1,000 tools.

use std::path::PathBuf;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use toolwright_codegen::{Binding, Builder};

fn catalogue() -> PathBuf {
    std::env::var_os("TOOLWRIGHT_BENCH_CATALOGUE").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../idl"),
        PathBuf::from,
    )
}

fn generate(c: &mut Criterion) {
    let idl = catalogue();
    let out = tempfile::tempdir().expect("a temporary directory");
    let mut group = c.benchmark_group("generate");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(15));
    group.bench_function("rust", |b| {
        let mut builder = Builder::new();
        builder
            .out_dir(out.path().join("rust"))
            .emit_rerun_if_changed(false);
        b.iter(|| builder.compile([&idl]).expect("the catalogue generates"));
    });
    group.bench_function("all backends", |b| {
        let mut builder = Builder::new();
        builder
            .out_dir(out.path().join("all"))
            .bindings(out.path().join("all"), &Binding::ALL)
            .docs(out.path().join("all/docs"))
            .emit_rerun_if_changed(false);
        b.iter(|| builder.compile([&idl]).expect("the catalogue generates"));
    });
    group.finish();
}

criterion_group!(benches, generate);
criterion_main!(benches);
