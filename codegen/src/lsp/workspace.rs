//! The catalogues an editor has open: their files (the editor's text for
//! open ones, the disk's for the rest) and the latest check of each.
//!
//! A file belongs to the catalogue of the highest directory above it that
//! still holds `.tool` files directly, and a catalogue is every `.tool`
//! file under that directory: `idl/a.tool` and `idl/more/b.tool` are one
//! catalogue, as `Builder::compile(["idl"])` reads them.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;
use crate::model::Model;
use crate::source::{FileId, Sources};

/// Directories never searched for `.tool` files.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];

/// The latest check of one catalogue.
pub(crate) struct Analysis {
    /// The files as checked; `FileId`s index [`Analysis::paths`].
    pub(crate) sources: Sources,
    /// The path of each file, `None` for a built-in one (the job tools).
    pub(crate) paths: Vec<Option<PathBuf>>,
    /// The model, when the catalogue has no errors.
    pub(crate) model: Option<Model>,
    /// The errors, or when there are none, the warnings.
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl Analysis {
    /// The file id of `path`, if it is in this catalogue.
    pub(crate) fn file(&self, path: &Path) -> Option<FileId> {
        let index = self.paths.iter().position(|p| p.as_deref() == Some(path))?;
        u32::try_from(index).ok().map(FileId)
    }

    /// The path of a file id; `None` for a built-in file.
    pub(crate) fn path(&self, file: FileId) -> Option<&Path> {
        self.paths.get(file.index()).and_then(|p| p.as_deref())
    }
}

/// One catalogue: its files and its latest check.
pub(crate) struct Catalogue {
    /// Every `.tool` file under the root, with its current text.
    files: BTreeMap<PathBuf, String>,
    /// The latest check.
    pub(crate) analysis: Analysis,
}

/// Every catalogue with a file open, and the editor's texts.
pub(crate) struct Workspace {
    catalogues: BTreeMap<PathBuf, Catalogue>,
    /// The editor's text of each open file.
    open: HashMap<PathBuf, String>,
    job_tools: bool,
}

impl Workspace {
    pub(crate) fn new(job_tools: bool) -> Self {
        Workspace {
            catalogues: BTreeMap::new(),
            open: HashMap::new(),
            job_tools,
        }
    }

    /// The catalogue `path` belongs to, if it has been loaded.
    pub(crate) fn catalogue_of(&self, path: &Path) -> Option<&Catalogue> {
        self.catalogues.get(&root_of(path))
    }

    /// The catalogue whose root is `root`, if it has been loaded.
    pub(crate) fn catalogue(&self, root: &Path) -> Option<&Catalogue> {
        self.catalogues.get(root)
    }

    /// The editor opened or changed a file: its text replaces the disk's,
    /// and its catalogue is checked again. Returns the catalogue's root.
    pub(crate) fn set_text(&mut self, path: &Path, text: String) -> PathBuf {
        self.open.insert(path.to_owned(), text.clone());
        let root = root_of(path);
        match self.catalogues.get_mut(&root) {
            Some(catalogue) => {
                catalogue.files.insert(path.to_owned(), text);
                catalogue.analysis = analyze(&catalogue.files, self.job_tools);
            }
            None => self.load(&root),
        }
        root
    }

    /// The editor closed a file: the disk's text counts again.
    pub(crate) fn close(&mut self, path: &Path) -> PathBuf {
        self.open.remove(path);
        let root = root_of(path);
        self.load(&root);
        root
    }

    /// Files changed on disk (saved, created, deleted by another program):
    /// their catalogues are read again. Returns the roots reloaded.
    pub(crate) fn disk_changed(&mut self, paths: &[PathBuf]) -> Vec<PathBuf> {
        let mut roots: Vec<PathBuf> = paths.iter().map(|p| root_of(p)).collect();
        roots.sort();
        roots.dedup();
        for root in &roots {
            self.load(root);
        }
        roots
    }

    /// Reads every `.tool` file under `root` (open files from the editor)
    /// and checks them.
    fn load(&mut self, root: &Path) {
        let mut found = Vec::new();
        walk(root, &mut found);
        let mut files = BTreeMap::new();
        for path in found {
            let text = match self.open.get(&path) {
                Some(text) => text.clone(),
                None => match std::fs::read(&path) {
                    Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                    Err(_) => continue,
                },
            };
            files.insert(path, text);
        }
        // Open files not on disk yet (a new, unsaved file) belong too.
        for (path, text) in &self.open {
            if root_of(path) == root {
                files.entry(path.clone()).or_insert_with(|| text.clone());
            }
        }
        let analysis = analyze(&files, self.job_tools);
        self.catalogues
            .insert(root.to_owned(), Catalogue { files, analysis });
    }
}

/// Checks one catalogue's files.
fn analyze(files: &BTreeMap<PathBuf, String>, job_tools: bool) -> Analysis {
    let mut sources = Sources::new();
    let mut paths = Vec::new();
    if job_tools {
        sources.add_job_tools();
        paths.push(None);
    }
    for (path, text) in files {
        sources.add(path.to_string_lossy().into_owned(), text.as_bytes());
        paths.push(Some(path.clone()));
    }
    let (model, diagnostics) = match crate::check_with_warnings(&sources) {
        Ok(checked) => (
            Some(checked.model),
            checked.warnings.iter().cloned().collect(),
        ),
        Err(errors) => (None, errors.iter().cloned().collect()),
    };
    Analysis {
        sources,
        paths,
        model,
        diagnostics,
    }
}

/// The catalogue root of a file: the highest directory above it that holds
/// `.tool` files directly (its own directory at least).
pub(crate) fn root_of(path: &Path) -> PathBuf {
    let Some(mut root) = path.parent().map(Path::to_owned) else {
        return PathBuf::from("/");
    };
    while let Some(parent) = root.parent() {
        if !holds_tool_files(parent) {
            break;
        }
        root = parent.to_owned();
    }
    root
}

fn holds_tool_files(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "tool") && e.path().is_file())
    })
}

/// Every `.tool` file under `dir`, skipping hidden and build directories.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !name.starts_with('.') && !SKIPPED_DIRS.contains(&name.as_ref()) {
                walk(&path, out);
            }
        } else if name.ends_with(".tool") {
            out.push(path);
        }
    }
}
