//! `Client::call_tools`: runs a batch over a transport, in order, under one
//! deadline.

use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

use futures_util::stream::{self, StreamExt};
use tokio::time;

use super::{BatchOptions, ToolCall, ToolResult, ToolTransport};
use crate::ToolError;

/// A batch client over a [`ToolTransport`].
#[derive(Debug)]
pub struct Client<T> {
    transport: T,
}

/// Why a batch was refused as a whole, before any call was sent.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BatchError {
    /// Two calls share an id, so their results could not be told apart.
    DuplicateCallId {
        /// The shared id.
        id: String,
        /// The position of its first call in the batch.
        first: usize,
        /// The position of the call that repeats it.
        second: usize,
    },
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::DuplicateCallId { id, first, second } => write!(
                f,
                "calls {first} and {second} of the batch share the id `{id}`; \
                 each call needs its own id to find its result"
            ),
        }
    }
}

impl std::error::Error for BatchError {}

impl From<BatchError> for ToolError {
    fn from(error: BatchError) -> Self {
        ToolError::invalid_request(error.to_string())
    }
}

impl<T: ToolTransport> Client<T> {
    /// A client that sends its calls over `transport`.
    pub fn new(transport: T) -> Self {
        Client { transport }
    }

    /// The transport.
    pub fn transport(&self) -> &T {
        &self.transport
    }

    /// Gives the transport back (to close it, say).
    pub fn into_transport(self) -> T {
        self.transport
    }

    /// Runs `batch` and answers one result per call, in the order of the
    /// calls.
    ///
    /// Calls run one after the other unless `options.parallel`. A call that
    /// fails, or has no answer when `options.timeout` (counted from now)
    /// runs out, is a failed result (`TIMEOUT` for the latter); the other
    /// calls are not affected.
    ///
    /// # Errors
    ///
    /// [`BatchError::DuplicateCallId`] when two calls share an id; nothing
    /// is sent then.
    pub async fn call_tools(
        &self,
        batch: &[ToolCall],
        options: &BatchOptions,
    ) -> Result<Vec<ToolResult>, BatchError> {
        check_unique_ids(batch)?;
        let started = Instant::now();
        let deadline = time::Instant::now() + options.timeout;
        let budget = options.timeout;
        let results = if options.parallel {
            stream::iter(batch)
                .map(|call| self.call_one(call, deadline, budget, started))
                .buffered(options.max_concurrency.get())
                .collect()
                .await
        } else {
            let mut results = Vec::with_capacity(batch.len());
            for call in batch {
                results.push(self.call_one(call, deadline, budget, started).await);
            }
            results
        };
        Ok(results)
    }

    /// Sends a ping and answers the round-trip time.
    ///
    /// # Errors
    ///
    /// `TIMEOUT` when there is no answer within `timeout`; otherwise the
    /// transport's error.
    pub async fn ping(&self, timeout: Duration) -> Result<Duration, ToolError> {
        let started = Instant::now();
        match time::timeout(timeout, self.transport.ping()).await {
            Ok(answer) => answer.map(|()| started.elapsed()),
            Err(_) => Err(ToolError::timeout(format!(
                "no answer to ping within {} ms",
                timeout.as_millis()
            ))),
        }
    }

    async fn call_one(
        &self,
        call: &ToolCall,
        deadline: time::Instant,
        budget: Duration,
        started: Instant,
    ) -> ToolResult {
        // A call whose turn comes after the deadline is not sent at all, so
        // the server does no work whose result nobody will read.
        let outcome = if time::Instant::now() >= deadline {
            Err(ToolError::timeout(format!(
                "not sent: the batch timeout of {} ms ran out after {} ms, before this call's turn",
                budget.as_millis(),
                started.elapsed().as_millis()
            )))
        } else {
            let call_future = self.transport.call_tool(&call.name, call.arguments.clone());
            match time::timeout_at(deadline, call_future).await {
                Ok(outcome) => outcome,
                Err(_) => Err(ToolError::timeout(format!(
                    "tool `{}` did not answer within the batch timeout of {} ms",
                    call.name,
                    budget.as_millis()
                ))),
            }
        };
        ToolResult {
            call_id: call.id.clone(),
            outcome,
        }
    }
}

/// Refuses a batch in which two calls share an id.
fn check_unique_ids(batch: &[ToolCall]) -> Result<(), BatchError> {
    let mut seen = HashMap::with_capacity(batch.len());
    for (index, call) in batch.iter().enumerate() {
        if let Some(&first) = seen.get(call.id.as_str()) {
            return Err(BatchError::DuplicateCallId {
                id: call.id.clone(),
                first,
                second: index,
            });
        }
        seen.insert(call.id.as_str(), index);
    }
    Ok(())
}
