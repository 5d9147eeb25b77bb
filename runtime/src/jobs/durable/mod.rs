//! Jobs that outlive the process. A [`JobStore`](super::JobStore) given a
//! [`JobBackend`] writes each job there when it is created and when it
//! finishes; a new store reads them back: a finished job keeps its result
//! or failure until its time-to-live, and a job that was still pending or
//! running when the process stopped is reported failed with the code
//! `INTERRUPTED`, never silently gone.

#[cfg(feature = "durable")]
mod redb_jobs;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ToolError;
use crate::jobs::JobState;

#[cfg(feature = "durable")]
pub use redb_jobs::RedbJobs;

/// The code of a job the process stopped while it was pending or running.
pub const INTERRUPTED: &str = "INTERRUPTED";

/// Where a job store keeps its jobs across restarts. Writes come from one
/// background thread, in the order the jobs changed; `load` is called once,
/// when a store is made.
pub trait JobBackend: Send + 'static {
    /// Writes `job` (replacing an earlier write of the same id).
    ///
    /// # Errors
    /// When it could not be written; the store goes on in memory.
    fn put(&mut self, job: &StoredJob) -> Result<(), BackendError>;

    /// Forgets jobs that expired.
    ///
    /// # Errors
    /// When they could not be removed.
    fn remove(&mut self, job_ids: &[String]) -> Result<(), BackendError>;

    /// Every job written and not removed.
    ///
    /// # Errors
    /// When they could not be read.
    fn load(&mut self) -> Result<Vec<StoredJob>, BackendError>;
}

/// One job as a backend keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredJob {
    /// Its id.
    pub job_id: String,
    /// The tool it runs.
    pub tool: String,
    /// Who started it (see [`Owner`](super::Owner)).
    pub owner: Option<String>,
    /// Its state when written.
    pub state: JobState,
    /// When it was created, in Unix milliseconds.
    pub created_at: u64,
    /// When it finished.
    pub completed_at: Option<u64>,
    /// The response, MsgPack-encoded, when it completed and no caller took
    /// it inline.
    pub result: Option<Vec<u8>>,
    /// The error it failed with.
    pub error: Option<ToolError>,
}

/// A backend that failed to read or write.
#[derive(Debug)]
pub struct BackendError(pub String);

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the job store on disk: {}", self.0)
    }
}

impl std::error::Error for BackendError {}
