/// Workspace (HIP-0300 `ws`): what project the agent is standing in and
/// which backends the other workspace tools can use there. Call `detect`
/// first; its answer tells you how `code`, `test` and `vcs` will behave.
category ws;

/// Detect the project and the capabilities available in it.
@read_only @idempotent
tool ws {
    title "Workspace"

    /// Find the project root and identify its languages, build, tests and VCS.
    action detect {
        timing async_short
        title "Detect project"
        request {
            /// Where to start looking; the server's working directory when omitted.
            @pattern("^file://")
            uri: string?,
        }
        /// What kind of project the workspace holds and how to work with it.
        response WorkspaceInfo {
            /// Project root directory.
            root: string,
            /// Languages found, most used first, e.g. `rust`, `typescript`.
            languages: list<string>,
            /// Build system, e.g. `cargo` or `npm`, when one was found.
            build: string?,
            /// Test framework, e.g. `pytest`, when one was found.
            test: string?,
            /// Version control system, e.g. `git`, when the root is under one.
            vcs: string?,
            /// Backends serving each language, keyed by language.
            backends: map<string>,
        }
    }

    /// List the backends available to the workspace tools.
    action capabilities {
        timing sync
        title "Capabilities"
        response {
            /// Language server for each language, keyed by language, e.g. `rust` to `rust-analyzer`.
            lsp: map<string>,
            /// Languages with a tree-sitter grammar, for symbol search without a language server.
            tree_sitter: list<string>,
            /// Version control system, when the workspace is under one.
            vcs: string?,
            /// Text search backend, e.g. `ripgrep`.
            text_search: string,
            /// True when a display is available for `ui`.
            ui: bool,
        }
    }

    errors WsError
}

/// Errors from workspace actions.
error WsError {
    /// No project markers (VCS directory, build file) were found above the start directory.
    not_a_workspace {
        /// The directory the search started from.
        uri: string,
    },
    /// The caller may not read the directory.
    permission_denied {
        /// The protected directory.
        uri: string,
    },
}
