//! The server's socket thread: reads the ROUTER, starts calls, sends what
//! the calls queue, publishes IOPub.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use super::{Out, Shared, calls, count, curve};
use crate::hoot::body::error_body;
use crate::hoot::{CallBody, Command, Message, PublicKey, RequestId, decode, encode};
use crate::jobs::Owner;
use crate::port::CallPort;
use crate::{ResponseEnvelope, ToolError, codec, codes};

/// Messages read per wake-up before the queue gets its turn, so a flood of
/// Requests cannot starve the Replies.
const BATCH: usize = 256;

/// How long closing waits for the last Replies and Disconnects to go out.
const GOODBYE_LINGER_MS: i32 = 1000;

/// The pause between the last send and the close.
const GOODBYE_PAUSE: std::time::Duration = std::time::Duration::from_millis(50);

/// Peers remembered for Ready and Disconnect; beyond, new peers are served
/// but not remembered.
const MAX_PEERS: usize = 65_536;

/// A peer the server has heard from.
pub(super) struct Peer {
    /// Whether it has been sent Ready.
    greeted: bool,
    /// When it was last heard from: any message counts.
    heard: Instant,
}

/// The thread's state. Only this thread touches the sockets.
pub(super) struct Thread<P: CallPort> {
    // The sockets' context, kept for as long as they are.
    pub(super) _context: zmq::Context,
    pub(super) router: zmq::Socket,
    pub(super) publisher: Option<zmq::Socket>,
    pub(super) inbox: crate::hoot::mailbox::Inbox<Out>,
    pub(super) shared: Arc<Shared>,
    pub(super) port: P,
    pub(super) runtime: tokio::runtime::Handle,
    pub(super) max_body: usize,
    pub(super) max_in_flight: usize,
    /// The services it answers to; empty: any.
    pub(super) services: Vec<String>,
    /// Peers seen: whether each has been sent Ready, and when it was last
    /// heard from.
    pub(super) peers: HashMap<Vec<u8>, Peer>,
    /// How long a peer may be silent before the questions its calls'
    /// handlers asked it are failed.
    pub(super) peer_liveness: Duration,
    /// Whether a principal forwarded by a peer not authenticated with
    /// CURVE is taken as it comes.
    pub(super) trust_plain_peers: bool,
    /// Calls in flight, by peer and id: how to cancel each.
    pub(super) in_flight: HashMap<(Vec<u8>, RequestId), CancellationToken>,
    /// A CURVE server's ZAP handler and handshake monitor. After the
    /// sockets it guards, so that it closes after them.
    pub(super) guard: Option<curve::Guard>,
}

impl<P: CallPort> Thread<P> {
    pub(super) fn run(mut self) {
        loop {
            // Only a question waiting on its peer needs the clock: without
            // one the thread sleeps until a message or a Reply.
            let questions = self.shared.questions.any();
            let timeout = if questions { self.sweep_every() } else { -1 };
            let Some((readable, woken, guarded)) = self.poll(timeout) else {
                // EINTR: poll again.
                continue;
            };
            if guarded {
                self.guard_handshakes();
            }
            if woken && !self.send_queued() {
                break;
            }
            if readable {
                self.read();
            }
            if questions {
                self.sweep();
            }
        }
        self.goodbye();
    }

    /// Waits for the ROUTER, the queue's bell or, for a CURVE server, its
    /// guard; which are ready. `None` when interrupted.
    fn poll(&self, timeout: i64) -> Option<(bool, bool, bool)> {
        let router = self.router.as_poll_item(zmq::POLLIN);
        let bell = self.inbox.bell().as_poll_item(zmq::POLLIN);
        let Some(guard) = &self.guard else {
            let mut items = [router, bell];
            zmq::poll(&mut items, timeout).ok()?;
            return Some((items[0].is_readable(), items[1].is_readable(), false));
        };
        let [zap, monitor] = guard.sockets();
        let mut items = [
            router,
            bell,
            zap.as_poll_item(zmq::POLLIN),
            monitor.as_poll_item(zmq::POLLIN),
        ];
        zmq::poll(&mut items, timeout).ok()?;
        let guarded = items[2].is_readable() || items[3].is_readable();
        Some((items[0].is_readable(), items[1].is_readable(), guarded))
    }

    /// Answers a CURVE server's ZAP requests and counts its failed
    /// handshakes.
    fn guard_handshakes(&self) {
        if let Some(guard) = &self.guard {
            let counts = &self.shared.counts;
            counts
                .auth_refused
                .fetch_add(guard.answer(), Ordering::Relaxed);
            counts
                .handshake_failed
                .fetch_add(guard.failed_handshakes(), Ordering::Relaxed);
        }
    }

    /// How often, in milliseconds, silent peers are looked for while a
    /// question waits: a quarter of the liveness, within 10 ms to 1 s.
    fn sweep_every(&self) -> i64 {
        let quarter = self.peer_liveness / 4;
        let every = quarter.clamp(Duration::from_millis(10), Duration::from_secs(1));
        i64::try_from(every.as_millis()).unwrap_or(1000)
    }

    /// Fails the questions of peers silent for longer than the liveness. A
    /// gateway killed outright sends no Disconnect, and its connection's
    /// close is not told to a ROUTER: silence is how the server learns
    /// that nobody will answer.
    fn sweep(&self) {
        let peers = &self.peers;
        self.shared
            .questions
            .fail_silent(Instant::now(), self.peer_liveness, |peer| {
                peers.get(peer).map(|p| p.heard)
            });
    }

    /// Sends what the calls queued; false once asked to stop.
    fn send_queued(&mut self) -> bool {
        let queued: Vec<Out> = self.inbox.drain().collect();
        for out in queued {
            match out {
                Out::Reply {
                    peer,
                    request_id,
                    body,
                    last,
                } => {
                    if last {
                        self.in_flight.remove(&(peer.clone(), request_id));
                        self.shared
                            .in_flight
                            .store(self.in_flight.len(), Ordering::Release);
                        if self.in_flight.is_empty() {
                            self.shared.idle.notify_waiters();
                        }
                    }
                    self.send(peer, Message::reply(request_id, body));
                }
                Out::Publish(frames) => {
                    if let Some(publisher) = &self.publisher {
                        // A PUB never blocks: past its high-water mark a
                        // slow subscriber loses messages.
                        let _ = publisher.send_multipart(frames, zmq::DONTWAIT);
                    }
                }
                Out::Stop => return false,
            }
        }
        true
    }

    /// Reads what has arrived, a batch at a time.
    fn read(&mut self) {
        if self.guard.is_some() {
            return self.read_authenticated();
        }
        for _ in 0..BATCH {
            match self.router.recv_multipart(zmq::DONTWAIT) {
                Ok(parts) => self.receive(parts, None),
                Err(_) => return,
            }
        }
    }

    /// [`Thread::read`] for a CURVE server: each message with the key its
    /// peer was let in with.
    fn read_authenticated(&mut self) {
        for _ in 0..BATCH {
            match curve::recv(&self.router) {
                Ok((parts, key)) => self.receive(parts, key),
                Err(_) => return,
            }
        }
    }

    /// Handles one message from a peer; `key` is the public key it was
    /// let in with, for a CURVE server.
    fn receive(&mut self, mut parts: Vec<Vec<u8>>, key: Option<PublicKey>) {
        if parts.is_empty() {
            return;
        }
        let peer = parts.remove(0);
        // Only a Request is answered for a frame error: answering anything
        // else could put a second final Reply on a live call's id.
        let is_request = parts
            .get(1)
            .is_some_and(|f| f.as_slice() == [Command::Request.as_byte()]);
        let message = match decode(parts, self.max_body) {
            Ok(message) => message,
            Err(refused) => {
                match refused.reply().filter(|_| is_request) {
                    Some(reply) => {
                        count(&self.shared.counts.refused);
                        self.send(peer, reply);
                    }
                    None => count(&self.shared.counts.dropped),
                }
                return;
            }
        };
        self.remember(&peer);
        if matches!(message.command, Command::Request | Command::Heartbeat)
            && !self.serves(&message.service)
        {
            count(&self.shared.counts.refused);
            let refusal = self.unknown_service(&message.service);
            self.send(peer, Message::reply(message.request_id, refusal));
            return;
        }
        match message.command {
            Command::Request => self.request(peer, message, key),
            Command::Heartbeat => {
                let greeted = self
                    .peers
                    .get_mut(&peer)
                    .map(|p| std::mem::replace(&mut p.greeted, true));
                let answer = if greeted == Some(false) {
                    Message::ready(message.request_id)
                } else {
                    Message::heartbeat(message.request_id)
                };
                self.send(peer, answer);
            }
            Command::Cancel => {
                if let Some(token) = self.in_flight.get(&(peer, message.request_id)) {
                    token.cancel();
                }
            }
            Command::Disconnect => {
                self.peers.remove(&peer);
                for ((of, _), token) in &self.in_flight {
                    if *of == peer {
                        token.cancel();
                    }
                }
            }
            Command::Answer => {
                if !self
                    .shared
                    .questions
                    .answer(&peer, message.request_id, &message.body)
                {
                    count(&self.shared.counts.dropped);
                }
            }
            Command::Reply | Command::Ready => count(&self.shared.counts.dropped),
        }
    }

    /// Whether a Request or Heartbeat naming `service` is for this server.
    fn serves(&self, service: &str) -> bool {
        service.is_empty() || self.services.is_empty() || self.services.iter().any(|s| s == service)
    }

    /// The `UNKNOWN_SERVICE` error body for a message naming `service`:
    /// its details say what was asked and what is served, which also tells
    /// a client this refusal from a tool's own error of that name.
    fn unknown_service(&self, service: &str) -> Vec<u8> {
        let served: Vec<String> = self.services.iter().map(|s| format!("`{s}`")).collect();
        let e = ToolError::new(
            codes::UNKNOWN_SERVICE,
            format!("this backend serves {}, not `{service}`", served.join(", ")),
        )
        .with_details(serde_json::json!({"service": service, "serves": self.services}));
        let envelope: ResponseEnvelope<()> = ResponseEnvelope::Error(e);
        codec::to_msgpack(&envelope).unwrap_or_else(|_| error_body(codes::UNKNOWN_SERVICE, service))
    }

    /// Notes that `peer` was heard from just now.
    fn remember(&mut self, peer: &[u8]) {
        let now = Instant::now();
        if let Some(known) = self.peers.get_mut(peer) {
            known.heard = now;
        } else if self.peers.len() < MAX_PEERS {
            let known = Peer {
                greeted: false,
                heard: now,
            };
            self.peers.insert(peer.to_vec(), known);
        }
    }

    fn request(&mut self, peer: Vec<u8>, message: Message, peer_key: Option<PublicKey>) {
        let request_id = message.request_id;
        let key = (peer, request_id);
        if self.in_flight.contains_key(&key) {
            // The id is taken by a live call: any answer would be mistaken
            // for that call's.
            count(&self.shared.counts.dropped);
            return;
        }
        let (peer, _) = key;
        if !self.shared.accepting.load(Ordering::Acquire) {
            count(&self.shared.counts.turned_away);
            let e = ToolError::new(
                codes::UNAVAILABLE,
                "the server is shutting down; call another backend or retry later",
            );
            self.send(
                peer,
                Message::reply(request_id, error_body(&e.code, &e.message)),
            );
            return;
        }
        if self.in_flight.len() >= self.max_in_flight {
            count(&self.shared.counts.turned_away);
            let e = ToolError::new(
                codes::BUSY,
                format!(
                    "the server has {} calls in flight, as many as it takes; retry later",
                    self.in_flight.len()
                ),
            );
            self.send(
                peer,
                Message::reply(request_id, error_body(&e.code, &e.message)),
            );
            return;
        }
        let limits = self.port.limits();
        let call = match CallBody::decode(&message.body, limits)
            .and_then(|call| self.trusted(call, peer_key.as_ref()))
        {
            Ok(call) => calls::Call {
                peer: peer.clone(),
                request_id,
                request: call.request.to_vec(),
                wait: call.wait,
                stream: call.stream,
                owner: call.owner.map(Owner::new),
                talk_back: call.talk_back,
                principal: call.principal,
            },
            Err(e) => {
                count(&self.shared.counts.refused);
                self.send(
                    peer,
                    Message::reply(request_id, error_body(&e.code, &e.message)),
                );
                return;
            }
        };
        count(&self.shared.counts.calls);
        let token = CancellationToken::new();
        self.in_flight.insert((peer, request_id), token.clone());
        self.shared
            .in_flight
            .store(self.in_flight.len(), Ordering::Release);
        #[cfg(feature = "otel")]
        let span = crate::hoot::traced::worker(&message, &call.request);
        let serve = calls::serve(self.port.clone(), self.shared.clone(), call, token);
        #[cfg(feature = "otel")]
        let serve = tracing::Instrument::instrument(serve, span);
        let serve = Box::pin(serve);
        self.serve(serve);
    }

    /// `call`, if the principal it forwards (if any) may be believed: the
    /// peer was let in by its CURVE key, or the server trusts its network.
    fn trusted<'a>(
        &self,
        call: CallBody<'a>,
        peer_key: Option<&PublicKey>,
    ) -> Result<CallBody<'a>, ToolError> {
        if call.principal.is_none() || peer_key.is_some() || self.trust_plain_peers {
            return Ok(call);
        }
        Err(ToolError::new(
            codes::FORBIDDEN,
            "this backend takes a forwarded principal only from a peer it authenticated: \
             serve HOOT01 with CURVE and let the gateway's key in \
             (`ServerConfig::curve`), or trust the network (`ServerConfig::trust_plain_peers`)",
        ))
    }

    /// Runs a call's first step here, on the socket thread: a call that
    /// ends at once (a `sync` handler, a refusal) is answered without
    /// going to a tokio worker and back, two thread hand-offs of the
    /// round trip. One that waits on something goes on as a tokio task.
    fn serve(&mut self, mut serve: std::pin::Pin<Box<dyn Future<Output = ()> + Send>>) {
        use std::panic::{AssertUnwindSafe, catch_unwind};
        use std::task::{Context, Poll, Waker};
        // The call may spawn tasks, start timers or read the clock.
        let _runtime = self.runtime.enter();
        let mut context = Context::from_waker(Waker::noop());
        match catch_unwind(AssertUnwindSafe(|| serve.as_mut().poll(&mut context))) {
            // Its Replies are queued: out they go, before anything else is
            // read.
            Ok(Poll::Ready(())) => {}
            // Polled on a worker from here, with a waker that works.
            Ok(Poll::Pending) => {
                self.runtime.spawn(serve);
            }
            // The dispatcher answers a handler's panic itself; a panic out
            // here is the server's own, and loses this call as a panicking
            // task would, not the thread.
            Err(_) => {}
        }
    }

    fn send(&self, peer: Vec<u8>, message: Message) {
        let frames = encode(message);
        // ROUTER_MANDATORY: a peer that has gone is EHOSTUNREACH, a full
        // queue EAGAIN, both on the routing id's frame; neither may stall
        // the thread. The other frames move into libzmq uncopied.
        let sent = self
            .router
            .send(peer.as_slice(), zmq::SNDMORE | zmq::DONTWAIT)
            .and_then(|()| self.router.send_multipart(frames, zmq::DONTWAIT));
        match sent {
            Ok(()) => {}
            Err(zmq::Error::EHOSTUNREACH) => {
                count(&self.shared.counts.undeliverable);
                // Nothing it was asked can be answered now.
                self.shared.questions.fail_peer(&peer);
            }
            Err(_) => count(&self.shared.counts.undeliverable),
        }
    }

    /// Cancels what is still running and tells every peer it is going.
    fn goodbye(&mut self) {
        // Until now nothing waited on a close; the last Replies and the
        // Disconnects are worth a moment to get out.
        let _ = self.router.set_linger(GOODBYE_LINGER_MS);
        for token in self.in_flight.values() {
            token.cancel();
        }
        let peers: Vec<Vec<u8>> = self.peers.keys().cloned().collect();
        for peer in peers {
            self.send(peer, Message::disconnect());
        }
        // Linger alone did not get them out: messages queued just before
        // the close were lost in about one shutdown in ten under load. A
        // moment for libzmq's I/O thread to write them did.
        std::thread::sleep(GOODBYE_PAUSE);
        if let Some(guard) = &self.guard {
            guard.unwatch(&self.router);
        }
    }
}
