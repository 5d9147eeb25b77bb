//! Which worker a HOOT01 client calls: ties between the least busy take
//! turns, a worker killed without a word leaves the rotation at the first
//! sign and no call it never took fails, and a client of one service calls
//! only the backends that serve it.
#![cfg(feature = "hoot")]

mod support;

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use support::*;
use toolwright::hoot::{
    self, BackendState, Client, ClientConfig, HootError, Message, RequestId, Server, ServerConfig,
    ServerHandle,
};
use toolwright::port::{CallOptions, CallPort};
use toolwright::{DispatcherConfig, ResponseEnvelope, codes};

type Hoot = Client<ToolCatalogue>;

/// Quick heartbeats, and a liveness window no test outlives: a backend
/// leaves the rotation here only for what the client sees of it, never
/// for having been silent too long.
fn config() -> ClientConfig {
    ClientConfig::default()
        .heartbeat(Duration::from_millis(50), Duration::from_secs(3600))
        .timeout(Duration::from_secs(10))
}

fn serve(config: ServerConfig) -> (ServerHandle, toolwright::Dispatcher<Studio>) {
    let d = dispatcher(DispatcherConfig::default());
    let server = Server::serve(d.clone(), config).expect("the server binds");
    (server, d)
}

fn tcp() -> ServerConfig {
    ServerConfig::new("tcp://127.0.0.1:0")
}

/// Waits until `done` holds of the client's backends.
async fn until(client: &Hoot, what: &str, done: impl Fn(&[BackendState]) -> bool) {
    let states =
        || -> Vec<BackendState> { client.backends().into_iter().map(|b| b.state).collect() };
    let waited = tokio::time::timeout(SOON, async {
        while !done(&states()) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await;
    assert!(waited.is_ok(), "{what}: {:?}", client.backends());
}

async fn add(client: &Hoot, a: i64) -> Envelope {
    let request = ToolRequest::Add(MathOperands { a, b: 1 });
    client.call(encode(&request), CallOptions::default()).await
}

fn sum(result: i64) -> Envelope {
    ResponseEnvelope::Success(ToolResponse::Add(MathResult { result }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sequential_calls_take_turns_over_idle_workers() {
    let workers: Vec<_> = (0..3).map(|_| serve(tcp())).collect();
    let endpoints: Vec<&str> = workers.iter().map(|(s, _)| s.endpoint()).collect();
    let client = Hoot::connect(&endpoints, config()).expect("connect");
    until(&client, "every worker joins", |s| {
        s.iter().all(|s| *s == BackendState::InRotation)
    })
    .await;
    for i in 0..300 {
        assert_eq!(add(&client, i).await, sum(i + 1));
    }
    let calls: Vec<u64> = workers.iter().map(|(s, _)| s.stats().calls).collect();
    assert_eq!(calls, [100, 100, 100]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_worker_leaves_the_rotation_and_no_call_it_never_took_fails() {
    let (first, d1) = serve(tcp());
    let (second, d2) = serve(tcp());
    let relay = Relay::start(first.endpoint());
    let client =
        Hoot::connect(&[relay.endpoint.as_str(), second.endpoint()], config()).expect("connect");
    until(&client, "both workers join", |s| {
        s.iter().all(|s| *s == BackendState::InRotation)
    })
    .await;

    // One long call on each worker (the second goes to the idler one).
    let long = |client: &Hoot| {
        let client = client.clone();
        tokio::spawn(async move {
            let sleep = ToolRequest::Sleep(DelayRequest { ms: 60_000 });
            let options = CallOptions::default().wait_until_done();
            client.call(encode(&sleep), options).await
        })
    };
    let on_first = long(&client);
    tokio::time::timeout(SOON, d1.service().probes.started("sleep", 1))
        .await
        .expect("the first worker takes the first long call");
    let on_second = long(&client);
    tokio::time::timeout(SOON, d2.service().probes.started("sleep", 1))
        .await
        .expect("the second worker takes the second");

    // A steady stream of calls; a third of the way in, the first worker
    // is cut off as `kill -9` would (no Disconnect), between two calls, so
    // that none of the stream is in flight on it.
    let mut relay = Some(relay);
    for i in 0..300 {
        if let Some(relay) = relay.take_if(|_| i == 100) {
            tokio::time::timeout(SOON, tokio::task::spawn_blocking(move || relay.kill()))
                .await
                .expect("the client closes its end of the cut connection")
                .expect("the relay stops");
        }
        assert_eq!(add(&client, i).await, sum(i + 1), "call {i}");
    }
    // Ties took turns until the cut; everything after went to the second.
    assert_eq!(first.stats().calls, 1 + 50);
    assert_eq!(second.stats().calls, 1 + 50 + 200);

    // The call the dead worker had may have run, so it is not sent again:
    // its caller hears the connection closed, long before any liveness
    // window.
    let lost = tokio::time::timeout(SOON, on_first)
        .await
        .expect("the dead worker's call is answered")
        .expect("the caller did not panic");
    let lost = error(&lost);
    assert_eq!(lost.code, codes::UNAVAILABLE);
    assert!(lost.message.contains("closed its connection"), "{lost:?}");
    let states: Vec<BackendState> = client.backends().into_iter().map(|b| b.state).collect();
    assert_eq!(
        states,
        [BackendState::NotAnswering, BackendState::InRotation]
    );
    on_second.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_of_one_service_calls_only_the_backends_that_serve_it() {
    let (serves_a, _da) = serve(tcp().service("a"));
    let (serves_b, _db) = serve(tcp().service("b").service("b2"));
    let endpoints = [serves_a.endpoint(), serves_b.endpoint()];
    // Two clients in one process, as one gateway routing two services.
    let client_a = Hoot::connect(&endpoints, config().service("a")).expect("connect");
    let client_b = Hoot::connect(&endpoints, config().service("b2")).expect("connect");
    until(&client_a, "a's backend joins, b's refuses", |s| {
        s[0] == BackendState::InRotation && matches!(s[1], BackendState::Refused(_))
    })
    .await;
    until(&client_b, "b's backend joins, a's refuses", |s| {
        matches!(s[0], BackendState::Refused(_)) && s[1] == BackendState::InRotation
    })
    .await;
    assert_eq!(
        client_a.backends()[1].state,
        BackendState::Refused("this backend serves `b`, `b2`, not `a`".into())
    );
    for i in 0..20 {
        assert_eq!(add(&client_a, i).await, sum(i + 1));
    }
    for i in 0..10 {
        assert_eq!(add(&client_b, i).await, sum(i + 1));
    }
    assert_eq!(serves_a.stats().calls, 20);
    assert_eq!(serves_b.stats().calls, 10);
    assert!(serves_a.stats().refused > 0 && serves_b.stats().refused > 0);

    // No backend serves `c`: its calls fail, saying so.
    let client_c = Hoot::connect(&endpoints, config().service("c")).expect("connect");
    until(&client_c, "both refuse", |s| {
        s.iter().all(|s| matches!(s, BackendState::Refused(_)))
    })
    .await;
    let refused = add(&client_c, 1).await;
    let refused = error(&refused);
    assert_eq!(refused.code, codes::UNAVAILABLE);
    assert!(
        refused.message.starts_with(&format!(
            "no backend serves the service `c` ({} refuses it: this backend serves `a`, not `c`; \
             {} refuses it: this backend serves `b`, `b2`, not `c`)",
            endpoints[0], endpoints[1]
        )),
        "{}",
        refused.message
    );
    assert!(format!("{client_c:?}").contains("Refused"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_or_heartbeat_for_another_service_is_answered_unknown_service() {
    let (server, _d) = serve(tcp().service("a"));
    let context = zmq::Context::new();
    let dealer = context.socket(zmq::DEALER).expect("a socket");
    dealer.set_rcvtimeo(10_000).expect("timeout");
    dealer.connect(server.endpoint()).expect("connect");
    let exchange = |message: Message| {
        dealer
            .send_multipart(hoot::encode(message), 0)
            .expect("send");
        let frames = dealer.recv_multipart(0).expect("an answer");
        hoot::decode(frames, 1 << 20).expect("a HOOT01 message")
    };
    let body = || {
        hoot::encode_call(
            &encode(&ToolRequest::Add(MathOperands { a: 1, b: 2 })),
            None,
            false,
        )
    };

    let mut heartbeat = Message::heartbeat(RequestId::new());
    heartbeat.service = "c".into();
    let answer = exchange(heartbeat);
    assert_eq!(
        answer.command,
        hoot::Command::Reply,
        "not Ready: {answer:?}"
    );
    let refusal = decode(&answer.body);
    let e = error(&refusal);
    assert_eq!(e.code, codes::UNKNOWN_SERVICE);
    assert_eq!(e.message, "this backend serves `a`, not `c`");
    assert_eq!(
        e.details,
        Some(serde_json::json!({"service": "c", "serves": ["a"]}))
    );

    let id = RequestId::new();
    let answer = exchange(Message::request(id, "c", body()));
    assert_eq!(answer.request_id, id);
    assert_eq!(error(&decode(&answer.body)).code, codes::UNKNOWN_SERVICE);
    assert_eq!(server.stats().calls, 0);

    // Its own name, or none, is served.
    for service in ["a", ""] {
        let answer = exchange(Message::request(RequestId::new(), service, body()));
        assert_eq!(decode(&answer.body), sum(3), "service `{service}`");
    }
    assert_eq!(server.stats().calls, 2);
    assert_eq!(server.stats().refused, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_service_name_frame_4_cannot_hold_is_refused_at_start() {
    let long = "s".repeat(256);
    let client = Hoot::connect(&["tcp://127.0.0.1:9"], config().service(long.clone()));
    assert!(matches!(client, Err(HootError::ServiceName(name)) if name == long));
    let d = dispatcher(DispatcherConfig::default());
    let server = Server::serve(d, tcp().service("a").service(long.clone()));
    assert!(matches!(server, Err(HootError::ServiceName(name)) if name == long));
    assert!(Hoot::connect(&["tcp://127.0.0.1:9"], config().service("s".repeat(255))).is_ok());
}

/// A TCP relay in front of a backend, so that a test can cut the backend
/// off as `kill -9` would: its connections close without a Disconnect, and
/// its port refuses new ones.
struct Relay {
    endpoint: String,
    address: SocketAddr,
    killed: Arc<AtomicBool>,
    accepting: JoinHandle<()>,
    links: Arc<Mutex<Vec<Link>>>,
}

/// One relayed connection.
struct Link {
    client: TcpStream,
    backend: TcpStream,
    /// Copies the client's bytes to the backend, until the client closes.
    up: JoinHandle<()>,
}

impl Relay {
    fn start(backend: &str) -> Relay {
        let backend: SocketAddr = backend
            .trim_start_matches("tcp://")
            .parse()
            .expect("a tcp endpoint");
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let address = listener.local_addr().expect("an address");
        let killed = Arc::new(AtomicBool::new(false));
        let links = Arc::new(Mutex::new(Vec::new()));
        let accepting = std::thread::spawn({
            let (killed, links) = (killed.clone(), links.clone());
            move || {
                for client in listener.incoming() {
                    if killed.load(Ordering::SeqCst) {
                        return;
                    }
                    let (Ok(client), Ok(server)) = (client, TcpStream::connect(backend)) else {
                        continue;
                    };
                    let clone = |s: &TcpStream| s.try_clone().expect("a socket handle");
                    let up = copy(clone(&client), clone(&server), Some(killed.clone()));
                    copy(clone(&server), clone(&client), None);
                    links.lock().expect("links").push(Link {
                        client,
                        backend: server,
                        up,
                    });
                }
            }
        });
        Relay {
            endpoint: format!("tcp://{address}"),
            address,
            killed,
            accepting,
            links,
        }
    }

    /// Cuts every connection and closes the port; returns once the client
    /// has read the end of its connection and closed it.
    fn kill(self) {
        self.killed.store(true, Ordering::SeqCst);
        // Wakes the accepting thread, which then drops the listener.
        let _ = TcpStream::connect(self.address);
        self.accepting.join().expect("the accepting thread");
        let links = std::mem::take(&mut *self.links.lock().expect("links"));
        for link in links {
            let _ = link.backend.shutdown(Shutdown::Both);
            let _ = link.client.shutdown(Shutdown::Write);
            link.up.join().expect("the copying thread");
        }
    }
}

/// Copies `from` into `to` until either closes; once `killed` is set, what
/// arrives is read and dropped.
fn copy(mut from: TcpStream, mut to: TcpStream, killed: Option<Arc<AtomicBool>>) -> JoinHandle<()> {
    std::thread::spawn(move || {
        let mut buf = [0u8; 16 * 1024];
        loop {
            let n = match from.read(&mut buf) {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            if killed.as_ref().is_some_and(|k| k.load(Ordering::SeqCst)) {
                continue;
            }
            if to.write_all(&buf[..n]).is_err() {
                return;
            }
        }
    })
}
