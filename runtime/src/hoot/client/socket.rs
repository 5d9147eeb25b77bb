//! The client's socket thread: one DEALER per backend (and a SUB per
//! IOPub endpoint). It sends what callers queue, hands each Reply to its
//! caller, heartbeats every backend and takes silent ones out of rotation.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::{broadcast, watch};

use super::dealers::Dealers;
use super::route;
use super::state::{Failure, State};
use crate::ToolError;
use crate::codec::Limits;
use crate::hoot::iopub::{Published, decode_published};
use crate::hoot::mailbox::Inbox;
use crate::hoot::talk::{self, AnswerBody, Answered, Talk};
use crate::hoot::{Command, Message, RequestId, decode, encode};
use crate::jobs::JobEvent;

/// What callers ask the thread to do.
pub(super) enum Cmd {
    /// Send a Request (or a Cancel) to a backend.
    Send { backend: usize, message: Message },
    /// Disconnect and close.
    Stop,
}

/// Messages read from one socket per wake-up, so one busy backend cannot
/// starve the others.
const BATCH: usize = 256;

pub(super) struct Thread {
    pub(super) _context: zmq::Context,
    pub(super) dealers: Dealers,
    pub(super) subscribers: Vec<zmq::Socket>,
    /// The service every Heartbeat names.
    pub(super) service: String,
    pub(super) inbox: Inbox<Cmd>,
    pub(super) state: Arc<Mutex<State>>,
    pub(super) events: broadcast::Sender<JobEvent>,
    /// Where the backends' resource updates go.
    pub(super) updates: crate::entry::ResourceUpdates,
    pub(super) alive: watch::Sender<usize>,
    pub(super) dropped: Arc<AtomicU64>,
    pub(super) max_body: usize,
    pub(super) heartbeat: Duration,
    pub(super) liveness: Duration,
    /// When each backend was last heard from.
    pub(super) heard: Vec<Option<Instant>>,
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    // State stays consistent across each critical section, so a panic in
    // another holder leaves nothing half-done.
    state.lock().unwrap_or_else(|p| p.into_inner())
}

impl Thread {
    pub(super) fn run(mut self) {
        let mut next_beat = Instant::now();
        let sockets =
            self.dealers.sockets.len() + self.subscribers.len() + self.dealers.monitors.len();
        let published =
            self.dealers.sockets.len()..self.dealers.sockets.len() + self.subscribers.len();
        loop {
            let timeout = next_beat.saturating_duration_since(Instant::now());
            let ready: Vec<bool> = {
                let mut items: Vec<zmq::PollItem<'_>> = self
                    .dealers
                    .sockets
                    .iter()
                    .chain(&self.subscribers)
                    .chain(&self.dealers.monitors)
                    .map(|s| s.as_poll_item(zmq::POLLIN))
                    .collect();
                items.push(self.inbox.bell().as_poll_item(zmq::POLLIN));
                let millis = i64::try_from(timeout.as_millis()).unwrap_or(i64::MAX);
                if zmq::poll(&mut items, millis).is_err() {
                    continue;
                }
                items.iter().map(zmq::PollItem::is_readable).collect()
            };
            // Connections first, whether or not the poll saw their events:
            // a backend whose connection has closed leaves the rotation
            // before a call is sent to it or an old answer read from it.
            for i in 0..self.dealers.monitors.len() {
                self.read_monitor(i);
            }
            if ready.get(sockets) == Some(&true) && !self.send_queued() {
                break;
            }
            for (i, readable) in ready.iter().take(self.dealers.sockets.len()).enumerate() {
                if *readable {
                    self.read(i);
                }
            }
            for (i, readable) in ready[published.clone()].iter().enumerate() {
                if *readable {
                    self.read_published(i);
                }
            }
            // After reading: a backend whose answer is waiting in its
            // socket is not silent, however late this thread got to it.
            let now = Instant::now();
            if now >= next_beat {
                self.beat(now);
                next_beat = now + self.heartbeat;
            }
        }
        for dealer in &self.dealers.sockets {
            let _ = dealer.send_multipart(encode(Message::disconnect()), zmq::DONTWAIT);
        }
    }

    /// Heartbeats every backend and takes out of rotation those it cannot
    /// send to and those silent for longer than the liveness window.
    fn beat(&mut self, now: Instant) {
        let mut unsent = Vec::new();
        for (i, dealer) in self.dealers.sockets.iter().enumerate() {
            let mut heartbeat = Message::heartbeat(RequestId::new());
            heartbeat.service.clone_from(&self.service);
            // Fails while the backend is unreachable (ZMQ_IMMEDIATE) or its
            // queue is full: no call should go there either.
            if dealer
                .send_multipart(encode(heartbeat), zmq::DONTWAIT)
                .is_err()
            {
                unsent.push(i);
            }
        }
        let mut state = lock(&self.state);
        for i in unsent {
            self.leave(&mut state, i);
        }
        let silent: Vec<usize> = self
            .heard
            .iter()
            .enumerate()
            .filter(|(i, heard)| {
                state.backends[*i].alive
                    && heard.is_none_or(|at| now.duration_since(at) > self.liveness)
            })
            .map(|(i, _)| i)
            .collect();
        for i in silent {
            self.lose(&mut state, i, "stopped answering heartbeats");
        }
    }

    /// Takes a backend out of rotation; the calls it has are still
    /// answered if it answers them.
    fn leave(&self, state: &mut State, backend: usize) {
        if state.backends[backend].alive {
            state.backends[backend].alive = false;
            let alive = state.backends.iter().filter(|b| b.alive).count();
            self.alive.send_replace(alive);
        }
    }

    /// Takes a backend out of rotation, then fails its callers: a caller
    /// that hears of it finds the rotation already without it.
    fn lose(&self, state: &mut State, backend: usize, why: &str) {
        self.leave(state, backend);
        state.lose(backend, why);
    }

    /// Sends what callers queued; false once asked to stop.
    fn send_queued(&mut self) -> bool {
        let queued: Vec<Cmd> = self.inbox.drain().collect();
        for cmd in queued {
            match cmd {
                Cmd::Send { backend, message } => {
                    let request_id = message.request_id;
                    let is_request = message.command == Command::Request;
                    let Some(dealer) = self.dealers.sockets.get(backend) else {
                        continue;
                    };
                    if dealer
                        .send_multipart(encode(message), zmq::DONTWAIT)
                        .is_err()
                        && is_request
                    {
                        // Not connected (ZMQ_IMMEDIATE) or its queue is full:
                        // libzmq kept nothing, so the call has not run and
                        // may go elsewhere; the backend takes no more until
                        // it answers a Heartbeat.
                        let mut state = lock(&self.state);
                        self.leave(&mut state, backend);
                        let endpoint = state.backends[backend].endpoint.clone();
                        if let Some(pending) = state.finish(request_id) {
                            let _ = pending.waiter.answer.send(Err(Failure::Undelivered(
                                crate::ToolError::new(
                                    crate::codes::UNAVAILABLE,
                                    format!("the backend {endpoint} cannot take the call now"),
                                ),
                            )));
                        }
                    }
                }
                Cmd::Stop => return false,
            }
        }
        true
    }

    /// Reads what libzmq says of a backend's connection: once it closes,
    /// the calls sent on it will not be answered (a reconnected DEALER is
    /// a new peer to the backend), so they fail at once instead of at the
    /// end of the liveness window.
    fn read_monitor(&mut self, backend: usize) {
        for _ in 0..BATCH {
            let Ok(frames) = self.dealers.monitors[backend].recv_multipart(zmq::DONTWAIT) else {
                return;
            };
            // Frame 0: the event (u16) and its value (u32), in host order.
            let Some((event, value)) = frames.first().and_then(|f| {
                let value = f
                    .get(2..6)
                    .map_or(0, |v| u32::from_ne_bytes([v[0], v[1], v[2], v[3]]));
                Some((u16::from_ne_bytes([*f.first()?, *f.get(1)?]), value))
            }) else {
                continue;
            };
            if event == zmq::SocketEvent::DISCONNECTED.to_raw() {
                self.heard[backend] = None;
                let mut state = lock(&self.state);
                state.backends[backend].disconnected = true;
                self.lose(&mut state, backend, "closed its connection");
            } else if event == zmq::SocketEvent::CONNECTED.to_raw() {
                lock(&self.state).backends[backend].disconnected = false;
            } else if let Some(why) = handshake_failure(event, value) {
                lock(&self.state).backends[backend].handshake = Some(why);
            }
        }
    }

    fn read(&mut self, backend: usize) {
        for _ in 0..BATCH {
            let Ok(frames) = self.dealers.sockets[backend].recv_multipart(zmq::DONTWAIT) else {
                return;
            };
            match decode(frames, self.max_body) {
                Ok(message) => self.receive(backend, message),
                Err(refused) => {
                    self.dropped.fetch_add(1, Ordering::Relaxed);
                    // A Reply over the body limit (or otherwise broken) for
                    // a call that is waiting: its caller hears so now, not
                    // at its timeout.
                    let waiting = refused
                        .request_id()
                        .and_then(|id| lock(&self.state).finish(id));
                    if let Some(pending) = waiting {
                        let e = ToolError::internal(format!(
                            "the backend's answer was refused: {}",
                            refused.error()
                        ));
                        let _ = pending.waiter.answer.send(Err(Failure::Lost(e)));
                    }
                }
            }
        }
    }

    fn receive(&mut self, backend: usize, message: Message) {
        self.heard[backend] = Some(Instant::now());
        let mut state = lock(&self.state);
        match message.command {
            Command::Reply => {
                let Some((key, value)) = route::envelope_key(&message.body) else {
                    self.dropped.fetch_add(1, Ordering::Relaxed);
                    return;
                };
                if matches!(key, "job_started" | "stream_start")
                    && let Some(job_id) = route::job_id(value)
                {
                    state.owns(job_id, backend);
                }
                if key == "error"
                    && let Some(refusal) = route::unknown_service(value)
                {
                    self.refused(&mut state, backend, message.request_id, refusal);
                    return;
                }
                let asks = key == "ask";
                let last = !matches!(key, "stream_start" | "stream_chunk" | "stream_end")
                    && !talk::KEYS.contains(&key);
                let id = message.request_id;
                if last {
                    let delivered = state
                        .finish(id)
                        .is_some_and(|p| p.waiter.answer.send(Ok(message.body)).is_ok());
                    // Otherwise its caller gave up (timeout, cancel, dropped).
                    if !delivered {
                        self.dropped.fetch_add(1, Ordering::Relaxed);
                    }
                    return;
                }
                // A caller too slow for its stream loses stream frames,
                // never its answer.
                let undelivered = match state.pending.get(&id) {
                    Some(p) => p
                        .waiter
                        .stream
                        .try_send(message.body)
                        .err()
                        .map(|e| e.into_inner()),
                    None => Some(message.body),
                };
                if let Some(body) = undelivered {
                    self.dropped.fetch_add(1, Ordering::Relaxed);
                    // A question nobody will answer is answered at once,
                    // so that the handler asking it does not wait in vain.
                    if asks {
                        self.refuse_question(backend, id, &body);
                    }
                }
            }
            Command::Heartbeat | Command::Ready => {
                // An answer sent before its connection closed brings
                // nothing back: only one on a connection that is open.
                let b = &mut state.backends[backend];
                if !b.alive && !b.disconnected {
                    b.alive = true;
                    b.refused = None;
                    b.handshake = None;
                    let alive = state.backends.iter().filter(|b| b.alive).count();
                    self.alive.send_replace(alive);
                }
            }
            Command::Disconnect => {
                self.heard[backend] = None;
                if state.backends[backend].alive {
                    self.lose(&mut state, backend, "disconnected");
                }
            }
            Command::Request | Command::Cancel | Command::Answer => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// A backend answered `UNKNOWN_SERVICE`, to a Heartbeat or to a call:
    /// it stays out of rotation, and a call it refused has not run, so it
    /// may go to another backend.
    fn refused(&self, state: &mut State, backend: usize, id: RequestId, refusal: ToolError) {
        self.leave(state, backend);
        state.backends[backend].refused = Some(refusal.message.clone());
        if let Some(pending) = state.finish(id) {
            let _ = pending
                .waiter
                .answer
                .send(Err(Failure::Undelivered(refusal)));
        }
    }

    /// Answers a question of the call `id` that reached no caller with
    /// `UNAVAILABLE`.
    fn refuse_question(&self, backend: usize, id: RequestId, body: &[u8]) {
        let Ok(Talk::Ask { id: question, .. }) = talk::decode::<Talk>(body, Limits::default())
        else {
            return;
        };
        let answer = AnswerBody {
            id: question,
            answer: Answered::Error(crate::ToolError::new(
                crate::codes::UNAVAILABLE,
                "the caller of this call is no longer waiting for it",
            )),
        };
        if let Some(body) = talk::encode(&answer) {
            let _ = self.dealers.sockets[backend]
                .send_multipart(encode(Message::answer(id, body)), zmq::DONTWAIT);
        }
    }

    fn read_published(&mut self, i: usize) {
        for _ in 0..BATCH {
            let Ok(frames) = self.subscribers[i].recv_multipart(zmq::DONTWAIT) else {
                return;
            };
            match decode_published(&frames) {
                Some(Published::Job(event)) => {
                    let _ = self.events.send(event);
                }
                Some(Published::ResourceUpdated(update)) => self.updates.updated(update.uri),
                _ => {}
            }
        }
    }
}

/// Why a CURVE handshake failed, from a monitor's `event` and its `value`;
/// `None` for an event that is no such failure.
fn handshake_failure(event: u16, value: u32) -> Option<String> {
    use zmq::SocketEvent;
    /// libzmq's `ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH`.
    const MECHANISM_MISMATCH: u32 = 0x1100_0002;
    Some(if event == SocketEvent::HANDSHAKE_FAILED_AUTH.to_raw() {
        format!("it refused this client's key (ZAP status {value})")
    } else if event == SocketEvent::HANDSHAKE_FAILED_PROTOCOL.to_raw() {
        if value == MECHANISM_MISMATCH {
            "it does not speak CURVE (is it served without keys?)".to_owned()
        } else {
            format!("ZMTP protocol error {value:#x}")
        }
    } else if event == SocketEvent::HANDSHAKE_FAILED_NO_DETAIL.to_raw() {
        "it closed the connection during the handshake (is its public key the one this \
         client was given?)"
            .to_owned()
    } else {
        return None;
    })
}
