//! The HOOT01 client: a [`CallPort`] whose calls run on remote backends.
//!
//! One DEALER per backend, on a thread of its own; calls are pipelined and
//! matched to their Replies by request id. A call goes to the live backend
//! with the fewest calls in flight, backends with as few taking turns
//! (each backend is a worker; it announces itself with Ready), and the job
//! tools go to the backend that runs their job. Every backend is
//! heartbeated: one silent for longer than the liveness window, or whose
//! connection libzmq reports closed, is taken out of rotation and its
//! callers get `UNAVAILABLE` at once; it rejoins when it answers again. A
//! call that never reached a backend (libzmq would not take it, or the
//! backend refused the client's [service](ClientConfig::service)) has not
//! run, and goes to the next live backend instead. With
//! [`ClientConfig::curve`] every connection is encrypted and
//! authenticated, and a backend whose handshake fails stays out of
//! rotation, its callers told why. An
//! [`McpServer`](crate::mcp::McpServer) over a client is a gateway: MCP at
//! the edge, MsgPack over HOOT01 behind it. It decodes the answers it
//! passes on, so its catalogue derives both halves of serde (generated for
//! `Side::Both`, the default).
//!
//! ```no_run
//! # async fn demo<C>() -> Result<(), Box<dyn std::error::Error>>
//! # where
//! #     C: toolwright::ServerCatalogue,
//! #     C::Response: serde::de::DeserializeOwned,
//! # {
//! use std::time::Duration;
//! use toolwright::hoot::{Client, ClientConfig};
//! use toolwright::port::{CallOptions, CallPort};
//!
//! let backends = ["tcp://10.0.0.1:5555", "tcp://10.0.0.2:5555"];
//! let client = Client::<C>::connect(&backends, ClientConfig::default())?;
//! client.ready(Duration::from_secs(5)).await;
//! let answer = client.call(b"\x81\xa4tool\xa4ping".to_vec(), CallOptions::default()).await;
//! # let _ = answer;
//! # Ok(()) }
//! ```

mod dealers;
mod health;
mod jobs;
mod port;
pub(crate) mod route;
mod socket;
mod state;
mod status;
mod talk;

pub use status::{BackendState, BackendStatus};

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::de::IgnoredAny;
use tokio::sync::{broadcast, watch};

use super::mailbox::{Outbox, mailbox};
use super::{CallBody, HootError, KeyPair, Message, PublicKey, RequestId};
use crate::codec::{self, Limits};
use crate::events::{ToolEvents, ToolSource};
use crate::jobs::JobEvent;
use crate::port::{CallOptions, STREAM_CAPACITY, StreamEvent};
use crate::{DispatcherConfig, ResponseEnvelope, ToolError, codes};
use dealers::Dealers;
use route::Route;
use socket::Cmd;
use state::{Failure, State, Waiter};

/// How a [`Client`] times and bounds its calls.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    timeout: Duration,
    heartbeat: Duration,
    liveness: Duration,
    limits: Limits,
    job_ttl: Duration,
    iopub: Vec<String>,
    high_water_mark: i32,
    jobs: Option<jobs::SharedJobs>,
    service: String,
    curve: Option<dealers::Curve>,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            timeout: Duration::from_secs(60),
            heartbeat: Duration::from_millis(250),
            liveness: Duration::from_secs(1),
            limits: Limits::default(),
            job_ttl: DispatcherConfig::default().job_ttl,
            iopub: Vec::new(),
            high_water_mark: 10_000,
            jobs: None,
            service: String::new(),
            curve: None,
        }
    }
}

impl ClientConfig {
    /// How long a call may take beyond the wait it asks the backend for;
    /// then it is cancelled and answered `TIMEOUT`. A call waiting until
    /// its job is done is bounded by the backend's liveness alone.
    /// Default 60 s.
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How often each backend is sent a Heartbeat (default 250 ms), and
    /// how long one may be silent before it is taken out of rotation and
    /// its callers are answered `UNAVAILABLE` (default 1 s).
    #[must_use]
    pub fn heartbeat(mut self, interval: Duration, liveness: Duration) -> Self {
        self.heartbeat = interval.max(Duration::from_millis(1));
        self.liveness = liveness.max(self.heartbeat);
        self
    }

    /// Bounds on the requests and Replies it accepts (default 64 MiB,
    /// nesting 128).
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// How long the backends keep finished jobs, as the port reports it
    /// (default: the dispatcher's default, one hour).
    #[must_use]
    pub fn job_ttl(mut self, ttl: Duration) -> Self {
        self.job_ttl = ttl;
        self
    }

    /// Answers the job tools from `records`, the job store the workers
    /// share (Redis), rather than by asking the worker that runs the job:
    /// `job_status`, `job_list` and `job_poll` see the jobs started on
    /// every worker through every gateway, and `job_cancel` is recorded
    /// even when the job's worker is gone (and reaches the worker, if it is
    /// there). The gateway also settles as `INTERRUPTED` the jobs of
    /// workers whose lease (`lease`, as the workers'
    /// [`DispatcherConfig::job_lease`]) lapsed.
    ///
    /// Connect within a tokio runtime, which runs the reaping.
    #[must_use]
    pub fn jobs(
        mut self,
        records: std::sync::Arc<dyn crate::jobs::JobRecords>,
        lease: Duration,
    ) -> Self {
        self.jobs = Some(jobs::SharedJobs { records, lease });
        self
    }

    /// The service (catalogue) its backends serve, named in frame 4 of
    /// every Request and Heartbeat (at most 255 bytes of UTF-8). A backend
    /// that serves other services answers `UNKNOWN_SERVICE` and never
    /// joins the rotation ([`Client::backends`] says so). Default empty:
    /// whatever each backend serves.
    #[must_use]
    pub fn service(mut self, service: impl Into<String>) -> Self {
        self.service = service.into();
        self
    }

    /// Encrypts and authenticates every connection with CURVE: the client
    /// proves itself with `keys` (the backends must allow its public key)
    /// and talks only to a backend that proves it holds the secret key of
    /// `server`. Every backend of the client, and every IOPub endpoint,
    /// must have that key.
    ///
    /// A backend whose handshake fails (it refuses this client's key, or
    /// its key is not `server`) never joins the rotation: calls are
    /// answered `UNAVAILABLE` at once, saying so, and
    /// [`Client::backends`] shows it as
    /// [`HandshakeFailed`](BackendState::HandshakeFailed). Endpoints must
    /// be `tcp://` or `ipc://`, and libzmq must have CURVE; otherwise
    /// [`Client::connect`] fails rather than connect in plain text.
    #[must_use]
    pub fn curve(mut self, keys: KeyPair, server: PublicKey) -> Self {
        self.curve = Some(dealers::Curve { keys, server });
        self
    }

    /// Also subscribes to a backend's IOPub at `endpoint`, so
    /// [`CallPort::subscribe`](crate::port::CallPort::subscribe) sees its job events.
    #[must_use]
    pub fn iopub(mut self, endpoint: impl Into<String>) -> Self {
        self.iopub.push(endpoint.into());
        self
    }

    /// Whether it follows any backend's IOPub, where resource updates come.
    pub(crate) fn follows_iopub(&self) -> bool {
        !self.iopub.is_empty()
    }
}

/// A HOOT01 client to one or more backends serving catalogue `C`. Cheap to
/// clone; the last clone dropped says Disconnect and stops its thread.
pub struct Client<C> {
    inner: Arc<Inner>,
    catalogue: PhantomData<fn() -> C>,
}

impl<C> Clone for Client<C> {
    fn clone(&self) -> Self {
        Client {
            inner: self.inner.clone(),
            catalogue: PhantomData,
        }
    }
}

impl<C> std::fmt::Debug for Client<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("service", &self.inner.config.service)
            .field("backends", &self.backends())
            .finish_non_exhaustive()
    }
}

struct Inner {
    outbox: Outbox<Cmd>,
    state: Arc<Mutex<State>>,
    events: broadcast::Sender<JobEvent>,
    /// The backends' resource updates, from their IOPub.
    updates: crate::entry::ResourceUpdates,
    /// Calls made through this client: its tools run elsewhere.
    tool_events: ToolEvents,
    alive: watch::Receiver<usize>,
    dropped: Arc<AtomicU64>,
    config: ClientConfig,
    /// Ends the reaping of a shared job store.
    reaper: tokio_util::sync::CancellationToken,
}

impl Inner {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.reaper.cancel();
        self.outbox.push(Cmd::Stop);
    }
}

impl<C> Client<C> {
    /// Connects to `backends` (`tcp://host:port`, `ipc:///path`,
    /// `inproc://name`). Returns at once: backends join the rotation as
    /// they answer their first Heartbeat; see [`Client::ready`].
    ///
    /// # Errors
    /// [`HootError::NoBackend`] for an empty list,
    /// [`HootError::ServiceName`] for a service name over 255 bytes,
    /// [`HootError::Connect`] for an endpoint libzmq rejects, and
    /// [`HootError::CurveUnavailable`] and [`HootError::CurveInproc`] for
    /// CURVE that cannot be had.
    pub fn connect<E: AsRef<str>>(backends: &[E], config: ClientConfig) -> Result<Self, HootError> {
        if backends.is_empty() {
            return Err(HootError::NoBackend);
        }
        super::error::check_service(&config.service)?;
        let endpoints: Vec<String> = backends.iter().map(|e| e.as_ref().to_owned()).collect();
        let context = super::context::shared();
        let max_body = config.limits.max_bytes;
        let curve = config.curve.as_ref();
        let options = dealers::Options {
            high_water_mark: config.high_water_mark,
            max_body,
            curve,
        };
        let dealers = Dealers::connect(&context, &endpoints, &options)?;
        let subscribers = dealers::subscribe(&context, &config.iopub, curve)?;
        let (outbox, inbox) = mailbox(&context)?;
        let state = Arc::new(Mutex::new(State::new(&endpoints, &config.service)));
        let (events, _) = broadcast::channel(1024);
        let updates = crate::entry::ResourceUpdates::new();
        let (alive_tx, alive) = watch::channel(0);
        let dropped = Arc::new(AtomicU64::new(0));
        let thread = socket::Thread {
            _context: context,
            heard: vec![None; dealers.sockets.len()],
            dealers,
            subscribers,
            service: config.service.clone(),
            inbox,
            state: state.clone(),
            events: events.clone(),
            updates: updates.clone(),
            alive: alive_tx,
            dropped: dropped.clone(),
            max_body,
            heartbeat: config.heartbeat,
            liveness: config.liveness,
        };
        std::thread::Builder::new()
            .name("toolwright-hoot-client".into())
            .spawn(move || thread.run())
            .map_err(HootError::Thread)?;
        let reaper = tokio_util::sync::CancellationToken::new();
        if let Some(jobs) = &config.jobs {
            jobs.reap_until(config.retention(), reaper.clone());
        }
        Ok(Client {
            inner: Arc::new(Inner {
                outbox,
                state,
                events,
                updates,
                tool_events: ToolEvents::new(ToolSource::Mcp),
                alive,
                dropped,
                config,
                reaper,
            }),
            catalogue: PhantomData,
        })
    }

    /// Waits until at least one backend is in rotation, at most `timeout`;
    /// whether one is.
    pub async fn ready(&self, timeout: Duration) -> bool {
        let mut alive = self.inner.alive.clone();
        tokio::time::timeout(timeout, alive.wait_for(|n| *n > 0))
            .await
            .is_ok_and(|r| r.is_ok())
    }

    /// The backends in rotation now.
    pub fn backends_alive(&self) -> usize {
        *self.inner.alive.borrow()
    }

    /// Every backend, in the order given to [`Client::connect`], with
    /// whether it takes calls and, if it refused this client's service,
    /// what it answered.
    pub fn backends(&self) -> Vec<BackendStatus> {
        self.inner.lock().statuses()
    }

    /// Messages received and dropped: frame errors, Replies to calls whose
    /// callers had given up.
    pub fn dropped(&self) -> u64 {
        self.inner.dropped.load(Ordering::Relaxed)
    }

    /// Calls with MsgPack `request` and returns the final Reply's body, a
    /// MsgPack `ResponseEnvelope`, undecoded: for callers without the
    /// catalogue's types (a relay, the batch client). The stream goes to
    /// `options.stream` as for [`CallPort::call`](crate::port::CallPort::call).
    ///
    /// # Errors
    /// The client's own errors: `UNAVAILABLE`, `TIMEOUT`, `CANCELLED`, and
    /// `INVALID_REQUEST` for a request over the limits.
    pub async fn call_bytes(
        &self,
        request: Vec<u8>,
        options: CallOptions,
    ) -> Result<Vec<u8>, ToolError> {
        self.call_raw(request, options).await
    }

    /// Sends `request` and returns the final Reply's body, handing the
    /// stream to `options.stream` on the way.
    ///
    /// A job tool naming jobs of no known worker (started through another
    /// gateway, or before this client remembered them) asks each live
    /// worker in turn until one knows them.
    async fn call_raw(&self, request: Vec<u8>, options: CallOptions) -> Result<Vec<u8>, ToolError> {
        self.inner.config.limits.check_size(request.len())?;
        let route = route::of(&request);
        let candidates = match &route {
            Route::Jobs(ids) => self.inner.lock().unowned_candidates(ids),
            Route::Any => Vec::new(),
        };
        if candidates.len() < 2 {
            return self.call_on(&request, &route, None, &options).await;
        }
        let mut last = None;
        for backend in candidates {
            let body = match self
                .call_on(&request, &route, Some(backend), &options)
                .await
            {
                Ok(body) => body,
                // It left the rotation without hearing the question; the
                // next one may know the jobs.
                Err(e) if e.code == codes::UNAVAILABLE && !self.is_alive(backend) => continue,
                Err(e) => return Err(e),
            };
            if !is_not_found(&body) {
                if let Route::Jobs(ids) = &route {
                    let mut state = self.inner.lock();
                    for id in ids {
                        state.owns(id.clone(), backend);
                    }
                }
                return Ok(body);
            }
            last = Some(body);
        }
        last.ok_or_else(|| ToolError::new(codes::UNAVAILABLE, "no backend is answering"))
    }

    fn is_alive(&self, backend: usize) -> bool {
        self.inner.lock().backends[backend].alive
    }

    /// Sends `request` to `pinned`, or to the backend its route picks. A
    /// Request that reached no backend (libzmq would not take it, or the
    /// backend refused its service) cannot have run: it goes to the next
    /// backend picked, the one that failed being out of rotation by then.
    async fn call_on(
        &self,
        request: &[u8],
        route: &Route,
        pinned: Option<usize>,
        options: &CallOptions,
    ) -> Result<Vec<u8>, ToolError> {
        let limit = match options.wait {
            Some(wait) if wait >= Duration::from_secs(60 * 60 * 24 * 365) => None,
            wait => Some(self.inner.config.timeout + wait.unwrap_or_default()),
        };
        let deadline = limit.map(|l| tokio::time::Instant::now() + l);
        // Each failed try takes a backend out of rotation; the bound only
        // matters if they keep coming back in between.
        let tries = self.inner.lock().backends.len() + 1;
        let mut tried = 0;
        loop {
            tried += 1;
            match self
                .try_on(request, route, pinned, options, (deadline, limit))
                .await
            {
                Ok(body) => return Ok(body),
                Err(Failure::Undelivered(_)) if pinned.is_none() && tried < tries => {}
                Err(failure) => return Err(failure.into_error()),
            }
        }
    }

    /// One try of [`Client::call_on`]: a Request to one backend, and what
    /// comes back.
    async fn try_on(
        &self,
        request: &[u8],
        route: &Route,
        pinned: Option<usize>,
        options: &CallOptions,
        (deadline, limit): (Option<tokio::time::Instant>, Option<Duration>),
    ) -> Result<Vec<u8>, Failure> {
        let id = RequestId::new();
        let (waiter, mut inbox) = Waiter::new(STREAM_CAPACITY);
        let backend = {
            let mut state = self.inner.lock();
            let backend = match pinned {
                Some(backend) => backend,
                None => state.choose(route).map_err(Failure::Lost)?,
            };
            state.start(id, backend, waiter);
            backend
        };
        // Forgets the call if this future is dropped before it ends.
        let mut guard = Waiting {
            inner: &self.inner,
            id,
            backend,
            done: false,
        };
        let body = CallBody {
            request,
            wait: options.wait,
            stream: options.stream.is_some(),
            owner: options.owner.as_ref().map(|o| o.as_str()),
            talk_back: options.caller.is_some(),
            principal: options.principal.clone(),
        }
        .encode();
        let message = Message::request(id, self.inner.config.service.as_str(), body);
        #[cfg(feature = "otel")]
        let message = super::traced::stamp(message, options);
        self.inner.outbox.push(Cmd::Send { backend, message });
        let mut cancelling = false;
        // The caller's answers to the handler's questions, being thought
        // of; dropped (and so abandoned) when the call ends.
        let mut asks = tokio::task::JoinSet::new();
        loop {
            let expired = async {
                match deadline {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                // Stream frames first: those that came before the answer
                // reach the caller before it.
                biased;
                Some(body) = inbox.stream.recv() => {
                    self.forward(&body, options, &mut asks).map_err(Failure::Lost)?;
                }
                Some(answered) = asks.join_next(), if !asks.is_empty() => {
                    // A task that panicked or was aborted has no answer; the
                    // handler's wait ends with the call.
                    if let Ok(answer) = answered
                        && let Some(body) = crate::hoot::talk::encode(&answer)
                    {
                        self.inner.outbox.push(Cmd::Send { backend, message: Message::answer(id, body) });
                    }
                }
                answer = &mut inbox.answer => {
                    guard.done = true;
                    while let Ok(body) = inbox.stream.try_recv() {
                        self.forward(&body, options, &mut asks).map_err(Failure::Lost)?;
                    }
                    return answer.unwrap_or_else(|_| {
                        Err(Failure::Lost(ToolError::new(codes::UNAVAILABLE, "the client has stopped")))
                    });
                }
                () = options.cancelled(), if !cancelling => {
                    // The backend stops the handler and answers CANCELLED;
                    // that answer is awaited like any other.
                    cancelling = true;
                    self.inner.outbox.push(Cmd::Send { backend, message: Message::cancel(id) });
                }
                () = expired => {
                    // The guard forgets the call and cancels it remotely.
                    return Err(Failure::Lost(if cancelling {
                        ToolError::cancelled("the call was cancelled; its backend did not confirm in time")
                    } else {
                        ToolError::new(codes::TIMEOUT, format!(
                            "no answer within {:?}; the call was cancelled",
                            limit.unwrap_or_default()
                        ))
                    }));
                }
            }
        }
    }

    /// Hands one non-final Reply on: what the handler says back to the
    /// call's caller, a stream frame to its stream.
    fn forward(
        &self,
        body: &[u8],
        options: &CallOptions,
        asks: &mut tokio::task::JoinSet<crate::hoot::talk::AnswerBody>,
    ) -> Result<(), ToolError> {
        if route::envelope_key(body).is_some_and(|(key, _)| crate::hoot::talk::KEYS.contains(&key))
        {
            let talk = crate::hoot::talk::decode(body, self.inner.config.limits)?;
            talk::hear(talk, options.caller.as_ref(), asks);
            return Ok(());
        }
        self.forward_stream(body, options)
    }

    /// Hands one stream Reply to the caller's stream, if it asked for one.
    /// A caller too slow for its stream stops getting it.
    fn forward_stream(&self, body: &[u8], options: &CallOptions) -> Result<(), ToolError> {
        if let Some(stream) = &options.stream {
            let envelope: ResponseEnvelope<IgnoredAny> =
                codec::from_msgpack(body, self.inner.config.limits)?;
            if let Ok(event) = StreamEvent::from_envelope(envelope) {
                let _ = stream.try_send(event);
            }
        }
        Ok(())
    }
}

/// Whether a final Reply is the job tools' `NOT_FOUND`.
fn is_not_found(body: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Code {
        code: String,
    }
    match route::envelope_key(body) {
        Some(("error", value)) => codec::from_msgpack::<Code>(value, Limits::default())
            .is_ok_and(|e| e.code == "NOT_FOUND"),
        _ => false,
    }
}

/// A call in flight; dropped before it ended, it forgets the call and
/// cancels it on the backend.
struct Waiting<'a> {
    inner: &'a Inner,
    id: RequestId,
    backend: usize,
    done: bool,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if !self.done && self.inner.lock().finish(self.id).is_some() {
            self.inner.outbox.push(Cmd::Send {
                backend: self.backend,
                message: Message::cancel(self.id),
            });
        }
    }
}

impl Inner {
    fn job_ttl(&self) -> Duration {
        self.config.job_ttl
    }
}

impl ClientConfig {
    /// How the jobs this gateway settles (cancels, reaps) are kept: as
    /// long as the workers keep theirs.
    fn retention(&self) -> crate::jobs::records::Retention {
        crate::jobs::records::Retention {
            ttl: self.job_ttl,
            max_finished: DispatcherConfig::default().max_finished_jobs,
        }
    }
}
