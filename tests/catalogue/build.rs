//! Generates the reference catalogue, and each Rust fixture of the code
//! generator as a catalogue of its own, so that clippy and rustdoc see every
//! shape the generator emits.

use toolwright_codegen::Side;
use toolwright_codegen::diag::Code;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The reference catalogue must stay warning-free.
    // Its types implement `schemars::JsonSchema` under the crate's feature
    // `schemars` (on by default), for tests/schemars.rs.
    toolwright_codegen::Builder::new()
        .deny_warnings(true)
        .schemars_feature("schemars")
        .compile(["../../idl"])?;
    // And as a server crate and a client crate generate it: each with only
    // the serde derives its side needs.
    for (side, name) in [(Side::Server, "server_side"), (Side::Client, "client_side")] {
        toolwright_codegen::Builder::new()
            .side(side)
            .schemars_feature("schemars")
            .output_name(name)
            .compile(["../../idl"])?;
    }
    request_schemas()?;
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
            .schemars_feature("schemars")
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

/// `request_schemas.rs`: each tool's name and the schemars schema of its
/// request type, reached through its marker (`<AbcTransposeTool as
/// Tool>::Request`), for tests/schemars.rs. Tools without a request are
/// left out.
fn request_schemas() -> Result<(), Box<dyn std::error::Error>> {
    use toolwright_codegen::model::ToolKind;
    let mut sources = toolwright_codegen::Sources::new();
    sources.add_job_tools();
    sources.load_paths(&["../../idl"])?;
    let model = toolwright_codegen::check(&sources).map_err(|d| format!("{d:?}"))?;
    let mut entries = String::new();
    for tool in &model.tools {
        if let ToolKind::Single(endpoint) = &tool.kind
            && endpoint.request.is_none()
        {
            continue;
        }
        let marker: String = tool
            .name
            .split('_')
            .map(|part| {
                let mut chars = part.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_uppercase().chain(chars).collect()
                })
            })
            .collect();
        entries.push_str(&format!(
            "        (\"{}\", ::schemars::schema_for!(<{marker}Tool as ::toolwright::Tool>::Request)),\n",
            tool.name
        ));
    }
    let text = format!(
        "/// Each tool with a request: its name and its request type's schema.\n\
         pub fn request_schemas() -> ::std::vec::Vec<(&'static str, ::schemars::Schema)> {{\n    \
         ::std::vec![\n{entries}    ]\n}}\n"
    );
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR")?).join("request_schemas.rs");
    if std::fs::read_to_string(&out).ok().as_deref() != Some(text.as_str()) {
        std::fs::write(out, text)?;
    }
    Ok(())
}
