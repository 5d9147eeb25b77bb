//! Generates the reference catalogue's Rust surface into OUT_DIR. The
//! frontend bindings in `generated/` are kept fresh by the CLI (`toolwright
//! generate bindings idl --out generated`), which the test command checks:
//! a build script writes only into OUT_DIR.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    toolwright_codegen::Builder::new().compile(["../../idl"])?;
    Ok(())
}
