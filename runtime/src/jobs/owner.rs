//! Who jobs belong to.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The caller a job belongs to: an MCP session, a web client, a HOOT01
/// gateway's caller. A call made with an owner (see
/// [`CallOptions::owned_by`](crate::port::CallOptions::owned_by)) starts jobs
/// that belong to it, and its job tools (`job_status`, `job_list`,
/// `job_poll`, `job_cancel`) see only those: another owner's job is
/// `NOT_FOUND`, as if it did not exist. A call without an owner (a Rust
/// caller of the dispatcher, or a server that opted into shared jobs) sees
/// every job.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Owner(Arc<str>);

/// The longest owner name that travels everywhere an owner does (a HOOT01
/// call body, a Redis key), in bytes.
pub const MAX_OWNER_BYTES: usize = 256;

impl Owner {
    /// An owner named `name`. Two owners with the same name are the same
    /// owner.
    pub fn new(name: &str) -> Self {
        Owner(Arc::from(name))
    }

    /// An owner no other has been given in this process: `prefix-N`.
    pub fn unique(prefix: &str) -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        Owner(Arc::from(format!("{prefix}-{n}")))
    }

    /// Its name, as it travels in a HOOT01 call body.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Owner({})", self.0)
    }
}
