//! The client driver of the MCP benchmarks: one session, a warm-up, then N
//! sequential requests, each answer checked. Prints one JSON line:
//! `{"calls", "seconds", "calls_per_sec", "p50_us", "p99_us", "answer"}`,
//! `answer` a digest of the last answer's content (equal digests, equal
//! answers).
//!
//! `mcp_bench_driver [--calls N] [--warmup N] [--authorization VALUE] [OPERATION] (--http URL | --lean-http URL | --lean-http-stateless URL | --stdio PROGRAM [ARG]...)`
//!
//! The operation is `tools/call` of `add` unless one of these says
//! otherwise (see `operation`):
//! - `--read URI FILE`: `resources/read` of `URI`, whose one blob must
//!   be `FILE`'s bytes;
//! - `--prompt NAME JSON`: `prompts/get` of `NAME` with the arguments
//!   `JSON`, whose messages must not change from one answer to the next;
//! - `--store FILE MIME`: one `tools/call` of `cas_store` with `FILE`'s
//!   bytes, printing `{"hash"}` instead (to fill a store before a read).
//!
//! `--authorization` sends that `Authorization` header with every request
//! of the lean client (`Bearer TOKEN`).
//!
//! `--http` and `--stdio` use rmcp's client; `--lean-http` a client of a
//! few hundred lines over one keep-alive connection (see `lean_http`).

mod lean_http;
mod operation;

use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::{Value, json};

const USAGE: &str = "usage: mcp_bench_driver [--calls N] [--warmup N] [--authorization VALUE] \
     [--read URI FILE | --prompt NAME JSON | --store FILE MIME] (--http URL | --lean-http URL | --lean-http-stateless URL | --stdio PROGRAM [ARG]...)";

struct Options {
    calls: usize,
    warmup: usize,
    authorization: Option<String>,
    operation: operation::Operation,
    target: Vec<String>,
}

fn parse(mut args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        calls: 5_000,
        warmup: 500,
        authorization: None,
        operation: operation::Operation::Add,
        target: Vec::new(),
    };
    loop {
        match args {
            [flag, n, rest @ ..] if flag == "--calls" || flag == "--warmup" => {
                let n: usize = n.parse().map_err(|e| format!("{flag} {n}: {e}"))?;
                if flag == "--calls" {
                    options.calls = n.max(1);
                } else {
                    options.warmup = n;
                }
                args = rest;
            }
            [flag, value, rest @ ..] if flag == "--authorization" => {
                options.authorization = Some(value.clone());
                args = rest;
            }
            [flag, first, second, rest @ ..]
                if ["--read", "--prompt", "--store"].contains(&flag.as_str()) =>
            {
                options.operation = operation::Operation::parse(flag, first, second)?;
                args = rest;
            }
            [flag, ..]
                if ["--http", "--lean-http", "--lean-http-stateless", "--stdio"]
                    .contains(&flag.as_str()) =>
            {
                options.target = args.to_vec();
                return Ok(options);
            }
            _ => return Err(USAGE.to_owned()),
        }
    }
}

/// A connected client of either kind.
pub(crate) enum Client {
    Sdk(RunningService<RoleClient, ()>),
    Lean(lean_http::LeanHttp),
}

async fn connect(
    target: &[String],
    authorization: Option<&str>,
) -> Result<Client, Box<dyn std::error::Error>> {
    if authorization.is_some() && !target[0].starts_with("--lean-http") {
        return Err("--authorization is sent by the lean client alone".into());
    }
    Ok(match target {
        [flag, url] if flag == "--http" => Client::Sdk(
            ().serve(StreamableHttpClientTransport::from_uri(url.as_str()))
                .await?,
        ),
        [flag, url] if flag == "--lean-http" => {
            Client::Lean(lean_http::LeanHttp::connect(url, authorization).await?)
        }
        [flag, url] if flag == "--lean-http-stateless" => {
            Client::Lean(lean_http::LeanHttp::stateless(url, authorization).await?)
        }
        [flag, program, args @ ..] if flag == "--stdio" => {
            let mut command = tokio::process::Command::new(program);
            command.args(args);
            Client::Sdk(().serve(TokioChildProcess::new(command)?).await?)
        }
        _ => return Err(USAGE.into()),
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = parse(&args)?;
    let mut client = connect(&options.target, options.authorization.as_deref()).await?;
    let mut operation = options.operation;
    if let operation::Operation::Store { .. } = operation {
        let hash = operation.store(&mut client).await?;
        println!("{}", json!({ "hash": hash }));
        return Ok(());
    }
    let mut answer = 0;
    for i in 0..options.warmup {
        answer = operation.run(&mut client, i as i64).await?;
    }
    let mut latencies = Vec::with_capacity(options.calls);
    let started = Instant::now();
    for i in 0..options.calls {
        let call_started = Instant::now();
        answer = operation.run(&mut client, i as i64).await?;
        latencies.push(call_started.elapsed());
    }
    let seconds = started.elapsed().as_secs_f64();
    if let Client::Sdk(client) = client {
        let _ = client.cancel().await;
    }
    latencies.sort_unstable();
    let percentile = |p: f64| -> Value {
        let index = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        json!(
            latencies
                .get(index)
                .copied()
                .unwrap_or(Duration::ZERO)
                .as_micros() as u64
        )
    };
    println!(
        "{}",
        json!({
            "calls": options.calls,
            "seconds": seconds,
            "calls_per_sec": options.calls as f64 / seconds,
            "p50_us": percentile(0.50),
            "p99_us": percentile(0.99),
            "answer": format!("{answer:016x}"),
        })
    );
    Ok(())
}
