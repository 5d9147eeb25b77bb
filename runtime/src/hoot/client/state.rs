//! What the client's callers and its socket thread share: the backends,
//! the calls waiting for answers, and which backend runs which job.

use std::collections::{HashMap, VecDeque};

use tokio::sync::{mpsc, oneshot};

use super::route::Route;
use super::status::{BackendState, BackendStatus};
use crate::hoot::RequestId;
use crate::{ToolError, codes};

/// Jobs whose backend is remembered; the oldest are forgotten beyond.
const MAX_JOBS: usize = 100_000;

/// A call's final answer: the last Reply's body, or why the call failed on
/// the client's side.
pub(super) type Answer = Result<Vec<u8>, Failure>;

/// Why a call has no Reply to give its caller.
#[derive(Debug)]
pub(super) enum Failure {
    /// The Request never reached a handler: libzmq would not take it (the
    /// backend is not connected, or its queue is full), or the backend
    /// refused its service. It cannot have run, so it may go to another
    /// backend.
    Undelivered(ToolError),
    /// The backend went away with the call: it may have run.
    Lost(ToolError),
}

impl Failure {
    pub(super) fn into_error(self) -> ToolError {
        match self {
            Failure::Undelivered(e) | Failure::Lost(e) => e,
        }
    }
}

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
    /// In rotation: it answered a Heartbeat, and since then no send to it
    /// failed and it has not fallen silent or closed its connection.
    pub(super) alive: bool,
    /// Calls sent to it and not yet answered.
    pub(super) in_flight: usize,
    /// libzmq said its connection closed, and has not said it reopened:
    /// a Heartbeat answer read now was sent before, and does not bring it
    /// back.
    pub(super) disconnected: bool,
    /// Its `UNKNOWN_SERVICE` message: it does not serve this client's
    /// service, and stays out of rotation until it answers a Heartbeat.
    pub(super) refused: Option<String>,
    /// Why its last CURVE handshake failed, until it answers a Heartbeat.
    pub(super) handshake: Option<String>,
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
    /// Where the search for the next least busy backend starts: ties
    /// rotate instead of going to the first backend listed.
    next: usize,
    /// The service this client's calls address, for its messages.
    service: String,
}

impl State {
    pub(super) fn new(endpoints: &[String], service: &str) -> Self {
        State {
            backends: endpoints
                .iter()
                .map(|endpoint| Backend {
                    endpoint: endpoint.clone(),
                    alive: false,
                    in_flight: 0,
                    disconnected: false,
                    refused: None,
                    handshake: None,
                })
                .collect(),
            pending: HashMap::new(),
            owners: HashMap::new(),
            order: VecDeque::new(),
            next: 0,
            service: service.to_owned(),
        }
    }

    /// The backend a call on `route` goes to: the backend that runs its
    /// job, or the live backend with the fewest calls in flight, taking
    /// turns among those with as few.
    pub(super) fn choose(&mut self, route: &Route) -> Result<usize, ToolError> {
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
        let Some(fewest) = self
            .backends
            .iter()
            .filter(|b| b.alive)
            .map(|b| b.in_flight)
            .min()
        else {
            return Err(self.none_alive());
        };
        let count = self.backends.len();
        let chosen = (0..count)
            .map(|k| (self.next + k) % count)
            .find(|i| self.backends[*i].alive && self.backends[*i].in_flight == fewest)
            .ok_or_else(|| self.none_alive())?;
        self.next = (chosen + 1) % count;
        Ok(chosen)
    }

    /// Every backend and whether it takes calls.
    pub(super) fn statuses(&self) -> Vec<BackendStatus> {
        self.backends
            .iter()
            .map(|b| BackendStatus {
                endpoint: b.endpoint.clone(),
                state: match (&b.refused, &b.handshake, b.alive) {
                    (_, _, true) => BackendState::InRotation,
                    (Some(why), _, false) => BackendState::Refused(why.clone()),
                    (None, Some(why), false) => BackendState::HandshakeFailed(why.clone()),
                    (None, None, false) => BackendState::NotAnswering,
                },
                in_flight: b.in_flight,
            })
            .collect()
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

    /// `UNAVAILABLE`, naming every backend and why it is out of rotation.
    fn none_alive(&self) -> ToolError {
        let refused = self.backends.iter().any(|b| b.refused.is_some());
        let each: Vec<String> = self
            .backends
            .iter()
            .map(|b| match &b.refused {
                Some(why) => format!("{} refuses it: {why}", b.endpoint),
                None => format!("{} is not answering", b.endpoint),
            })
            .collect();
        let unauthenticated = self.backends.iter().any(|b| b.handshake.is_some());
        let message = if refused {
            format!(
                "no backend serves the service `{}` ({}); give this client the endpoints \
                 of that service's backends, or the service they serve",
                self.service,
                each.join("; ")
            )
        } else if unauthenticated {
            let each: Vec<String> = self
                .backends
                .iter()
                .map(|b| match &b.handshake {
                    Some(why) => format!("{}: {why}", b.endpoint),
                    None => format!("{} is not answering", b.endpoint),
                })
                .collect();
            format!(
                "no backend completed a CURVE handshake with this client ({}); the backends \
                 must allow this client's public key, and hold the secret key of the server \
                 key it was given",
                each.join("; ")
            )
        } else {
            let endpoints: Vec<&str> = self.backends.iter().map(|b| b.endpoint.as_str()).collect();
            format!(
                "no backend is answering ({}); retry once one is back",
                endpoints.join(", ")
            )
        };
        ToolError::new(codes::UNAVAILABLE, message)
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
                let _ = pending.waiter.answer.send(Err(Failure::Lost(ToolError::new(
                    codes::UNAVAILABLE,
                    format!(
                        "the backend {endpoint} {why} before answering; the call may be retried"
                    ),
                ))));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn three_alive() -> State {
        let endpoints = ["tcp://a:1", "tcp://b:1", "tcp://c:1"].map(String::from);
        let mut state = State::new(&endpoints, "");
        for backend in &mut state.backends {
            backend.alive = true;
        }
        state
    }

    #[test]
    fn ties_take_turns_and_the_least_busy_goes_first() {
        let mut state = three_alive();
        let turns: Vec<usize> = (0..7)
            .map(|_| state.choose(&Route::Any).expect("a backend"))
            .collect();
        assert_eq!(turns, [0, 1, 2, 0, 1, 2, 0]);

        state.backends[0].in_flight = 2;
        state.backends[2].in_flight = 1;
        assert_eq!(state.choose(&Route::Any).expect("a backend"), 1);
        // Of the two with one call, the turn goes on after the last one chosen.
        state.backends[1].in_flight = 1;
        assert_eq!(state.choose(&Route::Any).expect("a backend"), 2);
        assert_eq!(state.choose(&Route::Any).expect("a backend"), 1);

        state.backends[1].alive = false;
        assert_eq!(state.choose(&Route::Any).expect("a backend"), 2);
    }

    #[test]
    fn with_none_in_rotation_the_error_says_why_each_is_out() {
        let mut state = State::new(&["tcp://a:1".into(), "tcp://b:1".into()], "search");
        state.backends[0].refused = Some("this backend serves `studio`, not `search`".into());
        let e = state.choose(&Route::Any).expect_err("none in rotation");
        assert_eq!(e.code, codes::UNAVAILABLE);
        assert!(
            e.message.starts_with(
                "no backend serves the service `search` (tcp://a:1 refuses it: this backend \
                 serves `studio`, not `search`; tcp://b:1 is not answering)"
            ),
            "{}",
            e.message
        );
        let statuses = state.statuses();
        assert_eq!(
            statuses[0].state,
            BackendState::Refused("this backend serves `studio`, not `search`".into())
        );
        assert_eq!(statuses[1].state, BackendState::NotAnswering);

        state.backends[0].refused = None;
        let e = state.choose(&Route::Any).expect_err("none in rotation");
        assert_eq!(
            e.message,
            "no backend is answering (tcp://a:1, tcp://b:1); retry once one is back"
        );
    }
}
