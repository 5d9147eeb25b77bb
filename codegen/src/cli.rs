//! The `toolwright` command line: a thin adapter over [`crate::check`].

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
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
    /// to stderr when it is not.
    Check {
        /// `.tool` files, or directories searched recursively for them.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Write the checked model as JSON to this file (`-` for stdout).
        #[arg(long, value_name = "FILE")]
        emit: Option<PathBuf>,
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
    /// Explain a diagnostic code: the rule, why it exists, an example, a fix.
    Explain {
        /// A code such as `TW101`.
        code: String,
    },
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
                eprint!("{}", diagnostics.render(sources, self.color.resolve()));
                if let Some(first) = diagnostics.iter().next() {
                    eprintln!(
                        "`toolwright explain {}` says more about a code",
                        first.code.as_str()
                    );
                }
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
    fn resolve(self) -> ColorChoice {
        let tty = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
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
            output,
        } => check(&paths, emit.as_deref(), output),
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
                if let Err(e) = write_atomically(&path, formatted.as_bytes()) {
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

fn check(paths: &[PathBuf], emit: Option<&std::path::Path>, output: Output) -> ExitCode {
    let sources = match Sources::load(paths) {
        Ok(sources) => sources,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let model = match crate::check(&sources) {
        Ok(model) => model,
        Err(diagnostics) => {
            output.report(&diagnostics, &sources);
            return ExitCode::FAILURE;
        }
    };
    if let Some(path) = emit {
        let mut json = serde_json::to_string_pretty(&model).expect("the model serializes to JSON");
        json.push('\n');
        let written = if path.as_os_str() == "-" {
            std::io::stdout().write_all(json.as_bytes())
        } else {
            write_atomically(path, json.as_bytes())
        };
        if let Err(e) = written {
            eprintln!("error: cannot write `{}`: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    let summary = format!(
        "checked {}: {}, {}, {}",
        count(sources.len(), "file"),
        count(model.tools.len(), "tool"),
        count(model.action_count(), "action"),
        count(model.types.len(), "type"),
    );
    // With `--emit -` stdout carries the JSON; keep it parseable.
    if emit.is_some_and(|p| p.as_os_str() == "-") {
        eprintln!("{summary}");
    } else {
        println!("{summary}");
    }
    ExitCode::SUCCESS
}

/// Writes a sibling temporary file and renames it over `path`, so an
/// interrupted run leaves the old file or the new one, never half of each.
fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy());
    let tmp = path.with_file_name(format!(".{name}.toolwright-{}", std::process::id()));
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
