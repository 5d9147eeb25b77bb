/// Filesystem (HIP-0300 `fs`): bytes and paths. Files are named by
/// `file://` URIs and versioned by content hash; `apply_patch` with a
/// `base_hash` is the only way to change an existing file, so stale edits
/// fail with `CONFLICT` instead of overwriting someone else's work.
/// Also home to the position and range types every workspace tool shares.
category fs;

/// Read, create, inspect, list, patch, search and diff files.
@destructive
tool fs {
    timing sync
    title "Filesystem"

    /// Read a text file, or a range of lines from it.
    action read {
        title "Read file"
        request {
            /// File to read.
            @pattern("^file://")
            uri: string,
            /// Lines to read; the whole file when omitted.
            range: TextRange?,
            /// Text encoding of the file.
            encoding: TextEncoding = utf8,
        }
        response {
            /// The text that was read.
            text: string,
            /// Content hash of the whole file, for a later `apply_patch`.
            hash: string,
            /// Number of lines in the whole file.
            total_lines: u32,
            /// True when the text was cut at the server's size limit.
            truncated: bool,
        }
    }

    /// Create a new file; fails if it already exists (use `apply_patch` to edit).
    action write {
        title "Create file"
        request {
            /// File to create.
            @pattern("^file://")
            uri: string,
            /// Full text of the new file.
            content: string,
            /// Create missing parent directories.
            create_parents: bool = false,
        }
        response {
            /// Content hash of the new file.
            hash: string,
            /// Size of the new file in bytes.
            size: u64,
        }
    }

    /// Describe a file or directory without reading it.
    action stat {
        title "File metadata"
        request {
            /// File or directory to describe.
            @pattern("^file://")
            uri: string,
        }
        response FileStat
    }

    /// List a directory, optionally recursively and filtered by a glob.
    @paged
    action list {
        title "List directory"
        request {
            /// Directory to list.
            @pattern("^file://")
            uri: string,
            /// How many levels to descend; 1 lists only direct children.
            @range(1, 32)
            depth: u32 = 1,
            /// Glob the entry paths must match, e.g. `**/*.rs`.
            pattern: string?,
            /// Include entries whose names start with a dot.
            include_hidden: bool = false,
            /// Maximum number of entries per page.
            @range(1, 10000)
            limit: u32 = 500,
        }
        response {
            /// The entries, in path order.
            entries: list<FileStat>,
        }
    }

    /// Create a directory.
    action mkdir {
        title "Make directory"
        request {
            /// Directory to create.
            @pattern("^file://")
            uri: string,
            /// Also create missing parents; succeed if it already exists.
            parents: bool = true,
        }
    }

    /// Remove a file or directory; needs `confirm: true`.
    action rm {
        title "Remove"
        request {
            /// File or directory to remove.
            @pattern("^file://")
            uri: string,
            /// Must be true; guards against accidental removal.
            confirm: bool,
            /// Remove a directory and everything under it.
            recursive: bool = false,
        }
    }

    /// Apply a unified diff to a file whose current hash matches `base_hash`.
    action apply_patch {
        title "Patch file"
        request {
            /// File to patch.
            @pattern("^file://")
            uri: string,
            /// Unified diff to apply.
            @length(1, 10485760)
            patch: string,
            /// Hash the file had when it was read; the patch fails with `CONFLICT` if it changed since.
            @pattern("^sha256:[0-9a-f]{64}$")
            base_hash: string,
        }
        response {
            /// Content hash of the patched file.
            hash: string,
            /// Number of hunks applied.
            hunks_applied: u32,
        }
    }

    /// Search file contents for text or a regular expression (ripgrep).
    @paged
    action search_text {
        timing async_short
        title "Search text"
        request {
            /// Text or regular expression to look for.
            @length(1, 1000)
            pattern: string,
            /// Directory or file to search; the workspace root when omitted.
            path: string?,
            /// Treat `pattern` as a regular expression rather than literal text.
            regex: bool = false,
            /// Match case exactly.
            case_sensitive: bool = false,
            /// Globs limiting which files are searched, e.g. `*.py`.
            globs: list<string> = [],
            /// Lines of context to include around each match.
            @range(0, 20)
            context_lines: u32 = 0,
            /// Maximum number of matches per page.
            @range(1, 10000)
            limit: u32 = 200,
        }
        response {
            /// The matches, grouped by file in path order.
            matches: list<TextMatch>,
        }
    }

    /// Diff two versions of content by their hashes.
    action diff {
        title "Diff contents"
        request {
            /// Hash of the old version.
            @pattern("^sha256:[0-9a-f]{64}$")
            hash_a: string,
            /// Hash of the new version.
            @pattern("^sha256:[0-9a-f]{64}$")
            hash_b: string,
            /// Lines of context around each hunk.
            @range(0, 100)
            context_lines: u32 = 3,
        }
        response {
            /// Unified diff from `hash_a` to `hash_b`; empty when identical.
            patch: string,
            /// True when the two versions are the same.
            identical: bool,
        }
    }

    errors FsError
}

/// A position in a text file: 0-based line and column.
struct Position {
    /// Line, counting from 0.
    line: u32,
    /// Column in UTF-8 bytes, counting from 0.
    col: u32,
}

/// A span of text from `start` (inclusive) to `end` (exclusive).
struct TextRange {
    /// First position in the span.
    start: Position,
    /// Position just after the span.
    end: Position,
}

/// A span of text in a particular file.
struct Location {
    /// The file.
    uri: string,
    /// The span within it.
    range: TextRange,
}

/// Metadata of a file or directory.
struct FileStat {
    /// The entry's URI.
    uri: string,
    /// What kind of entry it is.
    type: FileKind,
    /// Size in bytes (0 for directories).
    size: u64,
    /// Content hash, for regular files, e.g. `sha256:9f86…`.
    hash: string?,
    /// Last modification time, milliseconds since the Unix epoch.
    modified_at: u64,
    /// True when the caller may not write it.
    readonly: bool,
}

/// Kinds of filesystem entry.
enum FileKind {
    /// A regular file.
    file,
    /// A directory.
    directory,
    /// A symbolic link (not followed).
    symlink,
    /// A device, socket or pipe.
    other,
}

/// Text encodings `fs.read` can decode.
enum TextEncoding {
    /// UTF-8 (invalid sequences are replaced).
    utf8,
    /// UTF-16, little-endian.
    utf16le,
    /// ISO-8859-1.
    latin1,
}

/// One search hit.
struct TextMatch {
    /// File containing the match.
    uri: string,
    /// Span of the match.
    range: TextRange,
    /// The matching line, with context lines when requested.
    snippet: string,
}

/// Errors from filesystem actions (HIP-0300 error codes).
error FsError {
    /// Nothing exists at this URI.
    not_found {
        /// The URI that was looked up.
        uri: string,
    },
    /// `write` was asked to create a file that already exists.
    already_exists {
        /// The existing file.
        uri: string,
    },
    /// The caller may not read or write this path.
    permission_denied {
        /// The protected path.
        uri: string,
    },
    /// The file changed since it was read: its hash no longer matches `base_hash`.
    conflict {
        /// The `base_hash` the caller sent.
        expected: string,
        /// The file's current hash.
        actual: string,
    },
    /// A hunk of the patch does not match the file.
    patch_failed {
        /// Number of the failing hunk, counting from 1.
        hunk: u32,
        /// Why it does not apply.
        message: string,
    },
    /// `rm` was called without `confirm: true`.
    confirmation_required,
    /// A directory was given where a file is needed, or the reverse.
    wrong_kind {
        /// The path.
        uri: string,
        /// What the path actually is.
        actual: FileKind,
    },
    /// The file is not valid text in the requested encoding.
    binary_file {
        /// The file.
        uri: string,
    },
    /// The URI is not a `file://` URI inside the workspace.
    invalid_uri {
        /// The rejected URI.
        uri: string,
    },
    /// The search pattern is not a valid regular expression.
    invalid_pattern {
        /// What the regex parser reported.
        message: string,
    },
}
