//! Source files, byte spans, and the line/column arithmetic behind diagnostics.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The largest `.tool` file the frontend reads (8 MiB). A catalogue is prose
/// plus declarations; anything larger is a mistake, not an IDL file.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Identifies one file in a [`Sources`] set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub(crate) u32);

impl FileId {
    /// The file's position in its [`Sources`] set.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A half-open byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// The file the span points into.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    pub(crate) fn new(file: FileId, start: usize, end: usize) -> Self {
        // Files are capped at MAX_FILE_BYTES, so offsets always fit in u32.
        Span {
            file,
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        }
    }

    /// The smallest span covering both `self` and `other` (same file).
    pub(crate) fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// The byte range, for slicing the file text.
    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The bytes `part` of a string literal's value `value` covers, when
    /// this span is the literal (quotes included) and it holds no escapes
    /// (its text is then the value: every escape is longer than what it
    /// stands for); else the whole literal. For a caret under the culprit
    /// of a pattern or a URI.
    pub(crate) fn in_literal(self, value: &str, part: Range<usize>) -> Span {
        let quoted = (self.end - self.start) as usize;
        if quoted != value.len() + 2 || part.start >= part.end || part.end > value.len() {
            return self;
        }
        let offset = |n: usize| self.start + 1 + u32::try_from(n).unwrap_or(0);
        Span {
            file: self.file,
            start: offset(part.start),
            end: offset(part.end),
        }
    }
}

/// One loaded `.tool` file.
#[derive(Debug)]
pub struct SourceFile {
    name: String,
    path: Option<PathBuf>,
    text: String,
    line_starts: Vec<usize>,
    /// Set when the bytes were not UTF-8: the offset of the first bad byte.
    invalid_utf8_at: Option<usize>,
    /// True for a file built into the generator (the job tools).
    builtin: bool,
}

impl SourceFile {
    /// The name diagnostics print (the path as the user gave it).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The path on disk, if the file came from disk.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// True for a file built into the generator, such as the job tools'
    /// `<builtin>/jobs.tool` (see [`Sources::add_job_tools`]).
    pub fn is_builtin(&self) -> bool {
        self.builtin
    }

    /// The file's text (invalid UTF-8 sequences replaced by U+FFFD).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The file name without directory and extension: the default category.
    pub fn stem(&self) -> &str {
        let base = self.name.rsplit(['/', '\\']).next().unwrap_or(&self.name);
        base.strip_suffix(".tool").unwrap_or(base)
    }

    pub(crate) fn invalid_utf8_at(&self) -> Option<usize> {
        self.invalid_utf8_at
    }

    fn line_index(&self, byte: usize) -> usize {
        match self.line_starts.binary_search(&byte) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// The byte offset of a 1-based line and column (in characters): the
    /// inverse of [`SourceFile::line_col`], clamped to the file.
    pub fn offset(&self, line: usize, column: usize) -> usize {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return self.text.len();
        };
        let rest = &self.text[start..];
        start
            + rest
                .char_indices()
                .nth(column.saturating_sub(1))
                .map_or(rest.len(), |(i, _)| i)
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, byte: usize) -> (usize, usize) {
        let byte = byte.min(self.text.len());
        let line = self.line_index(byte);
        let start = self.line_starts[line];
        let column = self
            .text
            .get(start..byte)
            .map_or(byte - start, |s| s.chars().count());
        (line + 1, column + 1)
    }
}

/// Where a declaration sits, as people count: file, 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    /// Index of the file in the model's `files`.
    pub file: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// The set of files one check or generation run reads.
#[derive(Debug, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
    /// Directories searched for `.tool` files, for build scripts' rerun checks.
    dirs: Vec<PathBuf>,
    /// Files a `.tool` file names (an `@app` page), given from memory
    /// rather than read from disk: by the path the checker resolves.
    attached: std::collections::HashMap<PathBuf, Vec<u8>>,
}

/// A file or directory that could not be read.
#[derive(Debug)]
pub struct LoadError {
    /// The path that failed.
    pub path: PathBuf,
    /// What went wrong.
    pub kind: LoadErrorKind,
}

/// Why a path could not be loaded.
#[derive(Debug)]
pub enum LoadErrorKind {
    /// The operating system refused.
    Io(std::io::Error),
    /// The file exceeds [`MAX_FILE_BYTES`].
    TooLarge(u64),
    /// A directory held no `.tool` file.
    NoToolFiles,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.kind {
            LoadErrorKind::Io(e) => write!(f, "cannot read `{path}`: {e}"),
            LoadErrorKind::TooLarge(n) => write!(
                f,
                "`{path}` is {n} bytes; IDL files are limited to {MAX_FILE_BYTES} bytes"
            ),
            LoadErrorKind::NoToolFiles => write!(f, "`{path}` contains no `.tool` files"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            LoadErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl Sources {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file from memory. Invalid UTF-8 is kept (lossily) and reported
    /// by the checker with its position, so one bad byte does not hide the
    /// rest of the file's diagnostics.
    pub fn add(&mut self, name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> FileId {
        self.push(name.into(), None, bytes.into(), false)
    }

    /// Adds a file from memory under `name` (what diagnostics print), as if
    /// read from `path`: the files it names by a relative path (an
    /// `@app("apps/view.html")`) are found beside `path`. For callers that
    /// name files independently of where they are (tests, snapshots).
    pub fn add_at(
        &mut self,
        name: impl Into<String>,
        path: impl Into<PathBuf>,
        bytes: impl Into<Vec<u8>>,
    ) -> FileId {
        self.push(name.into(), Some(path.into()), bytes.into(), false)
    }

    /// Gives the bytes of a file a `.tool` file names by a relative path
    /// (an `@app("apps/view.html")`), found at `path` — the `.tool` file's
    /// own path or name joined with the relative one — instead of on disk:
    /// for sources that are not on disk either (`toolwright diff
    /// --against`, which reads a git revision).
    pub fn attach(&mut self, path: impl Into<PathBuf>, bytes: impl Into<Vec<u8>>) {
        self.attached.insert(path.into(), bytes.into());
    }

    /// The bytes attached at `path`, if any.
    pub(crate) fn attached(&self, path: &Path) -> Option<&[u8]> {
        self.attached.get(path).map(Vec::as_slice)
    }

    /// Adds the job tools (`job_status`, `job_list`, `job_poll`,
    /// `job_cancel`) that every catalogue serves, from the `.tool` file built
    /// into the generator, named `<builtin>/jobs.tool` in diagnostics. Add it
    /// before the user's files: a user's tool or type that clashes with it is
    /// then reported in the user's file, with the built-in one shown beside.
    pub fn add_job_tools(&mut self) -> FileId {
        self.push(
            crate::builtin::JOBS_NAME.to_owned(),
            None,
            crate::builtin::JOBS.as_bytes().to_vec(),
            true,
        )
    }

    fn push(
        &mut self,
        name: String,
        path: Option<PathBuf>,
        bytes: Vec<u8>,
        builtin: bool,
    ) -> FileId {
        let (text, invalid_utf8_at) = match String::from_utf8(bytes) {
            Ok(text) => (text, None),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                (String::from_utf8_lossy(e.as_bytes()).into_owned(), Some(at))
            }
        };
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let id = FileId(u32::try_from(self.files.len()).expect("fewer than 2^32 files"));
        self.files.push(SourceFile {
            name,
            path,
            text,
            line_starts,
            invalid_utf8_at,
            builtin,
        });
        id
    }

    /// Loads `.tool` files: each path is a file, or a directory searched
    /// recursively. Files are ordered by path so every run sees the same order.
    pub fn load<P: AsRef<Path>>(paths: &[P]) -> Result<Sources, LoadError> {
        let mut sources = Sources::new();
        sources.load_paths(paths)?;
        Ok(sources)
    }

    /// Adds `.tool` files to the set, as [`Sources::load`] reads them: each
    /// path is a file, or a directory searched recursively; files are added
    /// in path order, each once.
    pub fn load_paths<P: AsRef<Path>>(&mut self, paths: &[P]) -> Result<(), LoadError> {
        let mut found = Vec::new();
        for path in paths {
            let path = path.as_ref();
            let meta = std::fs::metadata(path).map_err(|e| io_error(path, e))?;
            if meta.is_dir() {
                let before = found.len();
                collect_tool_files(path, &mut found, &mut self.dirs)?;
                if found.len() == before {
                    return Err(LoadError {
                        path: path.to_owned(),
                        kind: LoadErrorKind::NoToolFiles,
                    });
                }
            } else {
                found.push(path.to_owned());
            }
        }
        found.sort();
        // The same file named twice (`idl` and `./idl/abc.tool`) is read once.
        let mut seen = std::collections::HashSet::new();
        for path in found {
            let key = std::fs::canonicalize(&path).map_err(|e| io_error(&path, e))?;
            if seen.insert(key) {
                self.load_file(&path)?;
            }
        }
        Ok(())
    }

    /// Loads one file from disk.
    pub fn load_file(&mut self, path: &Path) -> Result<FileId, LoadError> {
        let meta = std::fs::metadata(path).map_err(|e| io_error(path, e))?;
        if meta.len() > MAX_FILE_BYTES {
            return Err(LoadError {
                path: path.to_owned(),
                kind: LoadErrorKind::TooLarge(meta.len()),
            });
        }
        let bytes = std::fs::read(path).map_err(|e| io_error(path, e))?;
        let name = path.to_string_lossy().replace('\\', "/");
        Ok(self.push(name, Some(path.to_owned()), bytes, false))
    }

    /// Every directory [`Sources::load`] or [`Sources::load_paths`] searched,
    /// subdirectories included: a build script watches them so that a new
    /// `.tool` file reruns it.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The file with this id.
    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.index()]
    }

    /// Every file, in load order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(u32::try_from(i).unwrap_or(u32::MAX)), f))
    }

    /// Number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// True when no file is loaded.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The text a span covers.
    pub fn snippet(&self, span: Span) -> &str {
        self.get(span.file).text().get(span.range()).unwrap_or("")
    }

    /// The span of the name that starts at `location` (an identifier, a
    /// string literal on one line with its quotes, or one character):
    /// where a model item's diagnostics point.
    pub fn name_span(&self, location: Location) -> Span {
        let Some(file) = u32::try_from(location.file)
            .ok()
            .map(FileId)
            .filter(|f| f.index() < self.files.len())
        else {
            return Span::new(FileId(0), 0, 0);
        };
        let text = self.get(file).text();
        let start = self.get(file).offset(location.line, location.column);
        let rest = &text[start..];
        // A string names a scope (`@scopes("cas:read")`); it holds no `"`
        // or `\` once checked, so its end is the next quote.
        let quoted = rest
            .strip_prefix('"')
            .and_then(|inner| inner.split('\n').next()?.find('"'))
            .map(|end| end + 2);
        let len = quoted.unwrap_or_else(|| {
            rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())
                .max(rest.chars().next().map_or(0, char::len_utf8))
        });
        Span::new(file, start, start + len)
    }

    /// The location of a span's first byte.
    pub fn location(&self, span: Span) -> Location {
        let (line, column) = self.get(span.file).line_col(span.start as usize);
        Location {
            file: span.file.index(),
            line,
            column,
        }
    }
}

fn io_error(path: &Path, e: std::io::Error) -> LoadError {
    LoadError {
        path: path.to_owned(),
        kind: LoadErrorKind::Io(e),
    }
}

fn collect_tool_files(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    dirs: &mut Vec<PathBuf>,
) -> Result<(), LoadError> {
    dirs.push(dir.to_owned());
    let entries = std::fs::read_dir(dir).map_err(|e| io_error(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| io_error(dir, e))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| io_error(&path, e))?;
        if kind.is_dir() {
            collect_tool_files(&path, out, dirs)?;
        } else if path.extension().is_some_and(|ext| ext == "tool") {
            out.push(path);
        }
    }
    Ok(())
}

// codespan-reporting renders snippets from any `Files`; implementing it here
// keeps one file table for parsing, the model's locations and rendering.
impl<'a> codespan_reporting::files::Files<'a> for Sources {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.get(id).name())
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.get(id).text())
    }

    fn line_index(
        &'a self,
        id: FileId,
        byte: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.get(id).line_index(byte.min(self.get(id).text.len())))
    }

    fn line_range(
        &'a self,
        id: FileId,
        line_index: usize,
    ) -> Result<Range<usize>, codespan_reporting::files::Error> {
        let file = self.get(id);
        let start = *file.line_starts.get(line_index).ok_or(
            codespan_reporting::files::Error::LineTooLarge {
                given: line_index,
                max: file.line_starts.len() - 1,
            },
        )?;
        let end = file
            .line_starts
            .get(line_index + 1)
            .copied()
            .unwrap_or(file.text.len());
        Ok(start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_characters_from_one() {
        let mut s = Sources::new();
        let id = s.add("a.tool", "ab\nçd\n");
        let f = s.get(id);
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        // `ç` is two bytes, one column.
        assert_eq!(f.line_col(5), (2, 2));
        assert_eq!(f.line_col(100), (3, 1));
    }

    #[test]
    fn a_name_span_covers_an_identifier_or_a_quoted_string() {
        let mut s = Sources::new();
        s.add("a.tool", "tool cas_get {}\n@scopes(\"cas:read\")\n\"open\n");
        let at = |line, column| Location {
            file: 0,
            line,
            column,
        };
        assert_eq!(s.snippet(s.name_span(at(1, 6))), "cas_get");
        assert_eq!(s.snippet(s.name_span(at(2, 9))), "\"cas:read\"");
        assert_eq!(s.snippet(s.name_span(at(3, 1))), "\"", "an unclosed quote");
    }

    #[test]
    fn invalid_utf8_is_kept_and_located() {
        let mut s = Sources::new();
        let id = s.add("a.tool", b"ok\xff".to_vec());
        assert_eq!(s.get(id).invalid_utf8_at(), Some(2));
        assert_eq!(s.get(id).stem(), "a");
    }
}
