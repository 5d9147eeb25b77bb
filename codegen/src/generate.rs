//! The one pipeline every door goes through: check the catalogue, then emit
//! code. build.rs ([`crate::Builder`]), the CLI and the runtime's own job
//! types adapt input and output around [`generate`]; where they differ,
//! [`Generator`] says how.

use std::fmt;
use std::path::PathBuf;

use crate::{Diagnostics, Model, Sources, check, lang};

/// Which door a generation comes through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Generator {
    /// A build script ([`crate::Builder`]): the whole catalogue, for
    /// `include_tools!()`.
    #[default]
    Build,
    /// `toolwright generate rust`: the same file, telling readers to rerun
    /// the command rather than rebuild.
    Cli,
    /// The runtime's own copy of the built-in job tools' types and markers
    /// (`runtime/src/jobs/types.rs`): only items of built-in files, and no
    /// catalogue (no `ToolRequest`, `ToolCatalogue` or macro).
    Runtime,
}

/// How to generate. `#[non_exhaustive]`: start from `Options::default()`
/// and set fields.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Which door this is.
    pub generator: Generator,
    /// The path generated code reaches the runtime by.
    pub runtime_crate: RuntimeCrate,
    /// The output's file name without `.rs`: `tools` gives `tools.rs`.
    pub output_name: String,
}

impl Default for Options {
    fn default() -> Self {
        Options::new(Generator::Build)
    }
}

impl Options {
    /// The defaults for a door: output `tools.rs`, and the runtime at
    /// `::toolwright`, or at `crate` for [`Generator::Runtime`].
    pub fn new(generator: Generator) -> Self {
        Options {
            generator,
            runtime_crate: match generator {
                Generator::Runtime => RuntimeCrate("crate".to_owned()),
                Generator::Build | Generator::Cli => RuntimeCrate::default(),
            },
            output_name: "tools".to_owned(),
        }
    }
}

/// The path of the `toolwright` runtime crate in generated code:
/// `::toolwright` by default, `crate` inside the runtime itself, or the
/// path a user re-exports it under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeCrate(String);

impl RuntimeCrate {
    /// Parses a path such as `toolwright`, `::toolwright`, `crate` or
    /// `::my_facade::toolwright`. A path without a leading `::` or `crate`
    /// gets `::`, so a local module cannot shadow the crate.
    ///
    /// # Errors
    /// When `path` is not a Rust path of plain identifiers.
    pub fn new(path: &str) -> Result<RuntimeCrate, InvalidRuntimeCrate> {
        let trimmed = path.trim();
        let segments = trimmed.strip_prefix("::").unwrap_or(trimmed);
        let valid = !segments.is_empty()
            && segments.split("::").enumerate().all(|(i, s)| {
                let ident = s
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && s != "_";
                let keyword_ok = match s {
                    "crate" | "self" | "super" => i == 0 && !trimmed.starts_with("::"),
                    _ => !crate::lang::rust::is_keyword(s),
                };
                ident && keyword_ok
            });
        if !valid {
            return Err(InvalidRuntimeCrate(path.to_owned()));
        }
        let first = segments.split("::").next().unwrap_or_default();
        Ok(RuntimeCrate(
            if trimmed.starts_with("::") || matches!(first, "crate" | "self" | "super") {
                trimmed.to_owned()
            } else {
                format!("::{trimmed}")
            },
        ))
    }

    /// The path as generated code writes it (`::toolwright`).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for RuntimeCrate {
    fn default() -> Self {
        RuntimeCrate("::toolwright".to_owned())
    }
}

impl fmt::Display for RuntimeCrate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A runtime crate path that is not a Rust path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidRuntimeCrate(pub String);

impl fmt::Display for InvalidRuntimeCrate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a path to the runtime crate; write it as Rust does, e.g. `::toolwright` or `crate`",
            self.0
        )
    }
}

impl std::error::Error for InvalidRuntimeCrate {}

/// One generated file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    /// Where it goes, relative to the output directory (`tools.rs`).
    pub path: PathBuf,
    /// Its text.
    pub contents: String,
}

/// Checks the catalogue and generates Rust from it. Every door (build.rs,
/// the CLI, the runtime's own job types) goes through here.
///
/// # Errors
/// Every diagnostic of the catalogue, when it has any, or of a schema that
/// the JSON Schema metaschema rejects (the catalogue embeds its MCP schema).
pub fn generate(sources: &Sources, options: &Options) -> Result<Vec<OutputFile>, Diagnostics> {
    let model = check(sources)?;
    lang::schema::validate(&model, sources)?;
    Ok(rust_files(&model, options))
}

/// The Rust files of a checked catalogue.
pub(crate) fn rust_files(model: &Model, options: &Options) -> Vec<OutputFile> {
    vec![lang::rust::generate(model, options)]
}

/// A set of files for frontends, generated beside the Rust: what
/// `generated/` holds for the reference catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Binding {
    /// `schemas/`: the MCP `tools` array and JSON Schema 2020-12 per type.
    Schemas,
    /// `typescript/`: an npm package with the types, a tool registry, the
    /// TOON codec and a typed client.
    TypeScript,
    /// `python/`: a pip package with pydantic models, a tool registry and
    /// the TOON codec.
    Python,
}

impl Binding {
    /// Every binding, in the order they are generated.
    pub const ALL: [Binding; 3] = [Binding::Schemas, Binding::TypeScript, Binding::Python];

    /// The directory the binding's files go in, relative to the output
    /// directory: `schemas`, `typescript`, `python`.
    pub fn dir(self) -> &'static str {
        match self {
            Binding::Schemas => "schemas",
            Binding::TypeScript => "typescript",
            Binding::Python => "python",
        }
    }
}

/// Checks the catalogue and generates the given bindings. Each file's path
/// starts with its binding's [`Binding::dir`].
///
/// # Errors
/// Every diagnostic of the catalogue, when it has any, or of a schema that
/// the JSON Schema metaschema rejects.
pub fn generate_bindings(
    sources: &Sources,
    bindings: &[Binding],
) -> Result<Vec<OutputFile>, Diagnostics> {
    binding_files(&check(sources)?, sources, bindings)
}

/// Checks the catalogue and renders its documentation: `index.html`, a
/// self-contained page (search, a section per tool, examples), and
/// `catalogue.md`, the same as Markdown.
///
/// # Errors
/// Every diagnostic of the catalogue, when it has any.
pub fn generate_docs(sources: &Sources) -> Result<Vec<OutputFile>, Diagnostics> {
    Ok(lang::docs::site(&check(sources)?))
}

/// The page a Toolwright server shows at `GET /`: the documentation page
/// without data, which reads the server's `api/tools` and adds a *try it*
/// form per tool and a live feed of calls.
pub fn served_docs_page() -> String {
    lang::docs::served_page()
}

/// The binding files of a checked catalogue, each under its directory.
pub(crate) fn binding_files(
    model: &Model,
    sources: &Sources,
    bindings: &[Binding],
) -> Result<Vec<OutputFile>, Diagnostics> {
    let mut out = Vec::new();
    for &binding in bindings {
        let files = match binding {
            Binding::Schemas => lang::schema::generate(model, sources)?,
            Binding::TypeScript => lang::typescript::generate(model),
            Binding::Python => lang::python::generate(model),
        };
        let regenerate = format!("run `toolwright generate {}`", binding.dir());
        out.extend(files.into_iter().map(|mut f| {
            lang::header::stamp(&mut f, &regenerate);
            OutputFile {
                path: std::path::Path::new(binding.dir()).join(f.path),
                contents: f.contents,
            }
        }));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::RuntimeCrate;

    #[test]
    fn runtime_crate_paths_are_absolute_or_crate() {
        let ok = |p: &str| RuntimeCrate::new(p).map(|r| r.as_str().to_owned());
        assert_eq!(ok("toolwright").unwrap(), "::toolwright");
        assert_eq!(ok("::toolwright").unwrap(), "::toolwright");
        assert_eq!(ok("crate").unwrap(), "crate");
        assert_eq!(ok("facade::toolwright").unwrap(), "::facade::toolwright");
        assert_eq!(ok("crate::rt").unwrap(), "crate::rt");
        for bad in [
            "",
            "::",
            "tool-wright",
            "a::::b",
            "::crate",
            "type",
            "a::crate",
            "1x",
            "_",
        ] {
            assert!(RuntimeCrate::new(bad).is_err(), "{bad}");
        }
    }
}
