/// Code semantics (HIP-0300 `code`): symbols, not bytes. Backed by a
/// language server where one is available, then tree-sitter, then
/// heuristics; every result is normalised to a `SymbolRef` so it can be
/// fed straight into `fs.read` or `fs.apply_patch`.
category code;

/// Navigate, inspect and refactor code through language servers.
tool code {
    timing async_short
    title "Code intelligence"

    /// Find where the symbol at a position is defined.
    action definition {
        title "Go to definition"
        request DocumentPosition
        response {
            /// Definition sites; several for overloaded or partial declarations.
            locations: list<SymbolRef>,
        }
    }

    /// Find every reference to the symbol at a position.
    @paged
    action references {
        title "Find references"
        request {
            /// File containing the symbol.
            @pattern("^file://")
            uri: string,
            /// Position of the symbol.
            position: Position,
            /// Include the declaration itself among the results.
            include_declaration: bool = true,
            /// Maximum number of references per page.
            @range(1, 5000)
            limit: u32 = 200,
        }
        response {
            /// The references, grouped by file.
            references: list<SymbolRef>,
        }
    }

    /// Rename the symbol at a position everywhere it is used.
    action rename {
        timing async_medium
        title "Rename symbol"
        request {
            /// File containing the symbol.
            @pattern("^file://")
            uri: string,
            /// Position of the symbol.
            position: Position,
            /// The new name.
            @pattern("^[A-Za-z_][A-Za-z0-9_]*$")
            new_name: string,
            /// Compute the edits without applying them.
            dry_run: bool = false,
        }
        response {
            /// One patch per changed file.
            edits: list<FileEdit>,
            /// True when the edits were written to disk.
            applied: bool,
        }
    }

    /// Format a file, or a range of it, with the language's formatter.
    action format {
        title "Format code"
        request {
            /// File to format.
            @pattern("^file://")
            uri: string,
            /// Lines to format; the whole file when omitted.
            range: TextRange?,
            /// Hash the file had when it was read; refuses to format a changed file.
            base_hash: string?,
        }
        response {
            /// True when formatting changed the file.
            changed: bool,
            /// Content hash of the file afterwards.
            hash: string,
        }
    }

    /// Report compiler and linter diagnostics for a file.
    action diagnostics {
        title "Diagnostics"
        request {
            /// File to check.
            @pattern("^file://")
            uri: string,
            /// Only diagnostics at least this severe.
            min_severity: Severity = hint,
        }
        response {
            /// The diagnostics, in source order.
            diagnostics: list<Diagnostic>,
        }
    }

    /// Search for symbols by name.
    @paged
    action search_symbol {
        title "Search symbols"
        request {
            /// Name or fuzzy fragment to look for, e.g. `UserService.auth`.
            @length(1, 256)
            query: string,
            /// Where to look.
            scope: SymbolScope = workspace,
            /// File to search, when `scope` is `file`.
            uri: string?,
            /// Only these kinds of symbol; all kinds when empty.
            kinds: list<SymbolKind> = [],
            /// Maximum number of symbols per page.
            @range(1, 1000)
            limit: u32 = 50,
        }
        response {
            /// The symbols, best match first.
            symbols: list<SymbolRef>,
        }
    }

    /// Show the type and documentation of the symbol at a position.
    action hover {
        timing sync
        title "Hover"
        request DocumentPosition
        response {
            /// Type signature and documentation, as Markdown.
            contents: string,
            /// Span the information applies to.
            range: TextRange?,
        }
    }

    /// Suggest completions at a position.
    action completion {
        timing sync
        title "Complete"
        request {
            /// File being edited.
            @pattern("^file://")
            uri: string,
            /// Cursor position.
            position: Position,
            /// Character that triggered completion, e.g. `.` or `::`.
            trigger: string?,
            /// Maximum number of suggestions.
            @range(1, 500)
            limit: u32 = 50,
        }
        response {
            /// Suggestions, best first.
            items: list<CompletionItem>,
            /// True when the list was cut short and typing more may change it.
            incomplete: bool,
        }
    }

    errors CodeError
}

/// A position in a particular file.
struct DocumentPosition {
    /// The file.
    @pattern("^file://")
    uri: string,
    /// The position within it.
    position: Position,
}

/// A symbol occurrence, normalised across backends.
struct SymbolRef {
    /// File containing the occurrence.
    uri: string,
    /// Span of the occurrence.
    range: TextRange,
    /// The source line(s) around the occurrence.
    snippet: string?,
    /// Stable symbol ID, e.g. `sym:UserService.auth`, when the backend provides one.
    symbol_id: string?,
    /// What kind of symbol it is, when known.
    kind: SymbolKind?,
}

/// A change to one file, as a patch against a known version.
struct FileEdit {
    /// The file to change.
    uri: string,
    /// Hash of the version the patch applies to.
    base_hash: string,
    /// Unified diff.
    patch: string,
}

/// A compiler or linter message.
struct Diagnostic {
    /// Span the message is about.
    range: TextRange,
    /// How serious it is.
    severity: Severity,
    /// The message.
    message: string,
    /// Tool-specific code, e.g. `E0308` or `no-unused-vars`.
    code: string?,
    /// Which tool produced it, e.g. `rustc` or `eslint`.
    source: string?,
}

/// A completion suggestion.
struct CompletionItem {
    /// Text shown in the list.
    label: string,
    /// What kind of symbol it completes to.
    kind: SymbolKind?,
    /// Extra detail such as a type signature.
    detail: string?,
    /// Text to insert, when different from `label`.
    insert_text: string?,
}

/// How serious a diagnostic is, most serious first.
enum Severity {
    /// Prevents building or running.
    error,
    /// Probably a mistake.
    warning,
    /// Worth knowing.
    info,
    /// A suggestion.
    hint,
}

/// Where `search_symbol` looks.
enum SymbolScope {
    /// One file, named by `uri`.
    file,
    /// The workspace's own sources.
    workspace,
    /// The workspace and its dependencies.
    dependencies,
}

/// Kinds of symbol (a subset of the LSP kinds).
enum SymbolKind {
    /// A module or package.
    module,
    /// A namespace.
    namespace,
    /// A class.
    class,
    /// A struct or record type.
    record,
    /// An interface or trait.
    interface,
    /// An enumeration type.
    enumeration,
    /// A member of an enumeration.
    enum_member,
    /// A free function.
    function,
    /// A method.
    method,
    /// A constructor.
    constructor,
    /// A field or property.
    field,
    /// A variable.
    variable,
    /// A constant.
    constant,
    /// A type alias.
    type_alias,
    /// A generic type parameter.
    type_parameter,
}

/// Errors from code actions.
error CodeError {
    /// No language server, tree-sitter grammar or heuristic supports this language.
    no_backend {
        /// The file's language, e.g. `haskell`.
        language: string,
    },
    /// The file does not exist.
    not_found {
        /// The URI that was looked up.
        uri: string,
    },
    /// There is no symbol at the given position.
    no_symbol_at_position {
        /// The position that was given.
        position: Position,
    },
    /// The new name would clash with an existing symbol in scope.
    rename_conflict {
        /// The clashing name.
        name: string,
        /// Where the existing symbol is declared.
        existing: Location,
    },
    /// The file changed since it was read.
    conflict {
        /// The `base_hash` the caller sent.
        expected: string,
        /// The file's current hash.
        actual: string,
    },
    /// The language server crashed or returned an error.
    backend_failed {
        /// The backend, e.g. `rust-analyzer`.
        backend: string,
        /// What it reported.
        message: string,
    },
}
