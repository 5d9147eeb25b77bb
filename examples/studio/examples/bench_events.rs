//! What the tool event feed costs calls: `POST /api/tools/add` per second
//! with 0, 1 and 100 simulated browsers following `GET /api/events`, and
//! the server's own CPU time per call. Run by `scripts/bench-events`
//! (release build); not a test.
//!
//! The studio serves MCP and the web routes in this process on loopback.
//! The callers and the simulated browsers run in a child process (this
//! program with `--drive`), so the CPU the server is charged is its own:
//! reading a hundred event streams is the browsers' work, not the
//! server's. Each subscriber is an HTTP connection reading the event
//! stream as fast as it comes, as a browser tab would; calls go over 8
//! keep-alive connections. For each of R rounds the subscriber counts take
//! turns, each round starting with the next; a figure is the median over
//! the rounds, and a ratio the median of the same-round ratios against the
//! first count.
//!
//! Usage: bench_events [--calls N] [--rounds R] [--subscribers N,N,...]
//! (defaults 20000, 5, and 0,1,100)

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
/// Subscriber counts measured unless `--subscribers` names others.
const SUBSCRIBERS: [usize; 3] = [0, 1, 100];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--drive") {
        return drive(&args[1..]);
    }
    let usage = "usage: bench_events [--calls N] [--rounds R] [--subscribers N,N,...]";
    let (mut calls, mut rounds) = (20_000usize, 5usize);
    let mut counts = SUBSCRIBERS.to_vec();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let value = args.next().ok_or(usage)?;
        match arg.as_str() {
            "--calls" => calls = value.parse()?,
            "--rounds" => rounds = value.parse()?,
            "--subscribers" => {
                counts = value.split(',').map(str::parse).collect::<Result<_, _>>()?;
                if counts.is_empty() {
                    return Err(usage.into());
                }
            }
            _ => return Err(usage.into()),
        }
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(run(calls, rounds, &counts))
}

async fn run(
    calls: usize,
    rounds: usize,
    counts: &[usize],
) -> Result<(), Box<dyn std::error::Error>> {
    let data = tempfile::tempdir()?;
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let stop = CancellationToken::new();
    let server = McpServer::new(Dispatcher::new(Studio::open(data.path())?))?;
    tokio::spawn(server.serve_http_on(listener, HttpConfig::default().shutdown(stop.clone())));

    // Warm up: connections, allocator, caches.
    drive_child(addr, calls / 10, 0).await?;
    let mut rates: Vec<Vec<f64>> = vec![Vec::new(); counts.len()];
    let mut cpu: Vec<Vec<f64>> = vec![Vec::new(); counts.len()];
    let mut received = vec![0u64; counts.len()];
    for round in 1..=rounds {
        eprintln!("== round {round}/{rounds}");
        // Each round starts with another count, so no count always runs
        // first (or last) in a round.
        for turn in 0..counts.len() {
            let i = (turn + round) % counts.len();
            let before = cpu_seconds()?;
            let driven = drive_child(addr, calls, counts[i]).await?;
            let spent = cpu_seconds()? - before;
            rates[i].push(driven.rate);
            cpu[i].push(spent * 1e6 / calls as f64);
            received[i] += driven.received;
        }
    }

    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let paired =
        |of: &[Vec<f64>], i: usize| median(of[i].iter().zip(&of[0]).map(|(r, z)| r / z).collect());
    println!(
        "| subscribers following /api/events | POST /api/tools/add per second | vs {first} | server CPU per call (µs) | vs {first} | events received |",
        first = counts[0]
    );
    println!("|---|---|---|---|---|---|");
    for (i, &count) in counts.iter().enumerate() {
        println!(
            "| {count} | {:.0} | {:.3}× | {:.2} | {:.3}× | {} |",
            median(rates[i].clone()),
            paired(&rates, i),
            median(cpu[i].clone()),
            paired(&cpu, i),
            received[i]
        );
    }
    println!();
    println!("calls per second: {rates:.0?}");
    println!("server CPU µs per call: {cpu:.2?}");
    stop.cancel();
    Ok(())
}

/// CPU time this process has used, user and system, in seconds (from
/// `/proc/self/stat`, in the kernel's clock ticks of 10 ms).
fn cpu_seconds() -> Result<f64, Box<dyn std::error::Error>> {
    let stat = std::fs::read_to_string("/proc/self/stat")?;
    // The command name may hold spaces; the fields after it do not.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .ok_or("an unreadable /proc/self/stat")?
        .1
        .split_whitespace()
        .collect();
    let ticks = |n: usize| -> Result<f64, Box<dyn std::error::Error>> {
        Ok(fields
            .get(n)
            .ok_or("a short /proc/self/stat")?
            .parse::<f64>()?)
    };
    // utime and stime: fields 14 and 15, counted from 3 after the name.
    Ok((ticks(11)? + ticks(12)?) / 100.0)
}

/// What one child run measured.
struct Driven {
    rate: f64,
    received: u64,
}

/// Runs this program with `--drive`: `calls` calls while `subscribers`
/// browsers follow the events.
async fn drive_child(
    addr: SocketAddr,
    calls: usize,
    subscribers: usize,
) -> Result<Driven, Box<dyn std::error::Error>> {
    let output = tokio::process::Command::new(std::env::current_exe()?)
        .args([
            "--drive",
            &addr.to_string(),
            &calls.to_string(),
            &subscribers.to_string(),
        ])
        .output()
        .await?;
    if !output.status.success() {
        return Err(format!(
            "the driver failed: {}",
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    let text = String::from_utf8(output.stdout)?;
    let (rate, received) = text
        .trim()
        .split_once(' ')
        .ok_or("the driver said nothing")?;
    Ok(Driven {
        rate: rate.parse()?,
        received: received.parse()?,
    })
}

/// The child: opens the feeds, makes the calls, and prints the calls per
/// second and the events received.
fn drive(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let [addr, calls, subscribers] = args else {
        return Err("usage: bench_events --drive ADDR CALLS SUBSCRIBERS".into());
    };
    let (addr, calls, subscribers): (SocketAddr, usize, usize) =
        (addr.parse()?, calls.parse()?, subscribers.parse()?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let feeds = Feeds::open(addr, subscribers).await?;
        let rate = measure(addr, calls).await?;
        println!("{rate} {}", feeds.close());
        Ok(())
    })
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
