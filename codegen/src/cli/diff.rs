//! `toolwright diff`: loads two versions (two paths, or the working tree
//! and a git ref), checks both, compares them and prints the report.

use std::path::{Path, PathBuf};
use std::process::{Command as Process, ExitCode};

use super::{Inputs, MessageFormat, Output};
use crate::diff::{self, ALLOW_FILE, AllowList, Category, Report};
use crate::{Model, Sources};

/// Exit code when a version cannot be read or checked (1 means breaking).
const TROUBLE: u8 = 2;

/// What `toolwright diff` was asked.
pub(super) struct Request {
    pub paths: Vec<PathBuf>,
    pub against: Option<String>,
    pub categories: Vec<Category>,
    pub allow: Vec<PathBuf>,
    pub inputs: Inputs,
    pub output: Output,
}

/// Parses a `--categories` entry.
pub(super) fn parse_category(name: &str) -> Result<Category, String> {
    Category::parse(name).ok_or_else(|| {
        format!("`{name}` is not a category; the categories are wire, source and semantic")
    })
}

pub(super) fn run(request: Request) -> ExitCode {
    match compare(&request) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(TROUBLE)
        }
    }
}

fn compare(request: &Request) -> Result<ExitCode, String> {
    let (old_sources, new_paths) = match &request.against {
        Some(reference) => {
            let paths = if request.paths.is_empty() {
                vec![PathBuf::from(".")]
            } else {
                request.paths.clone()
            };
            (at_ref(reference, &paths, request.inputs)?, paths)
        }
        None => {
            let [old, new] = request.paths.as_slice() else {
                return Err(format!(
                    "`toolwright diff` takes two paths, OLD and NEW ({} given), or `--against <git-ref> [PATH]`",
                    request.paths.len()
                ));
            };
            let old = request
                .inputs
                .load(std::slice::from_ref(old))
                .map_err(|e| e.to_string())?;
            (old, vec![new.clone()])
        }
    };
    let new_sources = request.inputs.load(&new_paths).map_err(|e| e.to_string())?;
    let old = checked(&old_sources, "old", request.output)?;
    let new = checked(&new_sources, "new", request.output)?;

    let mut allow = AllowList::new();
    for dir in new_paths.iter().filter(|p| p.is_dir()) {
        allow
            .add_file(&dir.join(ALLOW_FILE))
            .map_err(|e| e.to_string())?;
    }
    for file in &request.allow {
        if !file.is_file() {
            return Err(format!("{}: no such allow file", file.display()));
        }
        allow.add_file(file).map_err(|e| e.to_string())?;
    }
    let mut changes = diff::diff(&old, &new);
    let unused = allow.apply(&mut changes);
    let report = Report { changes, unused };
    let categories = &request.categories;
    match request.output.message_format {
        MessageFormat::Human => print!(
            "{}",
            report.render(
                &old_sources,
                &new_sources,
                categories,
                request.output.color.resolve_stdout()
            )
        ),
        MessageFormat::Json => print!(
            "{}",
            report.render_json(&old_sources, &new_sources, categories)
        ),
    }
    Ok(if report.failures(categories) > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Checks one version; its diagnostics go to stderr.
fn checked(sources: &Sources, which: &str, output: Output) -> Result<Model, String> {
    crate::check(sources).map_err(|diagnostics| {
        output.report(&diagnostics, sources);
        format!("the {which} version of the catalogue does not check; nothing was compared")
    })
}

/// The `.tool` files under `paths` as they were at `reference`, named
/// `reference:path` in the report.
fn at_ref(reference: &str, paths: &[PathBuf], inputs: Inputs) -> Result<Sources, String> {
    let mut sources = Sources::new();
    if !inputs.no_job_tools {
        sources.add_job_tools();
    }
    let mut files = Vec::new();
    for path in paths {
        let dir = if path.is_dir() {
            path.as_path()
        } else {
            path.parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
        };
        let top = git(dir, &["rev-parse", "--show-toplevel"])?;
        let top = PathBuf::from(String::from_utf8_lossy(&top).trim());
        let absolute =
            std::fs::canonicalize(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let relative = absolute
            .strip_prefix(std::fs::canonicalize(&top).map_err(|e| e.to_string())?)
            .map_err(|_| {
                format!(
                    "{} is outside the git repository {}",
                    path.display(),
                    top.display()
                )
            })?
            .to_string_lossy()
            .into_owned();
        let spec = if relative.is_empty() {
            "."
        } else {
            relative.as_str()
        };
        let listing = git(
            &top,
            &["ls-tree", "-r", "-z", "--name-only", reference, "--", spec],
        )?;
        for name in listing.split(|&b| b == 0).filter(|n| !n.is_empty()) {
            let name = String::from_utf8_lossy(name).into_owned();
            if name.ends_with(".tool") {
                files.push((top.clone(), name));
            }
        }
    }
    files.sort_by(|a, b| a.1.cmp(&b.1));
    files.dedup();
    for (top, name) in files {
        let bytes = git(&top, &["cat-file", "blob", &format!("{reference}:{name}")])?;
        // The file's stem is its default category: keep a `/` before it.
        let shown = if name.contains('/') {
            format!("{reference}:{name}")
        } else {
            format!("{reference}:./{name}")
        };
        attach_pages(&mut sources, &top, reference, &name, &shown, &bytes);
        sources.add(shown, bytes);
    }
    Ok(sources)
}

/// Attaches to `sources` the pages the `.tool` file `name` (shown as
/// `shown`) names with `@app("…")`, as they were at `reference`, where the
/// checker looks for them: beside `shown`. A page git does not have there
/// is left to the checker, which reports it missing (TW510).
fn attach_pages(
    sources: &mut Sources,
    top: &Path,
    reference: &str,
    name: &str,
    shown: &str,
    tool: &[u8],
) {
    let pattern =
        regex_lite::Regex::new(r#"@app\s*\(\s*"([^"\\]+)"\s*\)"#).expect("the pattern is valid");
    let dir = Path::new(name).parent().unwrap_or(Path::new(""));
    let shown_dir = Path::new(shown).parent().unwrap_or(Path::new(""));
    for page in pattern.captures_iter(&String::from_utf8_lossy(tool)) {
        let relative = &page[1];
        // Git names blobs with `/` and no `.` or `..` segments.
        let Some(in_repo) = normalized(&dir.join(relative)) else {
            continue;
        };
        if let Ok(bytes) = git(
            top,
            &["cat-file", "blob", &format!("{reference}:{in_repo}")],
        ) {
            sources.attach(shown_dir.join(relative), bytes);
        }
    }
}

/// `path` with its `.` and `..` segments resolved, `/`-separated; `None`
/// when it climbs out of the repository.
fn normalized(path: &Path) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for part in path.components() {
        match part {
            std::path::Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                parts.pop()?;
            }
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

/// Runs git in `dir` and returns its stdout, or its stderr as the error.
fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let output = Process::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if output.status.success() {
        Ok(output.stdout)
    } else {
        Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}
