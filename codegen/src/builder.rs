//! The build.rs API: [`Builder`] checks `.tool` files and writes the Rust
//! the crate includes with `toolwright::include_tools!()`.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::diag::Code;
use crate::generate::{self, Binding, Generated};
use crate::lang::Target;
use crate::options::{Generator, InvalidRuntimeCrate, Options, RuntimeCrate, Side};
use crate::output::OutputFile;
use crate::{ColorChoice, LoadError, Sources};

/// Generates a crate's Rust from its `.tool` files, in a build script.
///
/// ```no_run
/// // build.rs
/// fn main() -> Result<(), Box<dyn std::error::Error>> {
///     toolwright_codegen::Builder::new().compile(["idl"])?;
///     Ok(())
/// }
/// ```
///
/// and in the crate, `toolwright::include_tools!();`. [`Builder::compile`]
/// prints the same diagnostics as `toolwright check` when the catalogue has
/// errors, and tells Cargo which files and directories to watch.
#[derive(Clone, Debug)]
pub struct Builder {
    out_dir: Option<PathBuf>,
    output_name: String,
    runtime_crate: String,
    job_tools: bool,
    rerun_if_changed: bool,
    bindings: Option<(PathBuf, Vec<Binding>)>,
    docs: Option<PathBuf>,
    deny_warnings: bool,
    allowed: Vec<Code>,
    export_catalogue: bool,
    side: Side,
    clients: crate::Clients,
    schemars_feature: Option<String>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// The defaults: output to `$OUT_DIR/toolwright/tools.rs`, the runtime
    /// at `::toolwright`, the job tools included.
    pub fn new() -> Self {
        Builder {
            out_dir: None,
            output_name: "tools".to_owned(),
            runtime_crate: "::toolwright".to_owned(),
            job_tools: true,
            rerun_if_changed: true,
            bindings: None,
            docs: None,
            deny_warnings: false,
            allowed: Vec::new(),
            export_catalogue: false,
            side: Side::Both,
            clients: crate::Clients::default(),
            schemars_feature: None,
        }
    }

    /// Writes into `dir` instead of `$OUT_DIR/toolwright`.
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Names the output file `<name>.rs` instead of `tools.rs`; include it
    /// with `toolwright::include_tools!("name")`. Two catalogues in one
    /// crate need two names (and two modules to include them in).
    pub fn output_name(&mut self, name: impl Into<String>) -> &mut Self {
        self.output_name = name.into();
        self
    }

    /// The path generated code reaches the runtime by, when the crate
    /// depends on it under another name or through a re-export
    /// (`"::my_sdk::toolwright"`). Default `::toolwright`.
    pub fn runtime_crate(&mut self, path: impl Into<String>) -> &mut Self {
        self.runtime_crate = path.into();
        self
    }

    /// Whether the catalogue includes the built-in job tools (`job_status`,
    /// `job_list`, `job_poll`, `job_cancel`), which the dispatcher answers
    /// itself. Default `true`; without them, jobs cannot be inspected or
    /// cancelled over the wire.
    pub fn job_tools(&mut self, include: bool) -> &mut Self {
        self.job_tools = include;
        self
    }

    /// Lets other crates bind handlers to this catalogue (default `false`):
    /// the layout that keeps a large catalogue's build fast. One crate, the
    /// catalogue crate, includes the generated code at its root and
    /// exports it; the server crate depends on it and binds its handlers
    /// with `#[toolwright::tools(catalogue_crate)]`. Editing a handler
    /// then recompiles only the server crate, never the generated types.
    ///
    /// The catalogue crate binds no handlers itself (Rust refuses to name
    /// an exported macro of the crate it is defined in by path), and
    /// exports one catalogue. The layout is in docs/rust.md; `toolwright
    /// init` creates it.
    ///
    /// ```no_run
    /// // catalogue/build.rs
    /// toolwright_codegen::Builder::new()
    ///     .export_catalogue(true)
    ///     .compile(["../idl"])
    ///     .unwrap();
    /// ```
    pub fn export_catalogue(&mut self, export: bool) -> &mut Self {
        self.export_catalogue = export;
        self
    }

    /// Which way this crate moves the catalogue's values (default
    /// [`Side::Both`]), and so which serde derives its types get. A server
    /// crate says [`Side::Server`]: the types only responses, errors and
    /// chunks hold derive `Serialize` alone, since a server never decodes
    /// them. A client crate says [`Side::Client`]: requests derive only
    /// `Serialize`, the rest only `Deserialize` (typed errors both). Fewer derives mean a
    /// faster build; figures in BENCHMARKS.md.
    ///
    /// ```no_run
    /// // catalogue/build.rs
    /// use toolwright_codegen::{Builder, Side};
    /// Builder::new()
    ///     .export_catalogue(true)
    ///     .side(Side::Server)
    ///     .compile(["../idl"])
    ///     .unwrap();
    /// ```
    pub fn side(&mut self, side: Side) -> &mut Self {
        self.side = side;
        self
    }

    /// Makes every generated type implement `schemars::JsonSchema` when the
    /// crate's feature `name` is on, for crates that describe tools with
    /// schemars as rmcp does (`Parameters<T>`, `Json<T>`). Each type gets
    /// `#[cfg_attr(feature = "<name>", derive(::schemars::JsonSchema))]`
    /// and each constrained field the matching `#[schemars(...)]`
    /// (`@range` → `range`, `@length` → `length`, `@pattern` → `regex`);
    /// docs become descriptions. The crate declares the feature and
    /// depends on `schemars` 1.x itself, and turns on the runtime's
    /// `schemars` feature (for `Bytes` and the job tools' types). Off by
    /// default; without it the generated code has no trace of schemars.
    ///
    /// ```no_run
    /// // build.rs; Cargo.toml has
    /// // [features] schemars = ["dep:schemars", "toolwright/schemars"]
    /// toolwright_codegen::Builder::new()
    ///     .schemars_feature("schemars")
    ///     .compile(["idl"])
    ///     .unwrap();
    /// ```
    pub fn schemars_feature(&mut self, name: impl Into<String>) -> &mut Self {
        self.schemars_feature = Some(name.into());
        self
    }

    /// Checks tool names as clients that put `prefix` before them pass
    /// them on to LLM providers (`TW405`), as `toolwright check
    /// --client-prefix` does: Claude Code, for one, names a server's tools
    /// `mcp__<server>__<tool>`, and providers take at most 64 characters.
    pub fn client_prefix(&mut self, prefix: impl Into<String>) -> &mut Self {
        self.clients.prefix = prefix.into();
        self
    }

    /// The LLM providers whose profiles the catalogue targets, as
    /// `toolwright check --target` sets them: tool names are checked
    /// against their rules only (`TW405`; every provider's by default), and
    /// each request field one of them cannot state faithfully — a map or a
    /// `json` value for OpenAI's strict mode, those, empty structs and
    /// deep recursion for Gemini — draws `TW406` (docs/schemas.md,
    /// "Provider profiles").
    ///
    /// ```no_run
    /// use toolwright_codegen::{Builder, Profile};
    ///
    /// Builder::new()
    ///     .target_profiles([Profile::OpenAi, Profile::Gemini])
    ///     .compile(["../idl"])
    ///     .unwrap();
    /// ```
    pub fn target_profiles(
        &mut self,
        profiles: impl IntoIterator<Item = crate::Profile>,
    ) -> &mut Self {
        self.clients.profiles = profiles.into_iter().collect();
        self
    }

    /// Makes the catalogue's warnings (`TW4xx`) fail the build, as
    /// `toolwright check --deny warnings` does (default `false`: they are
    /// printed as `cargo:warning` lines and the build goes on).
    pub fn deny_warnings(&mut self, deny: bool) -> &mut Self {
        self.deny_warnings = deny;
        self
    }

    /// Stops reporting one warning code, as `toolwright check --allow`.
    pub fn allow(&mut self, code: Code) -> &mut Self {
        self.allowed.push(code);
        self
    }

    /// Whether to print `cargo:rerun-if-changed` lines (default `true`).
    /// Turn it off when calling the builder outside a build script.
    pub fn emit_rerun_if_changed(&mut self, emit: bool) -> &mut Self {
        self.rerun_if_changed = emit;
        self
    }

    /// Also writes frontend bindings (`schemas/`, `typescript/`,
    /// `python/`) into `dir`, keeping them in step with the `.tool` files
    /// on every build: files are written only when their bytes change, and
    /// files a binding's directory holds that the catalogue no longer
    /// produces are removed.
    ///
    /// Cargo asks build scripts to write only into `OUT_DIR`, so give a
    /// directory under it (to embed or package the bindings). Bindings
    /// checked in for frontends are kept fresh by the CLI instead —
    /// `toolwright generate bindings idl --out generated`, with `--check`
    /// in CI — so that a stale copy fails the check rather than being
    /// rewritten by whoever builds next.
    ///
    /// ```no_run
    /// // build.rs
    /// use toolwright_codegen::{Binding, Builder};
    ///
    /// fn main() -> Result<(), Box<dyn std::error::Error>> {
    ///     let out = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
    ///     Builder::new()
    ///         .bindings(out.join("bindings"), &Binding::ALL)
    ///         .compile(["idl"])?;
    ///     Ok(())
    /// }
    /// ```
    pub fn bindings(&mut self, dir: impl Into<PathBuf>, which: &[Binding]) -> &mut Self {
        self.bindings = Some((dir.into(), which.to_vec()));
        self
    }

    /// Also writes the catalogue's documentation into `dir`, as `toolwright
    /// docs` does: `index.html` (one self-contained page) and
    /// `catalogue.md`, only when their bytes change.
    pub fn docs(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.docs = Some(dir.into());
        self
    }

    /// Reads the `.tool` files at `paths` (files, or directories searched
    /// recursively), checks them, and writes the generated Rust, only when
    /// its bytes change.
    ///
    /// ```
    /// # let scratch = tempfile::tempdir()?;
    /// # let dir = scratch.path();
    /// let idl = dir.join("math.tool");
    /// std::fs::write(&idl, "tool add { timing sync request { a: i64, b: i64 } response { sum: i64 } }")?;
    /// toolwright_codegen::Builder::new()
    ///     .out_dir(&dir)
    ///     .emit_rerun_if_changed(false)
    ///     .compile([&idl])?;
    /// assert!(std::fs::read_to_string(dir.join("tools.rs"))?.contains("pub struct AddTool;"));
    ///
    /// // A mistake is printed to stderr, as `toolwright check` prints it.
    /// std::fs::write(&idl, "tool add { timing snyc }")?;
    /// let error = toolwright_codegen::Builder::new()
    ///     .out_dir(&dir)
    ///     .emit_rerun_if_changed(false)
    ///     .compile([&idl])
    ///     .unwrap_err();
    /// assert_eq!(error.to_string(), "the .tool files have 1 problem (printed above)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// When a path cannot be read, the catalogue has errors (printed to
    /// stderr first), the runtime crate path is not a path, `OUT_DIR` is not
    /// set and no [`Builder::out_dir`] was given, or the output cannot be
    /// written.
    pub fn compile<P: AsRef<Path>>(
        &self,
        paths: impl IntoIterator<Item = P>,
    ) -> Result<(), BuildError> {
        let paths: Vec<PathBuf> = paths.into_iter().map(|p| p.as_ref().to_owned()).collect();
        let mut watched: BTreeSet<PathBuf> = paths.iter().cloned().collect();
        let result = self.compile_watching(&paths, &mut watched);
        if self.rerun_if_changed {
            // Even after a failure: fixing a file or creating a missing
            // directory must rerun the build script.
            for path in &watched {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        result
    }

    fn compile_watching(
        &self,
        paths: &[PathBuf],
        watched: &mut BTreeSet<PathBuf>,
    ) -> Result<(), BuildError> {
        let runtime_crate =
            RuntimeCrate::new(&self.runtime_crate).map_err(BuildError::RuntimeCrate)?;
        let mut sources = Sources::new();
        if self.job_tools {
            sources.add_job_tools();
        }
        let loaded = sources.load_paths(paths);
        watched.extend(sources.dirs().iter().cloned());
        watched.extend(
            sources
                .iter()
                .filter_map(|(_, f)| f.path().map(Path::to_owned)),
        );
        loaded.map_err(BuildError::Load)?;

        let options = Options {
            generator: Generator::Build,
            runtime_crate,
            output_name: self.output_name.clone(),
            export_catalogue: self.export_catalogue,
            side: self.side,
            clients: self.clients.clone(),
            schemars_feature: self.schemars_feature.clone(),
        };
        let report = |diagnostics: crate::Diagnostics| {
            // Build scripts' output is captured into a log, not a terminal.
            let report = diagnostics.report(&sources, ColorChoice::Never);
            eprint!("{report}");
            BuildError::Diagnostics {
                count: diagnostics.len(),
                report,
            }
        };
        let mut targets = vec![Target::Rust];
        if let Some((_, which)) = &self.bindings {
            targets.extend(which.iter().map(|b| b.target()));
        }
        if self.docs.is_some() {
            targets.push(Target::Docs);
        }
        let Generated {
            files,
            mut warnings,
            inputs,
        } = generate::run(&sources, &options, &targets).map_err(report)?;
        // A hand-written app's HTML is embedded: editing it reruns the
        // build.
        watched.extend(inputs);
        warnings.retain(|d| !self.allowed.contains(&d.code));
        if !warnings.is_empty() {
            if self.deny_warnings {
                return Err(report(warnings));
            }
            // The full report goes to the build log; cargo shows each
            // `cargo:warning` line to the user.
            eprint!("{}", warnings.report(&sources, ColorChoice::Never));
            for line in cargo_warnings(&warnings, &sources) {
                println!("cargo:warning={line}");
            }
        }
        let write = |dir: &Path, files: &[OutputFile], owned: &[PathBuf]| {
            crate::output::plan(dir, files, owned)
                .and_then(|plan| plan.apply())
                .map_err(|e| BuildError::Write {
                    path: e.path,
                    source: e.source,
                })
        };
        let mut rust = Vec::new();
        let mut bindings = Vec::new();
        for (target, files) in files {
            match target {
                Target::Rust => rust = files,
                Target::Docs => {
                    if let Some(dir) = &self.docs {
                        write(dir, &files, &[])?;
                    }
                }
                _ => bindings.extend(files),
            }
        }
        if let Some((dir, which)) = &self.bindings {
            let owned: Vec<PathBuf> = which.iter().map(|b| PathBuf::from(b.dir())).collect();
            write(dir, &bindings, &owned)?;
        }

        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(|d| PathBuf::from(d).join("toolwright"))
                .ok_or(BuildError::NoOutDir)?,
        };
        std::fs::create_dir_all(&out_dir).map_err(|source| BuildError::Write {
            path: out_dir.clone(),
            source,
        })?;
        for file in rust {
            let path = out_dir.join(&file.path);
            crate::output::write_if_changed(&path, file.contents.as_bytes())
                .map_err(|source| BuildError::Write { path, source })?;
        }
        Ok(())
    }
}

/// Why [`Builder::compile`] failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// A path could not be read, or a directory held no `.tool` file.
    Load(LoadError),
    /// The catalogue has errors. They were printed to stderr, rendered as
    /// `toolwright check` renders them; `report` holds the same text.
    Diagnostics {
        /// How many.
        count: usize,
        /// Every diagnostic, rendered without colour.
        report: String,
    },
    /// [`Builder::runtime_crate`] was given something that is not a path.
    RuntimeCrate(InvalidRuntimeCrate),
    /// `OUT_DIR` is not set (this is not a build script) and no
    /// [`Builder::out_dir`] was given.
    NoOutDir,
    /// The output could not be written.
    Write {
        /// The file or directory.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Load(e) => e.fmt(f),
            BuildError::Diagnostics { count, .. } => write!(
                f,
                "the .tool files have {count} problem{} (printed above)",
                if *count == 1 { "" } else { "s" }
            ),
            BuildError::RuntimeCrate(e) => e.fmt(f),
            BuildError::NoOutDir => f.write_str(
                "OUT_DIR is not set: call the builder from a build script, or give it `out_dir`",
            ),
            BuildError::Write { path, source } => {
                write!(f, "cannot write `{}`: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildError::Load(e) => Some(e),
            BuildError::RuntimeCrate(e) => Some(e),
            BuildError::Write { source, .. } => Some(source),
            BuildError::Diagnostics { .. } | BuildError::NoOutDir => None,
        }
    }
}

/// The `cargo:warning` lines for a catalogue's warnings: one per warning,
/// file:line:col first, at most ten and then a count. Cargo shows them on
/// every build of a local crate, so a long list would bury the build.
fn cargo_warnings(warnings: &crate::Diagnostics, sources: &Sources) -> Vec<String> {
    const SHOWN: usize = 10;
    let mut lines: Vec<String> = warnings
        .iter()
        .take(SHOWN)
        .map(|d| {
            let at = sources.location(d.primary.span);
            format!(
                "{}:{}:{}: {}[{}]: {} (`toolwright explain {}`)",
                sources.get(d.primary.span.file).name(),
                at.line,
                at.column,
                d.severity.as_str(),
                d.code.as_str(),
                d.message,
                d.code.as_str()
            )
        })
        .collect();
    if warnings.len() > SHOWN {
        lines.push(format!(
            "{} more warnings; `toolwright check` lists them all",
            warnings.len() - SHOWN
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::{Path, PathBuf};

    use super::{BuildError, Builder};

    /// A directory of its own, removed when the test ends.
    fn scratch(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("toolwright-builder-{name}-"))
            .tempdir()
            .unwrap()
    }

    fn compile(
        builder: &Builder,
        paths: &[PathBuf],
    ) -> (Result<(), BuildError>, BTreeSet<PathBuf>) {
        let mut watched: BTreeSet<PathBuf> = paths.iter().cloned().collect();
        let result = builder.compile_watching(paths, &mut watched);
        (result, watched)
    }

    #[test]
    fn cargo_shows_ten_warnings_then_a_count() {
        let mut sources = crate::Sources::new();
        let fields: String = (0..12).map(|i| format!("f{i}: u32, ")).collect();
        sources.add(
            "a.tool",
            format!("/// A.\ntool a {{ timing sync request {{ {fields}}} }}"),
        );
        let warnings = crate::check_with_warnings(&sources).unwrap().warnings;
        assert_eq!(warnings.len(), 12);
        let lines = super::cargo_warnings(&warnings, &sources);
        assert_eq!(lines.len(), 11);
        assert!(
            lines[0].starts_with("a.tool:2:32: warning[TW403]: field `f0` has no doc comment"),
            "{}",
            lines[0]
        );
        assert_eq!(
            lines[10],
            "2 more warnings; `toolwright check` lists them all"
        );
    }

    #[test]
    fn the_client_prefix_reaches_the_name_check() {
        let scratch = scratch("prefix");
        let dir = scratch.path();
        std::fs::create_dir_all(dir.join("idl")).unwrap();
        // 60 characters: taken alone, refused after any prefix of 5 or more.
        let name = "a".repeat(60);
        let text = format!("/// A.\ntool {name} {{ timing sync }}");
        std::fs::write(dir.join("idl/a.tool"), text).unwrap();
        let paths = [dir.join("idl")];
        let mut builder = Builder::new();
        builder.out_dir(dir.join("out")).deny_warnings(true);
        compile(&builder, &paths).0.unwrap();

        builder.client_prefix("mcp__studio__");
        let Err(BuildError::Diagnostics { count, report }) = compile(&builder, &paths).0 else {
            panic!("the prefixed name is refused");
        };
        assert_eq!(count, 1);
        assert!(report.contains("warning[TW405]"), "{report}");
        assert!(
            report.contains(&format!("`mcp__studio__{name}`")),
            "{report}"
        );
    }

    #[test]
    fn target_profiles_reach_the_profile_check() {
        let scratch = scratch("targets");
        let dir = scratch.path();
        std::fs::create_dir_all(dir.join("idl")).unwrap();
        let text = "/// Tag.\ntool tag {\n    timing sync\n    request {\n        \
                    /// Tags.\n        tags: map<string>,\n    }\n}\n";
        std::fs::write(dir.join("idl/a.tool"), text).unwrap();
        let paths = [dir.join("idl")];
        let mut builder = Builder::new();
        builder.out_dir(dir.join("out")).deny_warnings(true);
        compile(&builder, &paths).0.unwrap();
        builder.target_profiles([crate::Profile::Anthropic]);
        compile(&builder, &paths).0.unwrap();

        builder.target_profiles([crate::Profile::Gemini]);
        let Err(BuildError::Diagnostics { count, report }) = compile(&builder, &paths).0 else {
            panic!("Gemini cannot state the map");
        };
        assert_eq!(count, 1);
        assert!(report.contains("warning[TW406]"), "{report}");
        assert!(report.contains("to Gemini"), "{report}");
    }

    #[test]
    fn warnings_are_printed_and_fail_the_build_only_when_denied() {
        let scratch = scratch("warnings");
        let dir = scratch.path();
        std::fs::create_dir_all(dir.join("idl")).unwrap();
        // An undocumented tool: TW403.
        std::fs::write(dir.join("idl/a.tool"), "tool a { timing sync }").unwrap();
        let paths = [dir.join("idl")];
        let mut builder = Builder::new();
        builder.out_dir(dir.join("out"));
        compile(&builder, &paths).0.unwrap();

        builder.deny_warnings(true);
        let Err(BuildError::Diagnostics { count, report }) = compile(&builder, &paths).0 else {
            panic!("denied warnings fail the build");
        };
        assert_eq!(count, 1);
        assert!(report.contains("warning[TW403]"), "{report}");
        assert!(report.contains("1 warning found"), "{report}");

        builder.allow(crate::diag::Code::MissingDocs);
        compile(&builder, &paths).0.unwrap();
    }

    #[test]
    fn every_file_read_and_directory_walked_is_watched() {
        let scratch = scratch("watch");
        let dir = scratch.path();
        std::fs::create_dir_all(dir.join("idl/more")).unwrap();
        std::fs::write(dir.join("idl/a.tool"), "tool a { timing sync }").unwrap();
        std::fs::write(dir.join("idl/more/b.tool"), "tool b { timing sync }").unwrap();
        let mut builder = Builder::new();
        builder.out_dir(dir.join("out"));
        let (result, watched) = compile(&builder, &[dir.join("idl")]);
        result.unwrap();
        let expected: BTreeSet<PathBuf> = ["idl", "idl/a.tool", "idl/more", "idl/more/b.tool"]
            .iter()
            .map(|p| dir.join(p))
            .collect();
        assert_eq!(watched, expected);
        assert!(dir.join("out/tools.rs").exists());
    }

    #[test]
    fn unchanged_output_is_not_rewritten() {
        let scratch = scratch("unchanged");
        let dir = scratch.path();
        let idl = dir.join("a.tool");
        std::fs::write(&idl, "tool a { timing sync }").unwrap();
        let mut builder = Builder::new();
        builder.out_dir(dir).output_name("api");
        compile(&builder, std::slice::from_ref(&idl)).0.unwrap();
        let out = dir.join("api.rs");
        let modified = |p: &Path| std::fs::metadata(p).unwrap().modified().unwrap();
        let first = modified(&out);
        std::thread::sleep(std::time::Duration::from_millis(20));
        compile(&builder, std::slice::from_ref(&idl)).0.unwrap();
        assert_eq!(modified(&out), first);
    }

    #[test]
    fn failures_are_typed_and_counted() {
        let scratch = scratch("failures");
        let dir = scratch.path();
        let (result, watched) = compile(&Builder::new(), &[dir.join("missing")]);
        assert!(matches!(result, Err(BuildError::Load(_))));
        assert!(
            watched.contains(&dir.join("missing")),
            "creating it reruns the build"
        );

        let idl = dir.join("bad.tool");
        std::fs::write(&idl, "tool a { }\ntool b { timing snyc }").unwrap();
        let (result, _) = compile(&Builder::new(), std::slice::from_ref(&idl));
        let Err(BuildError::Diagnostics { count, report }) = result else {
            panic!("{result:?}")
        };
        assert_eq!(count, 2);
        assert!(report.contains("error[TW201]") && report.contains("2 errors found"));
        assert!(!report.contains('\u{1b}'), "no colour in build logs");

        let mut builder = Builder::new();
        builder.runtime_crate("not a path");
        let (result, _) = compile(&builder, std::slice::from_ref(&idl));
        assert!(matches!(result, Err(BuildError::RuntimeCrate(_))));
    }
}
