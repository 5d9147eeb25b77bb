//! HOOT01 round trips per second on loopback tcp, measured against the
//! floor: a bare ROUTER/DEALER echo of the same bytes through the same
//! libzmq. Run by `scripts/bench-hoot` (release build); not a test.
//!
//! For each of R rounds it measures, in turn:
//! - `echo`: a DEALER sends the seven frames of a HOOT01 `add` request and
//!   a ROUTER on its own thread sends them straight back;
//! - `hoot`: the same request through `hoot::Client` to `hoot::Server`
//!   serving the studio's `Dispatcher`, answered with the `add` reply;
//!
//! - `curve`: the same through a client and server secured with CURVE
//!   (`ServerConfig::curve`, `ClientConfig::curve`): what encryption and
//!   authentication cost a call;
//!
//! each with 1 call in flight (requests/s, p50 and p99 latency) and with 64
//! in flight (requests/s). Prints a Markdown table of the medians over the
//! rounds.
//!
//! Usage: bench_hoot [--calls N] [--rounds R]   (defaults 20000, 5)

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use studio::{MathOperands, MathResult, Studio, ToolCatalogue, ToolRequest, ToolResponse};
use toolwright::hoot::{
    self, Client, ClientConfig, KeyPair, Message, RequestId, Server, ServerConfig,
};
use toolwright::port::{CallOptions, CallPort};
use toolwright::{Dispatcher, ResponseEnvelope, codec};

/// Calls kept in flight for the pipelined figures.
const PIPELINE: usize = 64;

/// One measurement: a rate, and latencies when one call was in flight.
#[derive(Clone, Copy, Debug, Default)]
struct Sample {
    per_second: f64,
    p50: Duration,
    p99: Duration,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut calls = 20_000usize;
    let mut rounds = 5usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args
            .next()
            .ok_or("usage: bench_hoot [--calls N] [--rounds R]")?;
        match arg.as_str() {
            "--calls" => calls = value.parse()?,
            "--rounds" => rounds = value.parse()?,
            _ => return Err("usage: bench_hoot [--calls N] [--rounds R]".into()),
        }
    }
    let request = codec::to_msgpack(&ToolRequest::Add(MathOperands { a: 2, b: 40 }))?;
    let body = hoot::encode_call(&request, None, false);

    let mut echo_one = Vec::new();
    let mut echo_many = Vec::new();
    let mut hoot_one = Vec::new();
    let mut hoot_many = Vec::new();
    let mut curve_one = Vec::new();
    let mut curve_many = Vec::new();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    for round in 1..=rounds {
        eprintln!("round {round} of {rounds}");
        let (one, many) = echo(&body, calls)?;
        echo_one.push(one);
        echo_many.push(many);
        let (one, many) = runtime.block_on(through_hoot(&request, calls, false))?;
        hoot_one.push(one);
        hoot_many.push(many);
        let (one, many) = runtime.block_on(through_hoot(&request, calls, true))?;
        curve_one.push(one);
        curve_many.push(many);
    }
    println!("| path | 1 in flight | p50 | p99 | {PIPELINE} in flight |");
    println!("|---|---|---|---|---|");
    for (name, one, many) in [
        ("bare ROUTER/DEALER echo", &echo_one, &echo_many),
        (
            "HOOT01 `add` (client → server → dispatcher)",
            &hoot_one,
            &hoot_many,
        ),
        ("HOOT01 `add` over CURVE", &curve_one, &curve_many),
    ] {
        let one = median(one);
        let many = median(many);
        println!(
            "| {name} | {:.0} req/s | {:.1} µs | {:.1} µs | {:.0} req/s |",
            one.per_second,
            micros(one.p50),
            micros(one.p99),
            many.per_second
        );
    }
    let ratio = |a: &[Sample], b: &[Sample]| {
        let mut r: Vec<f64> = a
            .iter()
            .zip(b)
            .map(|(a, b)| a.per_second / b.per_second)
            .collect();
        r.sort_by(f64::total_cmp);
        r[r.len() / 2]
    };
    println!();
    println!(
        "HOOT01 / echo, paired by round: {:.2}× at 1 in flight, {:.2}× at {PIPELINE} in flight",
        ratio(&hoot_one, &echo_one),
        ratio(&hoot_many, &echo_many)
    );
    Ok(())
}

/// The floor: the request's frames echoed by a bare ROUTER.
fn echo(body: &[u8], calls: usize) -> Result<(Sample, Sample), Box<dyn std::error::Error>> {
    let context = zmq::Context::new();
    let router = context.socket(zmq::ROUTER)?;
    router.set_linger(0)?;
    router.bind("tcp://127.0.0.1:*")?;
    let endpoint = router
        .get_last_endpoint()?
        .map_err(|_| "the endpoint is not UTF-8")?;
    let stop = Arc::new(AtomicBool::new(false));
    let stopping = stop.clone();
    let echoer = thread::spawn(move || -> zmq::Result<()> {
        router.set_rcvtimeo(100)?;
        while !stopping.load(Ordering::Relaxed) {
            match router.recv_multipart(0) {
                Ok(parts) => router.send_multipart(parts, 0)?,
                Err(zmq::Error::EAGAIN) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    });
    let dealer = context.socket(zmq::DEALER)?;
    dealer.set_linger(0)?;
    dealer.connect(&endpoint)?;
    let frames = |id: RequestId| hoot::encode(Message::request(id, "", body.to_vec()));

    let mut latencies = Vec::with_capacity(calls);
    let started = Instant::now();
    for _ in 0..calls {
        let sent = Instant::now();
        dealer.send_multipart(frames(RequestId::new()), 0)?;
        dealer.recv_multipart(0)?;
        latencies.push(sent.elapsed());
    }
    let one = sample(calls, started.elapsed(), latencies);

    let started = Instant::now();
    let mut sent = 0;
    let mut received = 0;
    while received < calls {
        while sent < calls && sent - received < PIPELINE {
            dealer.send_multipart(frames(RequestId::new()), 0)?;
            sent += 1;
        }
        dealer.recv_multipart(0)?;
        received += 1;
    }
    let many = sample(calls, started.elapsed(), Vec::new());
    stop.store(true, Ordering::Relaxed);
    echoer.join().map_err(|_| "the echo thread panicked")??;
    Ok((one, many))
}

/// The same request through `hoot::Client` and `hoot::Server` to the
/// studio's dispatcher, each answer checked; with `curve`, both secured.
async fn through_hoot(
    request: &[u8],
    calls: usize,
    curve: bool,
) -> Result<(Sample, Sample), Box<dyn std::error::Error>> {
    let data = std::env::temp_dir().join("toolwright-bench-hoot");
    let mut server_config = ServerConfig::new("tcp://127.0.0.1:0");
    let mut client_config = ClientConfig::default();
    if curve {
        let (server_keys, client_keys) = (KeyPair::generate()?, KeyPair::generate()?);
        let server_key = server_keys.public();
        server_config = server_config.curve(server_keys, [client_keys.public()]);
        client_config = client_config.curve(client_keys, server_key);
    }
    let server = Server::serve(Dispatcher::new(Studio::open(&data)?), server_config)?;
    let client = Client::<ToolCatalogue>::connect(&[server.endpoint()], client_config)?;
    if !client.ready(Duration::from_secs(5)).await {
        return Err("the server did not answer its first heartbeat".into());
    }
    let expected = ResponseEnvelope::Success(ToolResponse::Add(MathResult { result: 42 }));

    let mut latencies = Vec::with_capacity(calls);
    let started = Instant::now();
    for _ in 0..calls {
        let sent = Instant::now();
        let answer = client.call(request.to_vec(), CallOptions::default()).await;
        latencies.push(sent.elapsed());
        if answer != expected {
            return Err(format!("unexpected answer {answer:?}").into());
        }
    }
    let one = sample(calls, started.elapsed(), latencies);

    let started = Instant::now();
    let mut callers = Vec::with_capacity(PIPELINE);
    for caller in 0..PIPELINE {
        let client = client.clone();
        let request = request.to_vec();
        let expected = expected.clone();
        // The calls split evenly; the first callers take the remainder.
        let share = calls / PIPELINE + usize::from(caller < calls % PIPELINE);
        callers.push(tokio::spawn(async move {
            for _ in 0..share {
                let answer = client.call(request.clone(), CallOptions::default()).await;
                if answer != expected {
                    return Err(format!("unexpected answer {answer:?}"));
                }
            }
            Ok(())
        }));
    }
    for caller in callers {
        caller.await??;
    }
    let many = sample(calls, started.elapsed(), Vec::new());
    server.shutdown(Duration::from_secs(1)).await;
    Ok((one, many))
}

/// A rate over `calls` in `elapsed`, with the latencies' percentiles.
fn sample(calls: usize, elapsed: Duration, mut latencies: Vec<Duration>) -> Sample {
    latencies.sort_unstable();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    Sample {
        per_second: calls as f64 / elapsed.as_secs_f64(),
        p50: at(0.50),
        p99: at(0.99),
    }
}

/// The sample with the median rate.
fn median(samples: &[Sample]) -> Sample {
    let mut sorted = samples.to_vec();
    sorted.sort_by(|a, b| a.per_second.total_cmp(&b.per_second));
    sorted[sorted.len() / 2]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}
