//! Generates the reference catalogue, and each Rust fixture of the code
//! generator as a catalogue of its own, so that clippy and rustdoc see every
//! shape the generator emits.

use toolwright_codegen::Side;
use toolwright_codegen::diag::Code;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The reference catalogue must stay warning-free.
    toolwright_codegen::Builder::new()
        .deny_warnings(true)
        .compile(["../../idl"])?;
    // And as a server crate and a client crate generate it: each with only
    // the serde derives its side needs.
    for (side, name) in [(Side::Server, "server_side"), (Side::Client, "client_side")] {
        toolwright_codegen::Builder::new()
            .side(side)
            .output_name(name)
            .compile(["../../idl"])?;
    }
    let fixtures = std::path::Path::new("../../codegen/tests/fixtures/rust");
    let mut names: Vec<_> = std::fs::read_dir(fixtures)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    names.sort();
    for path in names {
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        // As the snapshots in codegen/tests/rust.rs show them: without the
        // job tools, which the reference catalogue has.
        // Fixtures show shapes, not documented catalogues: their warnings
        // (missing docs, types no tool uses) are beside the point.
        toolwright_codegen::Builder::new()
            .output_name(stem)
            .job_tools(false)
            .allow(Code::MissingDocs)
            .allow(Code::UnusedType)
            .allow(Code::AsyncWithoutErrors)
            .allow(Code::DeprecatedUse)
            .compile([&path])?;
    }
    println!("cargo:rerun-if-changed={}", fixtures.display());
    Ok(())
}
