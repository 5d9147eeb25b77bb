//! The Rust backend: the model → one file of Rust (`tools.rs`), emitted
//! with `quote!` and formatted with prettyplease. Used by
//! [`crate::generate`]; docs/rust.md describes what it emits.

mod constrained;
mod context;
mod docs;
mod emit_catalogue;
mod emit_macro;
mod emit_tagged;
mod emit_tools;
mod emit_types;
mod emit_validate;
pub(crate) mod ident;
mod layout;
pub(crate) mod names;
mod schemars;
mod values;

use std::path::PathBuf;

use proc_macro2::TokenStream;

use crate::model::Model;
use crate::options::Generator;
use crate::output::OutputFile;
use crate::{Options, model};
use context::Cx;

/// Generates the one Rust file of a catalogue.
/// The backend: one file, `<output_name>.rs`.
pub(crate) fn generate(input: &super::Input<'_>) -> Result<Vec<OutputFile>, crate::Diagnostics> {
    Ok(vec![file(input)])
}

fn file(input: &super::Input<'_>) -> OutputFile {
    let (model, options) = (input.model, input.options);
    let cx = Cx::new(model, options);
    let mut sections = vec![header(model, options)];
    let runtime = options.generator == Generator::Runtime;
    if !runtime && let Some(reexport) = emit_tools::builtin_reexport(&cx) {
        sections.push(format(reexport));
    }
    // The runtime holds the built-in files' items; a catalogue holds
    // everything else and re-exports those.
    let files: Vec<usize> = (0..model.files.len())
        .filter(|&index| model.files[index].builtin == runtime)
        .collect();
    sections.extend(file_sections(model, options, &files));
    if !runtime {
        let mut catalogue = format(emit_catalogue::catalogue(&cx))
            .replacen(
                emit_catalogue::MCP_SCHEMA_PLACEHOLDER,
                &raw_literal(input.mcp_schema()),
                1,
            )
            .replacen(
                emit_catalogue::METADATA_PLACEHOLDER,
                &raw_literal(input.metadata()),
                1,
            );
        // Machine-read JSON, so compact: it is the largest text the
        // catalogue carries.
        for profile in crate::Profile::ALL {
            let json =
                serde_json::to_string(input.profile(profile)).expect("JSON values serialize");
            catalogue = catalogue.replacen(
                &emit_catalogue::profile_placeholder(profile),
                &raw_str(&json),
                1,
            );
        }
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

/// The section of each of `files` (indices into the model's files) that
/// declares anything, in order. Formatting is most of this backend's
/// time, so the files are shared among as many threads as the machine
/// runs; `proc_macro2`'s tokens cannot cross threads, so each thread
/// emits its own files with a context of its own.
fn file_sections(model: &Model, options: &Options, files: &[usize]) -> Vec<String> {
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(files.len());
    let mut types: Vec<Vec<&model::TypeDef>> = vec![Vec::new(); model.files.len()];
    for ty in &model.types {
        types[ty.location.file].push(ty);
    }
    let mut tools: Vec<Vec<&model::Tool>> = vec![Vec::new(); model.files.len()];
    for tool in &model.tools {
        tools[tool.location.file].push(tool);
    }
    let section = |cx: &Cx<'_>, index: usize| {
        let mut items = TokenStream::new();
        for ty in &types[index] {
            items.extend(emit_types::type_def(cx, ty));
        }
        for tool in &tools[index] {
            items.extend(emit_tools::tool(cx, tool));
        }
        let file = &model.files[index];
        (!items.is_empty()).then(|| {
            format!(
                "// {} (category `{}`)\n\n{}",
                file.path,
                file.category,
                format(items)
            )
        })
    };
    if threads <= 1 {
        let cx = Cx::new(model, options);
        return files.iter().filter_map(|&i| section(&cx, i)).collect();
    }
    // Thread `k` takes every `threads`-th file from the `k`-th, which
    // spreads big and small files evenly enough.
    let mut done: Vec<(usize, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|k| {
                let section = &section;
                scope.spawn(move || {
                    let cx = Cx::new(model, options);
                    files
                        .iter()
                        .enumerate()
                        .skip(k)
                        .step_by(threads)
                        .filter_map(|(at, &i)| section(&cx, i).map(|s| (at, s)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers.into_iter().flat_map(super::joined).collect()
    });
    done.sort_unstable_by_key(|(at, _)| *at);
    done.into_iter().map(|(_, s)| s).collect()
}

/// A JSON document (the MCP view, the tool metadata) as a raw string
/// literal, pretty-printed so a change to a tool reads as a small diff.
fn raw_literal(document: &serde_json::Value) -> String {
    raw_str(&serde_json::to_string_pretty(document).expect("JSON values serialize"))
}

/// `json` as a raw string literal.
pub(super) fn raw_str(json: &str) -> String {
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
