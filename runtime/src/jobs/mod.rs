//! The built-in job tools (`job_status`, `job_list`, `job_poll`,
//! `job_cancel`): their types, generated from the runtime's own `jobs.tool`,
//! and the calls the dispatcher answers itself.

mod owner;
pub mod records;
mod store;
pub(crate) mod tools;
mod types;

pub use owner::{MAX_OWNER_BYTES, Owner};
#[cfg(feature = "durable")]
pub use records::RedbJobs;
#[cfg(feature = "redis")]
pub use records::RedisJobs;
pub use records::{INTERRUPTED, JobRecords, MemoryJobs, open};
#[cfg(feature = "hoot")]
pub(crate) use store::periodically;
pub use store::{JobEvent, JobStore};
pub(crate) use store::{Outcome, StoreConfig};
pub use types::*;

/// A call of a built-in job tool, taken out of a catalogue's `ToolRequest`.
#[derive(Clone, Debug, PartialEq)]
pub enum JobCall {
    /// `job_status`
    Status(JobRef),
    /// `job_list`
    List(JobListRequest),
    /// `job_poll`
    Poll(JobPollRequest),
    /// `job_cancel`
    Cancel(JobRef),
}

/// The answer to a [`JobCall`], put back into a catalogue's `ToolResponse`.
#[derive(Clone, Debug, PartialEq)]
pub enum JobReply {
    /// `job_status`
    Status(JobInfo),
    /// `job_list`
    List(JobListResponse),
    /// `job_poll`
    Poll(JobPollResponse),
    /// `job_cancel`
    Cancel(JobCancelResponse),
}
