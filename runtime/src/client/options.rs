//! `BatchOptions`: how a batch runs.

use std::num::NonZeroUsize;
use std::time::Duration;

/// How [`Client::call_tools`](super::Client::call_tools) runs a batch.
///
/// Defaults: sequential, at most 8 calls in flight when parallel, a 30 s
/// timeout for the whole batch.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BatchOptions {
    /// Run the calls concurrently rather than one after the other.
    pub parallel: bool,
    /// The most calls in flight at once when `parallel`.
    pub max_concurrency: NonZeroUsize,
    /// The time the whole batch may take. A call without an answer by then
    /// fails with `TIMEOUT`; calls not yet sent by then are not sent.
    pub timeout: Duration,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            parallel: false,
            max_concurrency: NonZeroUsize::new(8).expect("8 is not zero"),
            timeout: Duration::from_secs(30),
        }
    }
}

impl BatchOptions {
    /// Sets [`parallel`](Self::parallel).
    #[must_use]
    pub fn parallel(mut self, parallel: bool) -> Self {
        self.parallel = parallel;
        self
    }

    /// Sets [`max_concurrency`](Self::max_concurrency).
    #[must_use]
    pub fn max_concurrency(mut self, max_concurrency: NonZeroUsize) -> Self {
        self.max_concurrency = max_concurrency;
        self
    }

    /// Sets [`timeout`](Self::timeout).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}
