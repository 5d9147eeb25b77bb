//! The `toolwright` command line: a thin adapter over [`crate::check`],
//! [`crate::generate`] and [`crate::diff`].

mod diff;
mod init;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::{ColorChoice, Sources};

/// Toolwright: declare tools once in `.tool` files, generate every binding.
#[derive(Debug, Parser)]
#[command(
    name = "toolwright",
    version,
    about = "Declare LLM tools once in `.tool` files; check them and generate every binding"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check `.tool` files and report every problem at once.
    ///
    /// Exits 0 and prints a one-line summary when the catalogue is valid;
    /// exits 1 and prints every diagnostic (file:line:col, snippet, hint)
    /// to stderr when it is not. A valid catalogue's warnings (`TW4xx`)
    /// are printed too, and fail the run only with `--deny`.
    Check {
        /// `.tool` files, or directories searched recursively for them.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Write the checked model as JSON to this file (`-` for stdout).
        #[arg(long, value_name = "FILE")]
        emit: Option<PathBuf>,
        /// Which warnings are reported, and which fail the run.
        #[command(flatten)]
        lints: Lints,
        /// Which files besides the given ones are read.
        #[command(flatten)]
        inputs: Inputs,
        /// How diagnostics are printed.
        #[command(flatten)]
        output: Output,
    },
    /// Generate code for a target language from `.tool` files.
    ///
    /// Checks the catalogue first, printing every problem as `check` does;
    /// writes nothing unless it is valid. Files whose contents are
    /// unchanged are not rewritten. The bindings (`schemas`, `typescript`,
    /// `python`, or all three with `bindings`) each own a directory under
    /// `--out`: files in it that the catalogue no longer produces are
    /// removed.
    #[command(visible_alias = "gen")]
    Generate {
        /// The target.
        #[arg(value_enum)]
        language: Language,
        /// `.tool` files, or directories searched recursively for them.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// The directory to write into (created if missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// The output's file name, without extension.
        #[arg(long, value_name = "NAME", default_value = "tools")]
        output_name: String,
        /// The path generated Rust reaches the runtime crate by.
        #[arg(long, value_name = "PATH", default_value = "::toolwright")]
        runtime_crate: String,
        /// Rust: let other crates bind handlers to the catalogue with
        /// `#[tools(this_crate)]` (include the file at the crate's root).
        #[arg(long)]
        export_catalogue: bool,
        /// Rust: which way the crate moves values, and so which serde
        /// derives each type gets.
        #[arg(long, value_enum, default_value = "both")]
        side: SideArg,
        /// Write nothing; list every file that is missing, different or
        /// left over, and exit 1 if there is any.
        #[arg(long)]
        check: bool,
        /// Which files besides the given ones are read.
        #[command(flatten)]
        inputs: Inputs,
        /// How diagnostics are printed.
        #[command(flatten)]
        output: Output,
    },
    /// Write the catalogue's documentation: `index.html` and `catalogue.md`.
    ///
    /// `index.html` is one self-contained page (styles, script and data
    /// inline, nothing fetched): every tool by category with its
    /// parameters, response, errors and an example, with search. A server
    /// shows the same page at `/`, with a *try it* form per tool and a
    /// live feed of calls. Checks the catalogue first, as `generate` does.
    Docs {
        /// `.tool` files, or directories searched recursively for them.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// The directory to write into (created if missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Write nothing; list every file that is missing or different,
        /// and exit 1 if there is any.
        #[arg(long)]
        check: bool,
        /// Which files besides the given ones are read.
        #[command(flatten)]
        inputs: Inputs,
        /// How diagnostics are printed.
        #[command(flatten)]
        output: Output,
    },
    /// Print `.tool` files in canonical layout (comments kept).
    ///
    /// With one file and no flag, prints the formatted file to stdout. With
    /// `--write`, rewrites files whose layout differs; with `--check`, lists
    /// them and exits 1 if there are any. Files that do not parse are not
    /// touched: their syntax errors are printed and the exit code is 1.
    Fmt {
        /// `.tool` files, or directories searched recursively for them.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Rewrite the files in place.
        #[arg(long, conflicts_with = "check")]
        write: bool,
        /// Exit 1 if any file is not formatted; change nothing.
        #[arg(long)]
        check: bool,
        /// How diagnostics are printed.
        #[command(flatten)]
        output: Output,
    },
    /// Compare two versions of a catalogue: every change, and whom it breaks.
    ///
    /// `toolwright diff OLD NEW` compares two paths (`.tool` files or
    /// directories); `toolwright diff --against REF [PATH...]` compares the
    /// working tree's PATHs (default `.`) with the same paths at a git ref.
    /// Each change has a stable rule id (docs/diff.md), what it breaks
    /// (wire, source, semantic) and snippets from both versions. Breaking
    /// changes made on purpose are accepted by entries in
    /// `allowed-breaks.toml` beside the new version's files, each with a
    /// reason the report shows. Exits 1 when a change breaks a selected
    /// category and is not allowed, 2 when a version cannot be read or
    /// checked, 0 otherwise.
    Diff {
        /// OLD and NEW; with `--against`, the paths to compare.
        #[arg(value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Compare the working tree with this git ref (a branch, tag or
        /// commit).
        #[arg(long, value_name = "REF")]
        against: Option<String>,
        /// The categories whose breaking changes fail the run.
        #[arg(
            long,
            value_name = "LIST",
            value_delimiter = ',',
            default_value = "wire,source,semantic",
            value_parser = diff::parse_category
        )]
        categories: Vec<crate::diff::Category>,
        /// An allow file to read besides `allowed-breaks.toml` in the new
        /// version's directories.
        #[arg(long, value_name = "FILE")]
        allow: Vec<PathBuf>,
        /// Which files besides the given ones are read.
        #[command(flatten)]
        inputs: Inputs,
        /// How the report is printed (to stdout).
        #[command(flatten)]
        output: Output,
    },
    /// Create a new tool server that builds and serves MCP on the first
    /// `cargo run`.
    ///
    /// Writes a workspace of two crates into DIR (default `.`), which must
    /// be new or empty: `catalogue/`, whose build script generates the Rust
    /// of `idl/` (one documented example tool), and `server/`, whose
    /// `src/main.rs` binds the handler and serves MCP over stdio (`cargo
    /// run -- --http` for Streamable HTTP); editing a handler recompiles
    /// `server` only. And a README of next steps. Dependencies are this
    /// release on crates.io, or a local checkout with `--path`.
    Init {
        /// Where to create the crate.
        #[arg(value_name = "DIR", default_value = ".")]
        dir: PathBuf,
        /// The package name (default: the directory's name).
        #[arg(long, value_name = "NAME")]
        name: Option<String>,
        /// Depend on the crates of a local Toolwright checkout instead of
        /// crates.io.
        #[arg(long, value_name = "CHECKOUT")]
        path: Option<PathBuf>,
    },
    /// Serve the Language Server Protocol on stdin and stdout, for editors.
    ///
    /// Diagnostics as you type (errors, then warnings), hover with docs and
    /// generated names, go to definition, find references and rename of
    /// types across the catalogue, completion of type names, attributes,
    /// timing classes and keywords, and formatting as `fmt` does.
    Lsp,
    /// Explain a diagnostic code: the rule, why it exists, an example, a fix.
    Explain {
        /// A code such as `TW101`.
        code: String,
    },
}

/// Which files besides the given ones are read.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct Inputs {
    /// Leave out the built-in job tools (`job_status`, `job_list`,
    /// `job_poll`, `job_cancel`), which every catalogue has otherwise.
    #[arg(long)]
    no_job_tools: bool,
}

impl Inputs {
    fn load(self, paths: &[PathBuf]) -> Result<Sources, crate::LoadError> {
        let mut sources = Sources::new();
        if !self.no_job_tools {
            // First, so a clash is reported in the user's file.
            sources.add_job_tools();
        }
        sources.load_paths(paths)?;
        Ok(sources)
    }
}

/// Which warnings are reported, and which fail the run.
#[derive(Clone, Debug, clap::Args)]
pub struct Lints {
    /// Make warnings fail the run: `warnings` for all of them, or a code
    /// (`TW403`). Repeatable.
    #[arg(long, value_name = "WHAT", value_parser = parse_lint)]
    deny: Vec<Lint>,
    /// Do not report a warning code (`TW403`). Repeatable.
    #[arg(long, value_name = "CODE", value_parser = parse_warning_code)]
    allow: Vec<crate::diag::Code>,
    /// Check tool names as clients that put PREFIX before them pass them
    /// on to LLM providers (`mcp__studio__`; `TW405`).
    #[arg(long, value_name = "PREFIX")]
    client_prefix: Option<String>,
    /// The LLM providers the catalogue is handed to (`openai`, `anthropic`,
    /// `gemini`; repeatable or comma-separated): tool names are checked
    /// against their rules only (`TW405`), and request fields their
    /// profiles cannot state draw `TW406`.
    #[arg(long, value_name = "PROVIDER", value_delimiter = ',', value_parser = parse_profile)]
    target: Vec<crate::Profile>,
}

fn parse_profile(text: &str) -> Result<crate::Profile, String> {
    crate::Profile::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = crate::Profile::ALL.iter().map(|p| p.name()).collect();
        format!(
            "`{text}` is not a provider profile; they are {}",
            names.join(", ")
        )
    })
}

/// A `--deny` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lint {
    /// Every warning.
    Warnings,
    /// One warning code.
    Code(crate::diag::Code),
}

fn parse_warning_code(text: &str) -> Result<crate::diag::Code, String> {
    match crate::diag::Code::parse(text) {
        Some(code) if code.is_warning() => Ok(code),
        Some(code) => Err(format!("`{}` is an error, not a warning", code.as_str())),
        None => {
            let mut warnings = crate::diag::Code::ALL
                .iter()
                .filter(|c| c.is_warning())
                .map(|c| c.as_str());
            let first = warnings.next().unwrap_or_default();
            let last = warnings.next_back().unwrap_or(first);
            Err(format!(
                "`{text}` is not a diagnostic code; warnings are `{first}` to `{last}` (docs/diagnostics.md)"
            ))
        }
    }
}

fn parse_lint(text: &str) -> Result<Lint, String> {
    if text == "warnings" {
        Ok(Lint::Warnings)
    } else {
        parse_warning_code(text).map(Lint::Code)
    }
}

impl Lints {
    /// The clients `--client-prefix` and `--target` describe.
    fn clients(&self) -> crate::Clients {
        crate::Clients {
            prefix: self.client_prefix.clone().unwrap_or_default(),
            profiles: self.target.clone(),
        }
    }

    /// Drops allowed warnings; true when one left is denied.
    fn apply(&self, warnings: &mut crate::Diagnostics) -> bool {
        warnings.retain(|d| !self.allow.contains(&d.code));
        warnings.iter().any(|d| {
            self.deny
                .iter()
                .any(|l| *l == Lint::Warnings || *l == Lint::Code(d.code))
        })
    }
}

/// `generate` targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Language {
    /// Rust, as the build script's `Builder` generates it: one `tools.rs`.
    Rust,
    /// `schemas/`: the MCP `tools` array and JSON Schema 2020-12 per type.
    Schemas,
    /// `typescript/`: the npm package.
    #[value(name = "typescript")]
    TypeScript,
    /// `python/`: the pip package.
    Python,
    /// All three bindings: `schemas/`, `typescript/` and `python/`.
    Bindings,
}

/// `generate rust --side`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    /// Decodes requests, encodes responses, errors and chunks.
    Server,
    /// Encodes requests, decodes the rest.
    Client,
    /// Both ways: every type derives both.
    Both,
}

impl From<SideArg> for crate::Side {
    fn from(side: SideArg) -> Self {
        match side {
            SideArg::Server => crate::Side::Server,
            SideArg::Client => crate::Side::Client,
            SideArg::Both => crate::Side::Both,
        }
    }
}

impl Language {
    /// The bindings this target generates; empty for Rust.
    fn bindings(self) -> &'static [crate::Binding] {
        use crate::Binding;
        match self {
            Language::Rust => &[],
            Language::Schemas => &[Binding::Schemas],
            Language::TypeScript => &[Binding::TypeScript],
            Language::Python => &[Binding::Python],
            Language::Bindings => &Binding::ALL,
        }
    }
}

/// How diagnostics are printed (to stderr).
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct Output {
    /// When to colour diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// `human`: snippets and hints; `json`: one JSON object per line.
    #[arg(long, value_enum, default_value_t = MessageFormat::Human)]
    message_format: MessageFormat,
}

impl Output {
    fn report(self, diagnostics: &crate::Diagnostics, sources: &Sources) {
        match self.message_format {
            MessageFormat::Human => {
                eprint!("{}", diagnostics.report(sources, self.color.resolve()));
            }
            MessageFormat::Json => eprint!("{}", diagnostics.render_json(sources)),
        }
    }
}

/// `--message-format` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MessageFormat {
    /// Rendered for people: source snippets, notes, hints.
    Human,
    /// One JSON object per diagnostic per line, for editors and CI.
    Json,
}

/// `--color` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// Colour when stderr is a terminal and `NO_COLOR` is unset.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

impl Color {
    /// For what goes to stderr (diagnostics).
    fn resolve(self) -> ColorChoice {
        self.resolve_for(std::io::stderr().is_terminal())
    }

    /// For what goes to stdout (a diff's report).
    fn resolve_stdout(self) -> ColorChoice {
        self.resolve_for(std::io::stdout().is_terminal())
    }

    fn resolve_for(self, terminal: bool) -> ColorChoice {
        let tty = terminal && std::env::var_os("NO_COLOR").is_none();
        match self {
            Color::Always => ColorChoice::Always,
            Color::Auto if tty => ColorChoice::Always,
            _ => ColorChoice::Never,
        }
    }
}

/// Runs the command line; the binary's whole `main`.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check {
            paths,
            emit,
            lints,
            inputs,
            output,
        } => check(&paths, emit.as_deref(), &lints, inputs, output),
        Command::Generate {
            language,
            paths,
            out,
            output_name,
            runtime_crate,
            export_catalogue,
            side,
            check,
            inputs,
            output,
        } => {
            let target = match language {
                Language::Rust => Target::Rust {
                    output_name: &output_name,
                    runtime_crate: &runtime_crate,
                    export_catalogue,
                    side: side.into(),
                },
                other => Target::Bindings(other.bindings()),
            };
            generate(&paths, &out, target, check, inputs, output)
        }
        Command::Docs {
            paths,
            out,
            check,
            inputs,
            output,
        } => generate(&paths, &out, Target::Docs, check, inputs, output),
        Command::Fmt {
            paths,
            write,
            check,
            output,
        } => {
            let mode = match (write, check) {
                (true, _) => FmtMode::Write,
                (_, true) => FmtMode::Check,
                _ => FmtMode::Print,
            };
            fmt(&paths, mode, output)
        }
        Command::Diff {
            paths,
            against,
            categories,
            allow,
            inputs,
            output,
        } => diff::run(diff::Request {
            paths,
            against,
            categories,
            allow,
            inputs,
            output,
        }),
        Command::Init { dir, name, path } => init::run(&init::Request { dir, name, path }),
        Command::Lsp => match crate::lsp::run_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: the language server stopped: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Explain { code } => explain(&code),
    }
}

fn explain(code: &str) -> ExitCode {
    match crate::diag::Code::parse(code) {
        Some(code) => {
            print!(
                "{}: {}\n\n{}",
                code.as_str(),
                code.summary(),
                code.explanation()
            );
            ExitCode::SUCCESS
        }
        None => {
            eprintln!(
                "error: `{code}` is not a diagnostic code; codes look like `TW101` and are listed in docs/diagnostics.md"
            );
            ExitCode::FAILURE
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FmtMode {
    Print,
    Write,
    Check,
}

fn fmt(paths: &[PathBuf], mode: FmtMode, output: Output) -> ExitCode {
    let sources = match Sources::load(paths) {
        Ok(sources) => sources,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if mode == FmtMode::Print && sources.len() != 1 {
        eprintln!(
            "error: {} files given; `toolwright fmt` prints one file, or use `--write` or `--check`",
            sources.len()
        );
        return ExitCode::from(2);
    }
    let mut failed = false;
    for (id, file) in sources.iter() {
        let formatted = match crate::format::format_file(&sources, id) {
            Ok(text) => text,
            Err(diagnostics) => {
                output.report(&diagnostics, &sources);
                failed = true;
                continue;
            }
        };
        let changed = formatted != file.text();
        match mode {
            FmtMode::Print => print!("{formatted}"),
            FmtMode::Check if changed => {
                println!("{}", file.name());
                failed = true;
            }
            FmtMode::Write if changed => {
                let path = file
                    .path()
                    .map_or_else(|| PathBuf::from(file.name()), ToOwned::to_owned);
                if let Err(e) = crate::output::write_atomically(&path, formatted.as_bytes()) {
                    eprintln!("error: cannot write `{}`: {e}", path.display());
                    failed = true;
                } else {
                    println!("formatted {}", file.name());
                }
            }
            FmtMode::Check | FmtMode::Write => {}
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// What `generate` produces.
enum Target<'a> {
    Rust {
        output_name: &'a str,
        runtime_crate: &'a str,
        export_catalogue: bool,
        side: crate::Side,
    },
    Bindings(&'a [crate::Binding]),
    Docs,
}

fn generate(
    paths: &[PathBuf],
    out: &Path,
    target: Target<'_>,
    check: bool,
    inputs: Inputs,
    output: Output,
) -> ExitCode {
    let sources = match inputs.load(paths) {
        Ok(sources) => sources,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (options, targets, owned_dirs) = match target {
        Target::Rust {
            output_name,
            runtime_crate,
            export_catalogue,
            side,
        } => {
            let runtime_crate = match crate::RuntimeCrate::new(runtime_crate) {
                Ok(path) => path,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let options = crate::Options {
                generator: crate::Generator::Cli,
                runtime_crate,
                output_name: output_name.to_owned(),
                export_catalogue,
                side,
                clients: crate::Clients::default(),
                schemars_feature: None,
            };
            (options, vec![crate::lang::Target::Rust], Vec::new())
        }
        Target::Bindings(bindings) => (
            crate::Options::default(),
            bindings.iter().map(|b| b.target()).collect(),
            bindings.iter().map(|b| PathBuf::from(b.dir())).collect(),
        ),
        // The directory may hold other files (a site's own pages): none is
        // removed.
        Target::Docs => (
            crate::Options::default(),
            vec![crate::lang::Target::Docs],
            Vec::new(),
        ),
    };
    let generated = match crate::generate::run(&sources, &options, &targets) {
        Ok(generated) => generated,
        Err(diagnostics) => {
            output.report(&diagnostics, &sources);
            return ExitCode::FAILURE;
        }
    };
    if !generated.warnings.is_empty() {
        output.report(&generated.warnings, &sources);
    }
    let files = generated.into_files();
    let plan = match crate::output::plan(out, &files, &owned_dirs) {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if check {
        for change in &plan.changes {
            println!("{change}");
        }
        return if plan.changes.is_empty() {
            println!("up to date: {} files in {}", files.len(), out.display());
            ExitCode::SUCCESS
        } else {
            eprintln!(
                "error: `{}` is out of date ({}); run the same command without `--check` to update it",
                out.display(),
                crate::diag::messages::plural(plan.changes.len(), "file", "files"),
            );
            ExitCode::FAILURE
        };
    }
    match plan.apply() {
        Ok(()) => {
            for change in &plan.changes {
                println!("{change}");
            }
            println!(
                "{} in {}, {} unchanged",
                crate::diag::messages::plural(plan.changes.len(), "change", "changes"),
                out.display(),
                files.len() - plan.written()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn check(
    paths: &[PathBuf],
    emit: Option<&Path>,
    lints: &Lints,
    inputs: Inputs,
    output: Output,
) -> ExitCode {
    let sources = match inputs.load(paths) {
        Ok(sources) => sources,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let crate::Checked {
        model,
        mut warnings,
    } = match crate::check_for_clients(&sources, &lints.clients()) {
        Ok(checked) => checked,
        Err(diagnostics) => {
            output.report(&diagnostics, &sources);
            return ExitCode::FAILURE;
        }
    };
    let denied = lints.apply(&mut warnings);
    if !warnings.is_empty() {
        output.report(&warnings, &sources);
    }
    if denied {
        eprintln!("error: warnings are denied (`--deny`)");
        return ExitCode::FAILURE;
    }
    if let Some(path) = emit {
        let mut json = serde_json::to_string_pretty(&model).expect("the model serializes to JSON");
        json.push('\n');
        let written = if path.as_os_str() == "-" {
            std::io::stdout().write_all(json.as_bytes())
        } else {
            crate::output::write_atomically(path, json.as_bytes())
        };
        if let Err(e) = written {
            eprintln!("error: cannot write `{}`: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    // Resources and prompts are counted when the catalogue has some.
    let mut counts = vec![
        count(model.tools.len(), "tool"),
        count(model.action_count(), "action"),
    ];
    for (n, noun) in [
        (model.resources.len(), "resource"),
        (model.prompts.len(), "prompt"),
    ] {
        if n > 0 {
            counts.push(count(n, noun));
        }
    }
    counts.push(count(model.types.len(), "type"));
    let summary = format!(
        "checked {}: {}",
        count(sources.len(), "file"),
        counts.join(", ")
    );
    // With `--emit -` stdout carries the JSON; keep it parseable.
    if emit.is_some_and(|p| p.as_os_str() == "-") {
        eprintln!("{summary}");
    } else {
        println!("{summary}");
    }
    ExitCode::SUCCESS
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
