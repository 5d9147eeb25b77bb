//! The Rust backend: the model → one file of Rust (`tools.rs`), emitted
//! with `quote!` and formatted with prettyplease. Used by
//! [`crate::generate`]; docs/rust.md describes what it emits.

mod context;
mod docs;
mod emit_catalogue;
mod emit_macro;
mod emit_tagged;
mod emit_tools;
mod emit_types;
mod emit_validate;
mod layout;
pub(crate) mod names;
mod values;

use std::path::PathBuf;

use proc_macro2::TokenStream;

use crate::model::Model;
use crate::options::Generator;
use crate::output::OutputFile;
use crate::{Options, model};
use context::Cx;

/// True for a Rust keyword (strict or reserved, 2024 edition).
pub(crate) fn is_keyword(word: &str) -> bool {
    names::KEYWORDS.contains(&word)
}

/// Generates the one Rust file of a catalogue.
/// The backend: one file, `<output_name>.rs`.
pub(crate) fn generate(input: &super::Input<'_>) -> Result<Vec<OutputFile>, crate::Diagnostics> {
    Ok(vec![file(input.model, input.options)])
}

fn file(model: &Model, options: &Options) -> OutputFile {
    let cx = Cx::new(model, options);
    let mut sections = vec![header(model, options)];
    let runtime = options.generator == Generator::Runtime;
    if !runtime && let Some(reexport) = emit_tools::builtin_reexport(&cx) {
        sections.push(format(reexport));
    }
    for (index, file) in model.files.iter().enumerate() {
        // The runtime holds the built-in files' items; a catalogue holds
        // everything else and re-exports those.
        if file.builtin != runtime {
            continue;
        }
        let mut items = TokenStream::new();
        for ty in model.types.iter().filter(|t| t.location.file == index) {
            items.extend(emit_types::type_def(&cx, ty));
        }
        for tool in model.tools.iter().filter(|t| t.location.file == index) {
            items.extend(emit_tools::tool(&cx, tool));
        }
        if !items.is_empty() {
            sections.push(format!(
                "// {} (category `{}`)\n\n{}",
                file.path,
                file.category,
                format(items)
            ));
        }
    }
    if !runtime {
        let catalogue = format(emit_catalogue::catalogue(&cx))
            .replacen(
                emit_catalogue::MCP_SCHEMA_PLACEHOLDER,
                &raw_literal(&crate::lang::schema::mcp_schema(model)),
                1,
            )
            .replacen(
                emit_catalogue::METADATA_PLACEHOLDER,
                &raw_literal(&crate::lang::metadata::document(model)),
                1,
            );
        sections.push(format!(
            "// The catalogue: every tool, in declaration order.\n\n{}\n{}",
            catalogue,
            emit_macro::catalogue_macro(&cx, options.export_catalogue),
        ));
    }
    OutputFile {
        path: PathBuf::from(format!("{}.rs", options.output_name)),
        contents: sections.join("\n"),
    }
}

/// A JSON document (the MCP view, the tool metadata) as a raw string
/// literal, pretty-printed so a change to a tool reads as a small diff.
fn raw_literal(document: &serde_json::Value) -> String {
    let json = serde_json::to_string_pretty(document).expect("JSON values serialize");
    // Enough `#`s that no `"#…` inside the JSON ends the literal early.
    let mut hashes = "#".to_owned();
    while json.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{json}\"{hashes}")
}

/// The `@generated` line, what to do instead of editing, and the sources.
fn header(model: &Model, options: &Options) -> String {
    let regenerate = match options.generator {
        Generator::Build => "rebuild",
        Generator::Cli => "run `toolwright generate rust`",
        Generator::Runtime => {
            "run `TOOLWRIGHT_BLESS=1 cargo test -p toolwright-codegen --test runtime_jobs`"
        }
    };
    let mut out = format!("// {}\n", super::header::line(regenerate));
    let runtime = options.generator == Generator::Runtime;
    let files: Vec<&model::FileInfo> = model
        .files
        .iter()
        .filter(|f| !runtime || f.builtin)
        .collect();
    match files.as_slice() {
        [] => out.push_str("// From no .tool file.\n"),
        [one] => out.push_str(&format!("// From {}.\n", one.path)),
        many => {
            out.push_str("// From:\n");
            for file in many {
                out.push_str(&format!("//   {}\n", file.path));
            }
        }
    }
    out
}

/// Formats items with prettyplease, a blank line between top-level items
/// as a person would leave them. Tokens that do not parse would be a bug
/// in this backend; they are written unformatted rather than lost, so
/// rustc points at the problem.
fn format(tokens: TokenStream) -> String {
    match syn::parse2::<syn::File>(tokens.clone()) {
        Ok(file) => file
            .items
            .into_iter()
            .map(|item| {
                let mut one = file_of(item);
                one.attrs.clear();
                prettyplease::unparse(&one)
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Err(e) => format!(
            "// toolwright-codegen could not format this section ({e}); please report it.\n{tokens}\n"
        ),
    }
}

fn file_of(item: syn::Item) -> syn::File {
    syn::File {
        shebang: None,
        frontmatter: None,
        attrs: Vec::new(),
        items: vec![item],
    }
}
