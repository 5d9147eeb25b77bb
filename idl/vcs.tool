/// Version control (HIP-0300 `vcs`): status, diffs and history of the
/// workspace repository, as a thin layer over git. Diffs are unified
/// patches, so they feed straight into `fs.apply_patch` and `vcs.apply`.
category vcs;

/// Inspect and change the workspace's git repository.
@destructive
tool vcs {
    timing sync
    title "Version control"

    /// Show the current branch and every changed file.
    action status {
        title "Working tree status"
        /// The state of the working tree and its branch.
        response RepoStatus {
            /// Current branch; absent on a detached HEAD.
            branch: string?,
            /// Commit SHA of HEAD.
            head: string,
            /// Commits on this branch not on its upstream.
            ahead: u32,
            /// Commits on the upstream not on this branch.
            behind: u32,
            /// Changed, staged and untracked files.
            files: list<FileChange>,
            /// True when there are no changes at all.
            clean: bool,
        }
    }

    /// Show changes as a unified diff.
    action diff {
        title "Show diff"
        request {
            /// Old side: a commit, branch or tag; the index (or HEAD with `staged`) when omitted.
            from: string?,
            /// New side; the working tree when omitted.
            to: string?,
            /// Diff the index against HEAD instead of the working tree against the index.
            staged: bool = false,
            /// Only these paths; all when empty.
            paths: list<string> = [],
            /// Lines of context around each hunk.
            @range(0, 100)
            context_lines: u32 = 3,
        }
        response {
            /// The unified diff.
            patch: string,
            /// Number of files changed.
            files_changed: u32,
            /// Lines added.
            insertions: u32,
            /// Lines removed.
            deletions: u32,
        }
    }

    /// Apply a unified diff to the working tree (and optionally the index).
    action apply {
        title "Apply patch"
        request {
            /// The unified diff.
            @length(1, 10485760)
            patch: string,
            /// Only check that the patch applies; change nothing.
            check_only: bool = false,
            /// Also stage the changes.
            index: bool = false,
        }
        response {
            /// Paths the patch touched.
            files: list<string>,
        }
    }

    /// Record staged changes, or the given files, as a new commit.
    action commit {
        title "Commit"
        request {
            /// Commit message; the first line is the summary.
            @length(1, 65536)
            message: string,
            /// Stage these paths before committing; commit what is staged when empty.
            files: list<string> = [],
            /// Replace the last commit instead of adding one.
            amend: bool = false,
            /// Author as `Name <email>`; the configured identity when omitted.
            @pattern("^[^<>]+ <[^<>@]+@[^<>]+>$")
            author: string?,
        }
        response {
            /// SHA of the new commit.
            commit: string,
            /// First line of the message.
            summary: string,
        }
    }

    /// List, create or delete branches.
    action branch {
        title "Branches"
        request {
            /// What to do.
            op: BranchOp = list,
            /// Branch to create or delete.
            @pattern("^[A-Za-z0-9._/-]+$")
            name: string?,
            /// Commit the new branch starts at; HEAD when omitted.
            start_point: string?,
            /// Delete even if unmerged.
            force: bool = false,
        }
        response {
            /// Branches after the operation.
            branches: list<BranchInfo>,
            /// The checked-out branch.
            current: string?,
        }
    }

    /// Switch the working tree to a branch or commit.
    action checkout {
        title "Checkout"
        request {
            /// Branch, tag or commit to switch to.
            @length(1, 256)
            ref: string,
            /// Create `ref` as a new branch at HEAD first.
            create: bool = false,
        }
        response {
            /// Commit SHA now checked out.
            head: string,
            /// Branch now checked out; absent on a detached HEAD.
            branch: string?,
        }
    }

    /// Show commit history, newest first.
    action log {
        title "Commit history"
        request {
            /// Maximum number of commits.
            @range(1, 1000)
            limit: u32 = 20,
            /// Only commits touching this path.
            path: string?,
            /// Start from this branch, tag or commit; HEAD when omitted.
            ref: string?,
        }
        response {
            /// The commits, newest first.
            commits: list<CommitInfo>,
        }
    }

    errors VcsError
}

/// A changed path in the working tree or index.
struct FileChange {
    /// Path relative to the repository root.
    path: string,
    /// What happened to it.
    status: ChangeKind,
    /// True when the change is staged.
    staged: bool,
    /// Previous path, for renames and copies.
    old_path: string?,
}

/// What happened to a path.
enum ChangeKind {
    /// Newly added.
    added,
    /// Contents changed.
    modified,
    /// Removed.
    deleted,
    /// Moved from `old_path`.
    renamed,
    /// Copied from `old_path`.
    copied,
    /// Not tracked by git.
    untracked,
    /// Has unresolved merge conflicts.
    conflicted,
}

/// Branch operations.
enum BranchOp {
    /// List branches.
    list,
    /// Create `name` at `start_point`.
    create,
    /// Delete `name`.
    delete,
}

/// A local branch.
struct BranchInfo {
    /// Branch name.
    name: string,
    /// SHA of the branch tip.
    head: string,
    /// Upstream branch, e.g. `origin/main`, when tracked.
    upstream: string?,
}

/// One commit in the history.
struct CommitInfo {
    /// Full commit SHA.
    @pattern("^[0-9a-f]{40}$")
    sha: string,
    /// Author name.
    author: string,
    /// Author email.
    email: string,
    /// Commit time, milliseconds since the Unix epoch.
    committed_at: u64,
    /// First line of the message.
    summary: string,
}

/// Errors from version-control actions.
error VcsError {
    /// The workspace is not inside a git repository.
    not_a_repository {
        /// The directory that was checked.
        path: string,
    },
    /// No branch, tag or commit has this name.
    unknown_ref {
        /// The name that was given.
        ref: string,
    },
    /// There is nothing staged to commit.
    nothing_to_commit,
    /// The patch does not apply to the working tree.
    patch_does_not_apply {
        /// What git reported.
        message: string,
    },
    /// Uncommitted changes would be overwritten by the checkout.
    dirty_worktree {
        /// The paths in the way.
        paths: list<string>,
    },
    /// A branch with this name already exists.
    branch_exists {
        /// The branch name.
        name: string,
    },
    /// The branch has commits not merged anywhere; pass `force` to delete it anyway.
    branch_not_merged {
        /// The branch name.
        name: string,
    },
    /// `create` or `delete` was asked for without a `name`.
    name_required,
}
