//! What the tool event feed costs calls: `POST /api/tools/add` per second
//! with 0, 1 and 100 simulated browsers following `GET /api/events`. Run
//! by `scripts/bench-events` (release build); not a test.
//!
//! The studio serves MCP and the web routes in this process on loopback.
//! Each subscriber is an HTTP connection reading the event stream as fast
//! as it comes, as a browser tab would; calls go over 8 keep-alive
//! connections. For each of R rounds the three subscriber counts take
//! turns, each round starting with the next; a rate is the median over the
//! rounds, and a ratio the median of the same-round ratios against 0
//! subscribers.
//!
//! Usage: bench_events [--calls N] [--rounds R]   (defaults 20000, 5)

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt as _, Full};
use hyper::body::Bytes;
use hyper::{Request, header};
use hyper_util::rt::TokioIo;
use studio::Studio;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use toolwright::Dispatcher;
use toolwright::mcp::{HttpConfig, McpServer};

/// Connections the calls are spread over.
const CONNECTIONS: usize = 8;
/// Subscriber counts measured.
const SUBSCRIBERS: [usize; 3] = [0, 1, 100];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let usage = "usage: bench_events [--calls N] [--rounds R]";
    let (mut calls, mut rounds) = (20_000usize, 5usize);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().ok_or(usage)?;
        match arg.as_str() {
            "--calls" => calls = value.parse()?,
            "--rounds" => rounds = value.parse()?,
            _ => return Err(usage.into()),
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(run(calls, rounds))
}

async fn run(calls: usize, rounds: usize) -> Result<(), Box<dyn std::error::Error>> {
    let data = tempfile::tempdir()?;
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let stop = CancellationToken::new();
    let server = McpServer::new(Dispatcher::new(Studio::open(data.path())?))?;
    tokio::spawn(server.serve_http_on(listener, HttpConfig::default().shutdown(stop.clone())));

    // Warm up: connections, allocator, caches.
    measure(addr, calls / 10).await?;
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); SUBSCRIBERS.len()];
    let mut received = vec![0u64; SUBSCRIBERS.len()];
    for round in 1..=rounds {
        eprintln!("== round {round}/{rounds}");
        // Each round starts with another count, so no count always runs
        // first (or last) in a round.
        for turn in 0..SUBSCRIBERS.len() {
            let i = (turn + round) % SUBSCRIBERS.len();
            let count = SUBSCRIBERS[i];
            let feeds = Feeds::open(addr, count).await?;
            rates[i].push(measure(addr, calls).await?);
            received[i] += feeds.close();
        }
    }

    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "| subscribers following /api/events | POST /api/tools/add per second | vs none | events received |"
    );
    println!("|---|---|---|---|");
    for (i, &count) in SUBSCRIBERS.iter().enumerate() {
        let ratio = median(rates[i].iter().zip(&rates[0]).map(|(r, z)| r / z).collect());
        println!(
            "| {count} | {:.0} | {ratio:.2}× | {} |",
            median(rates[i].clone()),
            received[i]
        );
    }
    println!();
    println!("samples: {rates:?}");
    stop.cancel();
    Ok(())
}

/// Calls `add` `calls` times over `CONNECTIONS` keep-alive connections;
/// calls per second.
async fn measure(addr: SocketAddr, calls: usize) -> Result<f64, Box<dyn std::error::Error>> {
    let left = Arc::new(AtomicU64::new(calls as u64));
    let started = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..CONNECTIONS {
        let left = left.clone();
        workers.push(tokio::spawn(async move {
            let stream = TcpStream::connect(addr).await?;
            stream.set_nodelay(true)?;
            let (mut sender, connection) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
            tokio::spawn(connection);
            while left
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                .is_ok()
            {
                let request = Request::post("/api/tools/add")
                    .header(header::HOST, addr.to_string())
                    .header(header::CONTENT_TYPE, "application/json")
                    .body(Full::new(Bytes::from_static(br#"{"a": 2, "b": 40}"#)))?;
                let response = sender.send_request(request).await?;
                let status = response.status();
                let body = response.into_body().collect().await?.to_bytes();
                if !status.is_success() || !body.starts_with(b"{\"success\"") {
                    return Err(format!("unexpected answer {status}: {body:?}").into());
                }
            }
            Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
        }));
    }
    for worker in workers {
        worker.await?.map_err(|e| e.to_string())?;
    }
    Ok(calls as f64 / started.elapsed().as_secs_f64())
}

/// Simulated browsers: each follows the event stream and reads it all.
struct Feeds {
    stop: CancellationToken,
    events: Arc<AtomicU64>,
}

impl Feeds {
    async fn open(addr: SocketAddr, count: usize) -> Result<Feeds, Box<dyn std::error::Error>> {
        let stop = CancellationToken::new();
        let events = Arc::new(AtomicU64::new(0));
        for _ in 0..count {
            let stream = TcpStream::connect(addr).await?;
            let (mut sender, connection) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
            tokio::spawn(connection);
            let request = Request::get("/api/events")
                .header(header::HOST, addr.to_string())
                .body(Full::new(Bytes::new()))?;
            let mut body = sender.send_request(request).await?.into_body();
            let (stop, events) = (stop.clone(), events.clone());
            tokio::spawn(async move {
                loop {
                    tokio::select! {
                        frame = body.frame() => match frame {
                            Some(Ok(frame)) => {
                                if let Some(data) = frame.data_ref() {
                                    let n = data.windows(6).filter(|w| w == b"event:").count();
                                    events.fetch_add(n as u64, Ordering::Relaxed);
                                }
                            }
                            _ => break,
                        },
                        () = stop.cancelled() => break,
                    }
                }
            });
        }
        // Let every subscription reach the hub before calls start.
        tokio::time::sleep(Duration::from_millis(200)).await;
        Ok(Feeds { stop, events })
    }

    /// Stops following; how many events were received.
    fn close(self) -> u64 {
        self.stop.cancel();
        self.events.load(Ordering::Relaxed)
    }
}
