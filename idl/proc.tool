/// Processes (HIP-0300 `proc`): the one way to run commands. `exec`
/// streams output while it runs; a command still running after the wait
/// budget moves to the background and keeps its `proc_id` for `logs` and
/// `kill`. Output is kept server-side and referred to by `stdout_ref`.
category proc;

/// Run commands and manage the processes they start.
@destructive @open_world
tool proc {
    timing sync
    title "Processes"

    /// Run a command and wait for it (or for the wait budget), streaming its output.
    action exec {
        timing async_medium
        title "Run command"
        request {
            /// Program to run, or a shell command line when `shell` is set.
            @length(1, 65536)
            command: string,
            /// Arguments passed to the program, without shell interpretation.
            args: list<string> = [],
            /// Shell to run `command` through, e.g. `bash`; runs the program directly when omitted.
            shell: string?,
            /// Working directory; the workspace root when omitted.
            cwd: string?,
            /// Extra environment variables, added to the server's environment.
            env: map<string>?,
            /// Text written to the process's standard input, then closed.
            stdin: string?,
            /// Kill the process after this many milliseconds.
            @range(1000, 86400000)
            timeout_ms: u64 = 600000,
        }
        /// How a process ended and what it printed.
        response ExecResult {
            /// ID of the process, for `logs` and `kill`.
            proc_id: string,
            /// Exit status, once the process has exited normally.
            exit_code: i32?,
            /// Signal that ended the process, e.g. `SIGKILL`.
            signal: string?,
            /// True when the process was killed for exceeding `timeout_ms`.
            timed_out: bool,
            /// True when the process is still running in the background.
            backgrounded: bool,
            /// Handle for the full standard output, e.g. `stdout_ref:proc_123`.
            stdout_ref: string,
            /// Handle for the full standard error.
            stderr_ref: string,
            /// Last lines of standard output.
            stdout_tail: string,
            /// Last lines of standard error.
            stderr_tail: string,
            /// Wall-clock time so far, in milliseconds.
            duration_ms: u64,
        }
    }

    /// List processes started through `exec`.
    action ps {
        title "List processes"
        request {
            /// Only processes whose command line contains this text.
            filter: string?,
            /// Also list processes that have exited.
            include_exited: bool = false,
        }
        response {
            /// The processes, newest first.
            processes: list<ProcInfo>,
        }
    }

    /// Send a signal to a process started through `exec`.
    action kill {
        title "Kill process"
        request {
            /// Process to signal.
            @pattern("^proc_[A-Za-z0-9]+$")
            proc_id: string,
            /// Signal to send.
            signal: Signal = term,
        }
        response {
            /// The process that was signalled.
            proc_id: string,
            /// The process's state after the signal.
            state: ProcState,
        }
    }

    /// Read a process's captured output.
    action logs {
        title "Process output"
        request {
            /// Process whose output to read.
            @pattern("^proc_[A-Za-z0-9]+$")
            proc_id: string,
            /// Only this channel; both when omitted.
            channel: OutputChannel?,
            /// Only the last this-many lines.
            @range(1, 100000)
            tail: u32?,
            /// Only lines written at or after this time, milliseconds since the Unix epoch.
            since: u64?,
        }
        response {
            /// The lines, in the order they were written.
            lines: list<LogLine>,
            /// True when older lines were dropped from the server's buffer.
            truncated: bool,
        }
    }

    stream ProcOutput
    errors ProcError
}

/// A process started through `exec`.
struct ProcInfo {
    /// Process ID within the tool server, e.g. `proc_123`.
    proc_id: string,
    /// Operating-system process ID.
    pid: u32,
    /// The command line.
    command: string,
    /// Current state.
    state: ProcState,
    /// When it started, milliseconds since the Unix epoch.
    started_at: u64,
    /// Exit status, once it has exited.
    exit_code: i32?,
}

/// Lifecycle of a process.
enum ProcState {
    /// Still running.
    running,
    /// Exited on its own.
    exited,
    /// Ended by a signal.
    killed,
    /// Killed for exceeding its timeout.
    timed_out,
}

/// Signals `kill` can send.
enum Signal {
    /// SIGTERM: ask to terminate.
    term,
    /// SIGINT: interrupt, as Ctrl-C does.
    int,
    /// SIGHUP: hang up; many daemons reload their configuration.
    hup,
    /// SIGKILL: terminate immediately; cannot be caught.
    kill,
}

/// Output channels of a process.
enum OutputChannel {
    /// Standard output.
    stdout,
    /// Standard error.
    stderr,
}

/// One line of captured output.
struct LogLine {
    /// Channel the line was written to.
    channel: OutputChannel,
    /// The line, without its newline.
    text: string,
    /// When the line was written, milliseconds since the Unix epoch.
    written_at: u64,
}

/// Output streamed by `exec` while the process runs.
union ProcOutput {
    /// Bytes written to standard output.
    stdout {
        /// The bytes, as written.
        data: bytes,
    },
    /// Bytes written to standard error.
    stderr {
        /// The bytes, as written.
        data: bytes,
    },
    /// The wait budget ran out; the process continues in the background.
    backgrounded {
        /// ID for `logs` and `kill`.
        proc_id: string,
    },
    /// The process ended.
    exited {
        /// Exit status, when it exited normally.
        exit_code: i32?,
        /// Signal that ended it, when one did.
        signal: string?,
    },
}

/// Errors from process actions.
error ProcError {
    /// The program is not on the PATH.
    command_not_found {
        /// The program that was looked for.
        command: string,
    },
    /// The working directory does not exist.
    cwd_not_found {
        /// The directory that was given.
        cwd: string,
    },
    /// No process has this ID.
    not_found {
        /// The process ID that was looked up.
        proc_id: string,
    },
    /// The process has already exited.
    already_exited {
        /// The process.
        proc_id: string,
        /// Its exit status.
        exit_code: i32?,
    },
    /// The server's policy forbids this command.
    blocked_by_policy {
        /// Which rule forbids it.
        reason: string,
    },
    /// The operating system refused to start the process.
    spawn_failed {
        /// What the OS reported.
        message: string,
    },
}
