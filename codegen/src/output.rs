//! Generated files ([`OutputFile`]), and writing them: only when their
//! bytes change, never half-way. Used by the build.rs API and the CLI.

use std::fmt;
use std::path::{Path, PathBuf};

/// One generated file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    /// Where it goes, relative to the output directory (`tools.rs`).
    pub path: PathBuf,
    /// Its text.
    pub contents: String,
}

/// Writes `bytes` to `path` unless the file already holds exactly them, so
/// an unchanged output keeps its modification time and nothing downstream
/// rebuilds. Returns whether the file was written.
pub(crate) fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    write_atomically(path, bytes)?;
    Ok(true)
}

/// Writes a sibling temporary file and renames it over `path`, so an
/// interrupted run leaves the old file or the new one, never half of each.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
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

/// Directories inside a binding's directory that tools other than the
/// generator create (package installs, caches, builds): never read, never
/// cleaned.
const FOREIGN_DIRS: &[&str] = &[
    "node_modules",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    "dist",
    "build",
];

/// One difference between the generated files and the output directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// A file the catalogue produces that does not exist yet.
    Create(PathBuf, String),
    /// A file whose contents differ.
    Update(PathBuf, String),
    /// A file in a directory the generator owns that the catalogue no
    /// longer produces.
    Remove(PathBuf),
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Create(path, _) => write!(f, "create {}", path.display()),
            Change::Update(path, _) => write!(f, "update {}", path.display()),
            Change::Remove(path) => write!(f, "remove {}", path.display()),
        }
    }
}

/// What writing a set of generated files would change.
#[derive(Debug)]
pub(crate) struct Plan {
    /// Every difference, in path order.
    pub(crate) changes: Vec<Change>,
}

impl Plan {
    /// How many files the plan writes.
    #[cfg(feature = "cli")]
    pub(crate) fn written(&self) -> usize {
        self.changes
            .iter()
            .filter(|c| !matches!(c, Change::Remove(_)))
            .count()
    }

    /// Writes and removes files.
    ///
    /// # Errors
    /// The first file that cannot be written or removed.
    pub(crate) fn apply(&self) -> Result<(), OutputError> {
        for change in &self.changes {
            let result = match change {
                Change::Create(path, contents) | Change::Update(path, contents) => path
                    .parent()
                    .map_or(Ok(()), std::fs::create_dir_all)
                    .and_then(|()| write_atomically(path, contents.as_bytes())),
                Change::Remove(path) => std::fs::remove_file(path),
            };
            result.map_err(|source| OutputError {
                path: change.path().to_owned(),
                source,
            })?;
        }
        Ok(())
    }
}

impl Change {
    fn path(&self) -> &Path {
        match self {
            Change::Create(path, _) | Change::Update(path, _) | Change::Remove(path) => path,
        }
    }
}

/// A file that could not be read, written or removed.
#[derive(Debug)]
pub(crate) struct OutputError {
    pub(crate) path: PathBuf,
    pub(crate) source: std::io::Error,
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot update `{}`: {}",
            self.path.display(),
            self.source
        )
    }
}

impl std::error::Error for OutputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Compares `files` (relative to `out`) with what is on disk. Files under
/// `owned_dirs` (relative to `out`) that `files` lacks are to be removed,
/// except inside [`FOREIGN_DIRS`].
///
/// # Errors
/// A file or directory that exists but cannot be read.
pub(crate) fn plan(
    out: &Path,
    files: &[OutputFile],
    owned_dirs: &[PathBuf],
) -> Result<Plan, OutputError> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| OutputError { path, source }
    };
    let mut changes = Vec::new();
    let mut wanted = std::collections::BTreeSet::new();
    for file in files {
        let path = out.join(&file.path);
        match std::fs::read(&path) {
            Ok(old) if old == file.contents.as_bytes() => {}
            Ok(_) => changes.push(Change::Update(path.clone(), file.contents.clone())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                changes.push(Change::Create(path.clone(), file.contents.clone()));
            }
            Err(e) => return Err(io(&path)(e)),
        }
        wanted.insert(path);
    }
    for dir in owned_dirs {
        let mut stack = vec![out.join(dir)];
        while let Some(dir) = stack.pop() {
            let entries = match std::fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(io(&dir)(e)),
            };
            for entry in entries {
                let entry = entry.map_err(io(&dir))?;
                let path = entry.path();
                let kind = entry.file_type().map_err(io(&path))?;
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if kind.is_dir() {
                    if !FOREIGN_DIRS.contains(&name.as_ref()) && !name.ends_with(".egg-info") {
                        stack.push(path);
                    }
                } else if !wanted.contains(&path) {
                    changes.push(Change::Remove(path));
                }
            }
        }
    }
    changes.sort_by(|a, b| a.path().cmp(b.path()));
    Ok(Plan { changes })
}

#[cfg(test)]
mod tests {
    use super::OutputFile;
    use super::{Change, plan, write_if_changed};
    use std::path::PathBuf;

    #[test]
    fn a_plan_creates_updates_and_removes_only_in_owned_dirs() {
        let dir = tempfile_dir("plan");
        std::fs::create_dir_all(dir.join("ts/node_modules/x")).unwrap();
        std::fs::write(dir.join("ts/node_modules/x/index.js"), "kept").unwrap();
        std::fs::write(dir.join("ts/old.ts"), "stale").unwrap();
        std::fs::write(dir.join("ts/same.ts"), "same").unwrap();
        std::fs::write(dir.join("ts/changed.ts"), "before").unwrap();
        std::fs::write(dir.join("README.md"), "not owned").unwrap();
        let file = |p: &str, c: &str| OutputFile {
            path: PathBuf::from(p),
            contents: c.to_owned(),
        };
        let files = [
            file("ts/same.ts", "same"),
            file("ts/changed.ts", "after"),
            file("ts/new/a.ts", "new"),
        ];
        let plan = plan(&dir, &files, &[PathBuf::from("ts")]).unwrap();
        let shown: Vec<String> = plan.changes.iter().map(ToString::to_string).collect();
        let d = dir.display();
        assert_eq!(
            shown,
            [
                format!("update {d}/ts/changed.ts"),
                format!("create {d}/ts/new/a.ts"),
                format!("remove {d}/ts/old.ts"),
            ]
        );
        assert!(matches!(plan.changes[0], Change::Update(..)));
        plan.apply().unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join("ts/new/a.ts")).unwrap(),
            "new"
        );
        assert!(!dir.join("ts/old.ts").exists());
        assert!(dir.join("ts/node_modules/x/index.js").exists());
        assert!(dir.join("README.md").exists());
        let again = super::plan(&dir, &files, &[PathBuf::from("ts")]).unwrap();
        assert!(again.changes.is_empty(), "{:?}", again.changes);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn tempfile_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("toolwright-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("ts")).unwrap();
        dir
    }

    #[test]
    fn unchanged_bytes_leave_the_file_alone() {
        let dir = std::env::temp_dir().join(format!("toolwright-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tools.rs");
        assert!(write_if_changed(&path, b"a").unwrap());
        assert!(!write_if_changed(&path, b"a").unwrap());
        assert!(write_if_changed(&path, b"b").unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), b"b");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
