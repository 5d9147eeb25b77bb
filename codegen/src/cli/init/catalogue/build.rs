//! Checks the catalogue in `../idl` and generates its Rust into OUT_DIR:
//! request and response types, codecs, schemas, and the description
//! `#[tools]` binds handlers by. A mistake in a `.tool` file fails the
//! build with file:line:col and a hint, as `toolwright check idl` prints
//! it.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    toolwright_codegen::Builder::new()
        // The server crate binds its handlers to this catalogue.
        .export_catalogue(true)
        .compile(["../idl"])?;
    Ok(())
}
