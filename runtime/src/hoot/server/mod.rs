//! The HOOT01 server: serves any [`CallPort`] on a ROUTER socket.
//!
//! One thread owns the sockets (ZeroMQ sockets belong to one thread); each
//! Request's call takes its first step on that thread, so one that ends at
//! once (a `sync` handler) is answered from there, and one that waits
//! becomes a tokio task whose Replies go back to the thread through a
//! queue. A `sync` handler therefore holds up the socket thread while it
//! runs: keep them quick, as the timing class says. In-flight calls are bounded
//! ([`ServerConfig::max_in_flight`]; a Request beyond it is answered
//! `BUSY` at once), libzmq's high-water marks bound its queues, and
//! `ZMQ_MAXMSGSIZE` makes libzmq drop a peer that sends a frame over the
//! body limit before it is allocated. With [`ServerConfig::curve`] its
//! sockets encrypt every connection and let in only the client keys
//! allowed (the same thread answers libzmq's ZAP requests).
//!
//! ```no_run
//! # async fn demo<S: toolwright::Service>(dispatcher: toolwright::Dispatcher<S>)
//! # -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use toolwright::hoot::{Server, ServerConfig};
//!
//! let config = ServerConfig::new("tcp://127.0.0.1:5555").iopub("tcp://127.0.0.1:5556");
//! let server = Server::serve(dispatcher, config)?;
//! println!("serving HOOT01 at {}", server.endpoint());
//! // … until it is time to stop: finish what is in flight, then say goodbye.
//! server.shutdown(Duration::from_secs(5)).await;
//! # Ok(()) }
//! ```

mod calls;
mod curve;
mod socket;
mod talk;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use super::mailbox::{Outbox, mailbox};
use super::{HootError, KeyPair, PublicKey};
use crate::port::CallPort;

/// How a [`Server`] binds and bounds itself.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    endpoint: String,
    iopub: Option<String>,
    max_body: Option<usize>,
    max_in_flight: usize,
    high_water_mark: i32,
    services: Vec<String>,
    peer_liveness: Duration,
    curve: Option<curve::Curve>,
    trust_plain_peers: bool,
}

impl ServerConfig {
    /// Serves on `endpoint`: `tcp://host:port` (port `*` or `0` picks a
    /// free one; [`ServerHandle::endpoint`] says which), `ipc:///path`, or
    /// `inproc://name` (for clients in the same process).
    pub fn new(endpoint: impl Into<String>) -> Self {
        ServerConfig {
            endpoint: endpoint.into(),
            iopub: None,
            max_body: None,
            max_in_flight: 4096,
            high_water_mark: 10_000,
            services: Vec::new(),
            peer_liveness: Duration::from_secs(5),
            curve: None,
            trust_plain_peers: false,
        }
    }

    /// Encrypts and authenticates every connection with CURVE (ZeroMQ's
    /// CurveZMQ): the server proves itself with `keys`, whose public key
    /// its clients are given, and lets in only clients whose public key
    /// is in `allowed`; any other handshake fails, and nothing of the
    /// peer's reaches the server (counted in [`ServerStats::auth_refused`]
    /// and [`ServerStats::handshake_failed`]). The IOPub socket is secured
    /// the same way, so only allowed clients can subscribe. Each Request's
    /// call knows the key its peer was let in with.
    ///
    /// The endpoints must be `tcp://` or `ipc://` (libzmq runs no
    /// handshake over `inproc://`), and libzmq must have CURVE; otherwise
    /// [`Server::serve`] fails rather than serve plain text.
    #[must_use]
    pub fn curve(mut self, keys: KeyPair, allowed: impl IntoIterator<Item = PublicKey>) -> Self {
        self.curve = Some(curve::Curve {
            keys,
            allowed: allowed.into_iter().collect::<BTreeSet<_>>(),
        });
        self
    }

    /// Takes the principal a plain-text peer forwards (a gateway's caller,
    /// in the call body) as that peer says, without CURVE to prove who
    /// the peer is. Only for a backend no one but its gateways can reach.
    ///
    /// By default a principal is trusted only from a peer the server let
    /// in by its CURVE key (see [`curve`](Self::curve)); from any other, a
    /// call that forwards one is refused with `FORBIDDEN` before it runs,
    /// since anyone who can reach the socket could claim any principal
    /// and its scopes. Calls that forward none are served either way.
    #[must_use]
    pub fn trust_plain_peers(mut self, trust: bool) -> Self {
        self.trust_plain_peers = trust;
        self
    }

    /// Serves its port as the service (catalogue) `name`, at most 255
    /// bytes of UTF-8; call it again to answer to several names. A Request
    /// or Heartbeat naming another service is answered `UNKNOWN_SERVICE`,
    /// so a client of that service never puts this server in rotation;
    /// one naming none (frame 4 empty) is served. A server given no name
    /// serves every Request, whatever it names.
    #[must_use]
    pub fn service(mut self, name: impl Into<String>) -> Self {
        self.services.push(name.into());
        self
    }

    /// Also publishes job and call events on a PUB socket at `endpoint`.
    #[must_use]
    pub fn iopub(mut self, endpoint: impl Into<String>) -> Self {
        self.iopub = Some(endpoint.into());
        self
    }

    /// The largest body accepted; by default the port's
    /// [`Limits::max_bytes`](crate::codec::Limits::max_bytes) (64 MiB).
    #[must_use]
    pub fn max_body(mut self, bytes: usize) -> Self {
        self.max_body = Some(bytes);
        self
    }

    /// How many calls may run at once; a Request beyond is answered
    /// `BUSY`. Default 4096.
    #[must_use]
    pub fn max_in_flight(mut self, calls: usize) -> Self {
        self.max_in_flight = calls.max(1);
        self
    }

    /// How long a peer may be silent (no Request, Heartbeat or Answer)
    /// while a handler waits for its Answer to a question; then every such
    /// question of that peer is answered `UNAVAILABLE`, as is one of a peer
    /// whose connection is found gone. Default 5 s, twenty of the runtime
    /// client's heartbeats. The peer's calls are not cancelled: a job goes
    /// on and keeps its result for another caller.
    #[must_use]
    pub fn peer_liveness(mut self, liveness: Duration) -> Self {
        self.peer_liveness = liveness.max(Duration::from_millis(1));
        self
    }

    /// libzmq's send and receive high-water marks, in messages per peer.
    /// Default 10,000.
    #[must_use]
    pub fn high_water_mark(mut self, messages: i32) -> Self {
        self.high_water_mark = messages;
        self
    }
}

/// Counts of what a server has done, since it started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServerStats {
    /// Requests accepted and handed to the port.
    pub calls: u64,
    /// Messages answered with an error Reply without a call: frame errors
    /// of a Request and bodies that are not call bodies (`INVALID_REQUEST`),
    /// Requests and Heartbeats naming a service it does not serve
    /// (`UNKNOWN_SERVICE`), Requests forwarding a principal from a peer it
    /// does not trust (`FORBIDDEN`).
    pub refused: u64,
    /// Messages dropped unanswered: no id to answer, not a Request, a
    /// command a server does not take, an id already in flight.
    pub dropped: u64,
    /// Requests answered `BUSY` (too many in flight) or `UNAVAILABLE`
    /// (shutting down).
    pub turned_away: u64,
    /// Replies that could not be delivered: the peer had gone, or its
    /// queue was full.
    pub undeliverable: u64,
    /// CURVE handshakes refused because the client's public key is not
    /// allowed (the ZAP handler answered 400), on the HOOT01 socket or
    /// IOPub. Zero without [`ServerConfig::curve`].
    pub auth_refused: u64,
    /// CURVE handshakes on the HOOT01 socket that failed before a client
    /// key could be checked: a peer speaking plain text or another
    /// mechanism, one that does not know this server's public key (it
    /// cannot be decrypted), one that hung up halfway. Zero without
    /// [`ServerConfig::curve`].
    pub handshake_failed: u64,
}

/// Serves a port over HOOT01.
#[derive(Debug)]
pub struct Server;

impl Server {
    /// Binds `config`'s endpoints and serves `port` until the handle is
    /// shut down or dropped. Calls run on the current tokio runtime.
    ///
    /// # Errors
    /// [`HootError::Bind`] when an endpoint cannot be bound,
    /// [`HootError::NoRuntime`] outside a tokio runtime,
    /// [`HootError::ServiceName`] for a service name over 255 bytes,
    /// [`HootError::CurveUnavailable`] and [`HootError::CurveInproc`] for
    /// CURVE that cannot be had, and libzmq's errors setting up the
    /// sockets.
    pub fn serve<P: CallPort>(port: P, config: ServerConfig) -> Result<ServerHandle, HootError> {
        for name in &config.services {
            super::error::check_service(name)?;
        }
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| HootError::NoRuntime)?;
        let max_body = config.max_body.unwrap_or(port.limits().max_bytes);
        let (context, guard) = match &config.curve {
            None => (super::context::shared(), None),
            Some(curve) => {
                super::error::check_curve()?;
                for endpoint in std::iter::once(&config.endpoint).chain(&config.iopub) {
                    super::error::check_curve_endpoint(endpoint)?;
                }
                // Its own context, and so its own ZAP handler (curve.rs).
                let context = zmq::Context::new();
                let guard = curve::Guard::bind(&context, curve)?;
                (context, Some(guard))
            }
        };
        let router = context.socket(zmq::ROUTER)?;
        router.set_linger(0)?;
        router.set_router_mandatory(true)?;
        router.set_sndhwm(config.high_water_mark)?;
        router.set_rcvhwm(config.high_water_mark)?;
        // Room for the six small frames around the body.
        router.set_maxmsgsize(
            i64::try_from(max_body)
                .unwrap_or(i64::MAX)
                .saturating_add(4096),
        )?;
        if let (Some(curve), Some(guard)) = (&config.curve, &guard) {
            curve.secure(&router)?;
            guard.watch(&router)?;
        }
        let endpoint = bind(&router, &config.endpoint)?;
        let publisher = match &config.iopub {
            Some(iopub) => {
                let publisher = context.socket(zmq::PUB)?;
                publisher.set_linger(0)?;
                publisher.set_sndhwm(config.high_water_mark)?;
                if let Some(curve) = &config.curve {
                    curve.secure(&publisher)?;
                }
                let endpoint = bind(&publisher, iopub)?;
                Some((publisher, endpoint))
            }
            None => None,
        };
        let iopub_endpoint = publisher.as_ref().map(|(_, e)| e.clone());
        let (outbox, inbox) = mailbox(&context)?;
        let shared = Arc::new(Shared {
            outbox,
            accepting: AtomicBool::new(true),
            in_flight: AtomicUsize::new(0),
            idle: Notify::new(),
            publishing: publisher.is_some(),
            stopped: CancellationToken::new(),
            counts: Counts::default(),
            questions: talk::Questions::default(),
        });
        if shared.publishing {
            runtime.spawn(calls::publish_jobs(port.subscribe(), shared.clone()));
            if let Some(updates) = port.resource_updates() {
                runtime.spawn(calls::publish_updates(updates, shared.clone()));
            }
        }
        let thread = socket::Thread {
            _context: context,
            router,
            publisher: publisher.map(|(socket, _)| socket),
            inbox,
            shared: shared.clone(),
            port,
            runtime,
            max_body,
            max_in_flight: config.max_in_flight,
            services: config.services,
            peers: Default::default(),
            peer_liveness: config.peer_liveness,
            trust_plain_peers: config.trust_plain_peers,
            in_flight: Default::default(),
            guard,
        };
        let thread = std::thread::Builder::new()
            .name("toolwright-hoot-server".into())
            .spawn(move || thread.run())
            .map_err(HootError::Thread)?;
        Ok(ServerHandle {
            endpoint,
            iopub_endpoint,
            limit: config.max_in_flight,
            shared,
            thread: Some(thread),
        })
    }
}

/// Binds `socket` to `endpoint` and returns the endpoint it is bound to.
fn bind(socket: &zmq::Socket, endpoint: &str) -> Result<String, HootError> {
    socket.bind(endpoint).map_err(|source| HootError::Bind {
        endpoint: endpoint.to_owned(),
        source,
    })?;
    Ok(socket
        .get_last_endpoint()?
        .unwrap_or_else(|_| endpoint.to_owned()))
}

/// A running server. Dropping it stops the server at once; prefer
/// [`ServerHandle::shutdown`].
#[derive(Debug)]
pub struct ServerHandle {
    endpoint: String,
    iopub_endpoint: Option<String>,
    limit: usize,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl ServerHandle {
    /// The endpoint it serves on, with the port libzmq picked.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The endpoint it publishes IOPub on, if it does.
    pub fn iopub_endpoint(&self) -> Option<&str> {
        self.iopub_endpoint.as_deref()
    }

    /// What it has done so far.
    pub fn stats(&self) -> ServerStats {
        self.shared.counts.snapshot()
    }

    /// A view of the server's load that outlives this borrow: what
    /// [`Probes::hoot_server`](crate::http::Probes::hoot_server) reads at
    /// each probe.
    pub fn meter(&self) -> ServerMeter {
        ServerMeter {
            shared: self.shared.clone(),
            limit: self.limit,
        }
    }

    /// Stops gracefully: new Requests are answered `UNAVAILABLE`, calls in
    /// flight have up to `grace` to answer (then they are cancelled), every
    /// peer is sent a Disconnect, and the sockets close.
    pub async fn shutdown(mut self, grace: Duration) {
        self.shared.accepting.store(false, Ordering::Release);
        let deadline = tokio::time::Instant::now() + grace;
        loop {
            let idle = self.shared.idle.notified();
            tokio::pin!(idle);
            idle.as_mut().enable();
            if self.shared.in_flight.load(Ordering::Acquire) == 0 {
                break;
            }
            tokio::select! {
                () = idle => {}
                () = tokio::time::sleep_until(deadline) => break,
            }
        }
        self.stop();
        if let Some(thread) = self.thread.take() {
            let _ = tokio::task::spawn_blocking(move || thread.join()).await;
        }
    }

    fn stop(&self) {
        self.shared.stopped.cancel();
        self.shared.outbox.push(Out::Stop);
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.stop();
        }
    }
}

/// A running server's load, read while it serves: cheap to clone, it
/// holds no socket and keeps nothing running.
#[derive(Clone, Debug)]
pub struct ServerMeter {
    shared: Arc<Shared>,
    limit: usize,
}

impl ServerMeter {
    /// Calls taken and not yet answered.
    pub fn serving(&self) -> usize {
        self.shared.in_flight.load(Ordering::Acquire)
    }

    /// Whether it takes new calls: false once it shuts down.
    pub fn accepting(&self) -> bool {
        self.shared.accepting.load(Ordering::Acquire) && !self.shared.stopped.is_cancelled()
    }

    /// What it has done so far.
    pub fn stats(&self) -> ServerStats {
        self.shared.counts.snapshot()
    }

    /// Its load as [`Gauges`](crate::port::Gauges): calls in flight, the
    /// limit, and the Requests and handshakes it refused.
    pub fn gauges(&self) -> crate::port::Gauges {
        let stats = self.stats();
        let wide = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
        crate::port::Gauges {
            hoot_serving: Some(wide(self.serving())),
            hoot_serving_limit: Some(wide(self.limit)),
            hoot_turned_away: Some(stats.turned_away),
            hoot_key_refused: Some(stats.auth_refused),
            hoot_handshake_failed: Some(stats.handshake_failed),
            ..Default::default()
        }
    }
}

/// What the socket thread is asked to send.
pub(super) enum Out {
    /// A Reply to a peer's call; `last` for the final one.
    Reply {
        peer: Vec<u8>,
        request_id: super::RequestId,
        body: Vec<u8>,
        last: bool,
    },
    /// An IOPub message.
    Publish([Vec<u8>; 2]),
    /// Say goodbye and close.
    Stop,
}

/// What the socket thread and the call tasks share.
struct Shared {
    outbox: Outbox<Out>,
    accepting: AtomicBool,
    in_flight: AtomicUsize,
    idle: Notify,
    publishing: bool,
    stopped: CancellationToken,
    counts: Counts,
    /// Questions handlers asked their callers, waiting for Answers.
    questions: talk::Questions,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("in_flight", &self.in_flight)
            .finish_non_exhaustive()
    }
}

#[derive(Default)]
struct Counts {
    calls: AtomicU64,
    refused: AtomicU64,
    dropped: AtomicU64,
    turned_away: AtomicU64,
    undeliverable: AtomicU64,
    auth_refused: AtomicU64,
    handshake_failed: AtomicU64,
}

impl Counts {
    fn snapshot(&self) -> ServerStats {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        ServerStats {
            calls: get(&self.calls),
            refused: get(&self.refused),
            dropped: get(&self.dropped),
            turned_away: get(&self.turned_away),
            undeliverable: get(&self.undeliverable),
            auth_refused: get(&self.auth_refused),
            handshake_failed: get(&self.handshake_failed),
        }
    }
}

fn count(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}
