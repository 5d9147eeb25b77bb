//! Generates the reference catalogue's Rust surface into OUT_DIR, and keeps
//! the frontend bindings in `generated/` (schemas, TypeScript, Python) in
//! step with `idl/`: files are rewritten only when they change.
use toolwright_codegen::{Binding, Builder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    Builder::new()
        .bindings("../../generated", &Binding::ALL)
        .compile(["../../idl"])?;
    Ok(())
}
