//! Generates the conformance catalogue's Rust surface into OUT_DIR.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    toolwright_codegen::Builder::new()
        .deny_warnings(true)
        .compile(["idl"])?;
    Ok(())
}
