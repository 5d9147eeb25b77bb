//! What the client's callers and its socket thread share: the backends,
//! the calls waiting for answers, and which backend runs which job.

use std::collections::{HashMap, VecDeque};

use tokio::sync::{mpsc, oneshot};

use super::route::Route;
use crate::hoot::RequestId;
use crate::{ToolError, codes};

/// Jobs whose backend is remembered; the oldest are forgotten beyond.
const MAX_JOBS: usize = 100_000;

/// A call's final answer: the last Reply's body, or why the call failed on
/// the client's side (the backend went away).
pub(super) type Answer = Result<Vec<u8>, ToolError>;

/// Where a call's Replies go: stream Replies into a bounded queue (a caller
/// too slow for its stream loses stream frames, so a backend cannot make
/// the client hold unbounded memory), the final answer into a slot of its
/// own that is never full.
#[derive(Debug)]
pub(super) struct Waiter {
    pub(super) stream: mpsc::Sender<Vec<u8>>,
    pub(super) answer: oneshot::Sender<Answer>,
}

/// The caller's ends of a [`Waiter`].
pub(super) struct Inbox {
    pub(super) stream: mpsc::Receiver<Vec<u8>>,
    pub(super) answer: oneshot::Receiver<Answer>,
}

impl Waiter {
    /// A waiter whose stream holds at most `capacity` frames.
    pub(super) fn new(capacity: usize) -> (Waiter, Inbox) {
        let (stream, stream_rx) = mpsc::channel(capacity.max(1));
        let (answer, answer_rx) = oneshot::channel();
        (
            Waiter { stream, answer },
            Inbox {
                stream: stream_rx,
                answer: answer_rx,
            },
        )
    }
}

/// One backend.
#[derive(Debug)]
pub(super) struct Backend {
    pub(super) endpoint: String,
    /// Answering heartbeats: calls may go to it.
    pub(super) alive: bool,
    /// Calls sent to it and not yet answered.
    pub(super) in_flight: usize,
}

/// A call waiting for its final Reply.
#[derive(Debug)]
pub(super) struct Pending {
    pub(super) backend: usize,
    pub(super) waiter: Waiter,
}

#[derive(Debug)]
pub(super) struct State {
    pub(super) backends: Vec<Backend>,
    pub(super) pending: HashMap<RequestId, Pending>,
    owners: HashMap<String, usize>,
    order: VecDeque<String>,
}

impl State {
    pub(super) fn new(endpoints: &[String]) -> Self {
        State {
            backends: endpoints
                .iter()
                .map(|endpoint| Backend {
                    endpoint: endpoint.clone(),
                    alive: false,
                    in_flight: 0,
                })
                .collect(),
            pending: HashMap::new(),
            owners: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    /// The backend a call on `route` goes to.
    pub(super) fn choose(&self, route: &Route) -> Result<usize, ToolError> {
        if let Route::Jobs(ids) = route
            && let Some(owner) = ids.iter().find_map(|id| self.owners.get(id))
        {
            let backend = &self.backends[*owner];
            if backend.alive {
                return Ok(*owner);
            }
            return Err(ToolError::new(
                codes::UNAVAILABLE,
                format!(
                    "the backend that runs this job ({}) is not answering",
                    backend.endpoint
                ),
            ));
        }
        self.backends
            .iter()
            .enumerate()
            .filter(|(_, b)| b.alive)
            .min_by_key(|(_, b)| b.in_flight)
            .map(|(i, _)| i)
            .ok_or_else(|| self.none_alive())
    }

    /// The live backends to ask about `ids` when no backend is known to
    /// run any of them; empty when one is.
    pub(super) fn unowned_candidates(&self, ids: &[String]) -> Vec<usize> {
        if ids.iter().any(|id| self.owners.contains_key(id)) {
            return Vec::new();
        }
        let mut alive: Vec<usize> = (0..self.backends.len())
            .filter(|i| self.backends[*i].alive)
            .collect();
        alive.sort_by_key(|i| self.backends[*i].in_flight);
        alive
    }

    fn none_alive(&self) -> ToolError {
        let endpoints: Vec<&str> = self.backends.iter().map(|b| b.endpoint.as_str()).collect();
        ToolError::new(
            codes::UNAVAILABLE,
            format!(
                "no backend is answering ({}); retry once one is back",
                endpoints.join(", ")
            ),
        )
    }

    /// Registers a call sent to `backend`.
    pub(super) fn start(&mut self, id: RequestId, backend: usize, waiter: Waiter) {
        self.pending.insert(id, Pending { backend, waiter });
        self.backends[backend].in_flight += 1;
    }

    /// Forgets a call; its waiter, if it is still there.
    pub(super) fn finish(&mut self, id: RequestId) -> Option<Pending> {
        let pending = self.pending.remove(&id)?;
        let backend = &mut self.backends[pending.backend];
        backend.in_flight = backend.in_flight.saturating_sub(1);
        Some(pending)
    }

    /// Remembers that `backend` runs `job_id`.
    pub(super) fn owns(&mut self, job_id: String, backend: usize) {
        if self.owners.insert(job_id.clone(), backend).is_none() {
            self.order.push_back(job_id);
            if self.order.len() > MAX_JOBS
                && let Some(oldest) = self.order.pop_front()
            {
                self.owners.remove(&oldest);
            }
        }
    }

    /// Takes `backend` out of rotation and fails every call waiting on it.
    pub(super) fn lose(&mut self, backend: usize, why: &str) {
        self.backends[backend].alive = false;
        let endpoint = self.backends[backend].endpoint.clone();
        let lost: Vec<RequestId> = self
            .pending
            .iter()
            .filter(|(_, p)| p.backend == backend)
            .map(|(id, _)| *id)
            .collect();
        for id in lost {
            if let Some(pending) = self.finish(id) {
                let _ = pending.waiter.answer.send(Err(ToolError::new(
                    codes::UNAVAILABLE,
                    format!(
                        "the backend {endpoint} {why} before answering; the call may be retried"
                    ),
                )));
            }
        }
    }
}
