//! Checks the catalogue in `../idl` and generates its Rust into OUT_DIR:
//! request and response types, codecs, schemas, and the description
//! `#[tools]` binds handlers by. A mistake in a `.tool` file fails the
//! build with file:line:col and a hint, as `toolwright check idl` prints
//! it.
use toolwright_codegen::{Builder, Side};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    Builder::new()
        // The server crate binds its handlers to this catalogue.
        .export_catalogue(true)
        // It serves the tools: requests decode, responses encode; no serde
        // derive that a server never calls (`Side::Both` for a crate that
        // also calls them, or keeps jobs in a durable store).
        .side(Side::Server)
        .compile(["../idl"])?;
    Ok(())
}
