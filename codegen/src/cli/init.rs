//! `toolwright init`: a new tool server that builds and serves MCP on the
//! first `cargo run`, laid out as two crates (the generated catalogue, and
//! the server binding handlers to it) so that editing a handler never
//! recompiles the generated code. The files are real files under `init/`, so the
//! template is read (and kept formatted) as code.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The template: (path in the new crate, contents). `.in` files have
/// `{{name}}`-style placeholders.
const FILES: &[(&str, &str)] = &[
    ("Cargo.toml", include_str!("init/Cargo.toml.in")),
    (
        "idl/greetings.tool",
        include_str!("init/idl/greetings.tool"),
    ),
    (
        "catalogue/Cargo.toml",
        include_str!("init/catalogue/Cargo.toml.in"),
    ),
    (
        "catalogue/build.rs",
        include_str!("init/catalogue/build.rs"),
    ),
    (
        "catalogue/src/lib.rs",
        include_str!("init/catalogue/src/lib.rs"),
    ),
    (
        "server/Cargo.toml",
        include_str!("init/server/Cargo.toml.in"),
    ),
    (
        "server/src/main.rs",
        include_str!("init/server/src/main.rs"),
    ),
    ("README.md", include_str!("init/README.md.in")),
    (".gitignore", include_str!("init/gitignore")),
];

/// What `toolwright init` was asked.
pub(super) struct Request {
    pub dir: PathBuf,
    pub name: Option<String>,
    pub path: Option<PathBuf>,
}

pub(super) fn run(request: &Request) -> ExitCode {
    match init(request) {
        Ok(name) => {
            let shown = request.dir.display();
            println!("created `{name}` in {shown}");
            println!(
                "next: cd {shown} && cargo run    (MCP over stdio; `cargo run -- --http` for HTTP)"
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn init(request: &Request) -> Result<String, String> {
    let dir = &request.dir;
    if let Ok(mut entries) = std::fs::read_dir(dir)
        && entries.any(|e| e.is_ok_and(|e| e.file_name() != ".git"))
    {
        return Err(format!(
            "{} is not empty; `toolwright init` writes only into a new or empty directory",
            dir.display()
        ));
    }
    let name = match &request.name {
        Some(name) => {
            check_name(name)?;
            name.clone()
        }
        None => package_name(dir)?,
    };
    let (toolwright, codegen) = dependencies(request.path.as_deref())?;
    for (path, text) in FILES {
        let text = text
            .replace("{{name}}", &name)
            .replace("{{toolwright}}", &toolwright)
            .replace("{{toolwright_codegen}}", &codegen);
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&target, text)
            .map_err(|e| format!("cannot write {}: {e}", target.display()))?;
    }
    Ok(name)
}

/// The dependency lines: crates.io versions of this release, or a local
/// checkout's crates.
fn dependencies(checkout: Option<&Path>) -> Result<(String, String), String> {
    match checkout {
        None => {
            let version = env!("CARGO_PKG_VERSION");
            let compatible = version
                .rsplit_once('.')
                .map_or(version, |(major_minor, _)| major_minor);
            Ok((
                format!(r#"toolwright = "{compatible}""#),
                format!(
                    r#"toolwright-codegen = {{ version = "{compatible}", default-features = false }}"#
                ),
            ))
        }
        Some(checkout) => {
            let checkout = std::fs::canonicalize(checkout)
                .map_err(|e| format!("--path {}: {e}", checkout.display()))?;
            let runtime = checkout.join("runtime");
            let codegen = checkout.join("codegen");
            if !runtime.join("Cargo.toml").is_file() || !codegen.join("Cargo.toml").is_file() {
                return Err(format!(
                    "--path {}: not a Toolwright checkout (no runtime/ and codegen/ crates)",
                    checkout.display()
                ));
            }
            // TOML basic strings: escape what a path may hold.
            let quoted = |p: &Path| {
                let text = p.display().to_string();
                format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
            };
            Ok((
                format!("toolwright = {{ path = {} }}", quoted(&runtime)),
                format!(
                    "toolwright-codegen = {{ path = {}, default-features = false }}",
                    quoted(&codegen)
                ),
            ))
        }
    }
}

/// The package name from the directory's name: lower case, `-` for
/// anything cargo would refuse.
fn package_name(dir: &Path) -> Result<String, String> {
    let absolute = std::path::absolute(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let base = absolute
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    name = name.trim_matches('-').to_owned();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name = format!("tools-{name}").trim_end_matches('-').to_owned();
    }
    check_name(&name)?;
    Ok(name)
}

fn check_name(name: &str) -> Result<(), String> {
    let valid = name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && name.len() <= 64;
    // Names cargo refuses for a package, or that would shadow a dependency.
    let taken = ["test", "toolwright", "toolwright-codegen", "tokio", "build"];
    if !valid {
        return Err(format!(
            "`{name}` is not a package name: letters, digits, `-` and `_`, starting with a letter (give one with --name)"
        ));
    }
    if taken.contains(&name) {
        return Err(format!(
            "`{name}` is taken by a dependency or by cargo; give another with --name"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{check_name, dependencies, package_name};

    #[test]
    fn package_names_come_from_the_directory() {
        assert_eq!(
            package_name(Path::new("/tmp/My Tools")).unwrap(),
            "my-tools"
        );
        assert_eq!(package_name(Path::new("/tmp/2024")).unwrap(), "tools-2024");
        assert_eq!(
            package_name(Path::new("/tmp/music_server")).unwrap(),
            "music_server"
        );
        assert!(check_name("tokio").is_err());
        assert!(check_name("a b").is_err());
    }

    #[test]
    fn dependencies_name_this_release_by_default() {
        let (runtime, codegen) = dependencies(None).unwrap();
        let version = env!("CARGO_PKG_VERSION")
            .rsplit_once('.')
            .unwrap()
            .0
            .to_owned();
        assert_eq!(runtime, format!(r#"toolwright = "{version}""#));
        assert!(codegen.contains("default-features = false"));
        assert!(dependencies(Some(Path::new("/"))).is_err());
    }
}
