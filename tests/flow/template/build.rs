//! Generates the shop catalogue into OUT_DIR.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    toolwright_codegen::Builder::new().compile(["idl"])?;
    Ok(())
}
