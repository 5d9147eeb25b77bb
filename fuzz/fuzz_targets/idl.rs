//! Any bytes as a `.tool` file through the whole frontend (lexer, parser,
//! checker, diagnostics, formatter): errors, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwright_codegen::{ColorChoice, Sources};

fuzz_target!(|data: &[u8]| {
    let mut sources = Sources::new();
    let file = sources.add("fuzz.tool", data.to_vec());
    if let Err(diagnostics) = toolwright_codegen::check(&sources) {
        let _ = diagnostics.render(&sources, ColorChoice::Never);
        let _ = diagnostics.render_json(&sources);
    }
    let _ = toolwright_codegen::format_file(&sources, file);
});
