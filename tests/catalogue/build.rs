//! Generates the reference catalogue, and each Rust fixture of the code
//! generator as a catalogue of its own, so that clippy and rustdoc see every
//! shape the generator emits.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    toolwright_codegen::Builder::new().compile(["../../idl"])?;
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
        toolwright_codegen::Builder::new()
            .output_name(stem)
            .job_tools(false)
            .compile([&path])?;
    }
    println!("cargo:rerun-if-changed={}", fixtures.display());
    Ok(())
}
