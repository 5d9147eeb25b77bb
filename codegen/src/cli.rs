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
        /// When to colour diagnostics.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
    },
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
        Command::Check { paths, emit, color } => check(&paths, emit.as_deref(), color.resolve()),
    }
}

fn check(paths: &[PathBuf], emit: Option<&std::path::Path>, color: ColorChoice) -> ExitCode {
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
            eprint!("{}", diagnostics.render(&sources, color));
            return ExitCode::FAILURE;
        }
    };
    if let Some(path) = emit {
        let mut json = serde_json::to_string_pretty(&model).expect("the model serializes to JSON");
        json.push('\n');
        let written = if path.as_os_str() == "-" {
            std::io::stdout().write_all(json.as_bytes())
        } else {
            std::fs::write(path, json)
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

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
