/// Jobs: every asynchronous or fire-and-forget tool call runs as a job.
/// Check on one, list them by state, wait for several, or cancel one.
/// These tools never create jobs themselves; they answer at once.
category jobs;

/// Report one job's state, timing and (when finished) result.
@read_only @idempotent
tool job_status {
    timing sync
    title "Job status"
    request JobRef
    response JobInfo
    errors JobError
}

/// List jobs, newest first, optionally only those in one state.
@read_only @idempotent
tool job_list {
    timing sync
    title "List jobs"
    request {
        /// Only jobs in this state, e.g. `failed` to see what went wrong.
        state: JobState?,
        /// Only jobs started by this tool.
        tool_name: string?,
        /// Maximum number of jobs to return.
        @range(1, 1000)
        limit: u32 = 100,
    }
    response {
        /// The matching jobs, newest first.
        jobs: list<JobInfo>,
        /// Number of matching jobs, including any beyond `limit`.
        total: u32,
        /// How many jobs the server holds in each state.
        by_state: JobCounts,
    }
}

/// Wait until jobs finish or the timeout passes, whichever comes first.
@read_only @idempotent
tool job_poll {
    timing sync
    title "Wait for jobs"
    request {
        /// Jobs to wait for; empty waits on every pending or running job.
        @length(0, 100)
        job_ids: list<string> = [],
        /// Longest time to wait, in milliseconds (0 checks once and returns).
        @range(0, 300000)
        timeout_ms: u64 = 5000,
        /// Return when any job finishes, or only when all have.
        mode: PollMode = any,
    }
    response {
        /// Jobs that completed successfully.
        completed: list<string>,
        /// Jobs that failed or were cancelled.
        failed: list<string>,
        /// Jobs still pending or running.
        pending: list<string>,
        /// True when the wait ended because of the timeout.
        timed_out: bool,
        /// How long the call waited, in milliseconds.
        elapsed_ms: u64,
    }
    errors JobError
}

/// Cancel a job; its handler is stopped, not just forgotten.
@destructive @idempotent
tool job_cancel {
    timing sync
    title "Cancel job"
    request JobRef
    response {
        /// The job that was cancelled.
        job_id: string,
        /// False when the job had already finished before the request.
        cancelled: bool,
        /// The job's state after the request.
        state: JobState,
    }
    errors JobError
}

/// Names one job.
struct JobRef {
    /// Job ID as returned when the job started, e.g. `job_8f2k1c`.
    @pattern("^job_[A-Za-z0-9]+$")
    job_id: string,
}

/// Where a job is in its life.
enum JobState {
    /// Accepted, waiting for a worker.
    pending,
    /// A worker is running it.
    running,
    /// Finished successfully; the result is available.
    complete,
    /// Finished with an error.
    failed,
    /// Stopped by `job_cancel` or by shutdown.
    cancelled,
}

/// What `job_poll` waits for.
enum PollMode {
    /// Return as soon as any one job finishes.
    any,
    /// Return only when every job has finished.
    all,
}

/// Everything known about one job.
struct JobInfo {
    /// Job ID.
    job_id: string,
    /// Name of the tool the job runs, e.g. `orpheus_generate`.
    tool_name: string,
    /// Current state.
    state: JobState,
    /// Progress from 0 to 1, for tools that report it.
    @range(0.0, 1.0)
    progress: f32?,
    /// When the job was accepted, milliseconds since the Unix epoch.
    created_at: u64,
    /// When a worker started it, milliseconds since the Unix epoch.
    started_at: u64?,
    /// When it finished, milliseconds since the Unix epoch.
    completed_at: u64?,
    /// The tool's response, once the job is complete.
    result: json?,
    /// Error code from the tool's error type, once the job has failed, e.g. `GPU_OUT_OF_MEMORY`.
    error_code: string?,
    /// Human-readable error message, once the job has failed.
    error: string?,
}

/// Number of jobs in each state.
struct JobCounts {
    /// Jobs waiting for a worker.
    pending: u32,
    /// Jobs running now.
    running: u32,
    /// Jobs finished successfully.
    complete: u32,
    /// Jobs finished with an error.
    failed: u32,
    /// Jobs cancelled.
    cancelled: u32,
}

/// Errors from the job tools.
error JobError {
    /// No job has this ID, or it expired after its time-to-live.
    not_found {
        /// The job ID that was looked up.
        job_id: string,
    },
    /// A job ID in the request is malformed.
    invalid_job_id {
        /// The malformed ID.
        job_id: string,
    },
    /// The job store cannot be reached (Redis is down, say); retry once
    /// it is back.
    unavailable {
        /// What the store said.
        reason: string,
    },
}

/// Where a page of a `@paged` tool ends. Every paged response has it as
/// its `paging` field.
struct Paging {
    /// Pass it as the next call's `cursor`, with the same arguments, to get
    /// the next page; absent on the last page. Opaque: the server signs it
    /// and refuses one it did not issue for this query (`INVALID_CURSOR`).
    cursor: string?,
    /// True when another page follows.
    more: bool,
}
