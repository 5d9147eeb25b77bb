//! Runs one batch of tool calls against an MCP server and prints the results.
//!
//! ```text
//! mcp_batch --stdio PROGRAM [ARG]... < batch.json
//! mcp_batch --http http://127.0.0.1:8787/mcp < batch.json
//! ```
//!
//! `batch.json` is `{"calls": [{"id", "name", "arguments"}...], "parallel"?:
//! bool, "timeout_ms"?: u64, "max_concurrency"?: usize}`; the output is
//! `{"results": [{"call_id", "success", "result" | "error"}...]}` in call order.

use std::io::Read;
use std::num::NonZeroUsize;
use std::process::ExitCode;
use std::time::Duration;

use serde::Deserialize;
use toolwright::client::{BatchOptions, Client, McpTransport, ToolCall};

const USAGE: &str = "usage: mcp_batch (--stdio PROGRAM [ARG]... | --http URL) < batch.json";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Batch {
    calls: Vec<ToolCall>,
    #[serde(default)]
    parallel: bool,
    timeout_ms: Option<u64>,
    max_concurrency: Option<NonZeroUsize>,
}

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp_batch: {error}");
            ExitCode::from(2)
        }
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let batch: Batch = serde_json::from_str(&input).map_err(|e| format!("batch.json: {e}"))?;

    let transport = match args.as_slice() {
        [flag, program, rest @ ..] if flag == "--stdio" => {
            let mut command = tokio::process::Command::new(program);
            command.args(rest);
            McpTransport::spawn(command).await?
        }
        [flag, url] if flag == "--http" => McpTransport::connect_http(url).await?,
        _ => return Err(USAGE.into()),
    };

    let mut options = BatchOptions::default().parallel(batch.parallel);
    if let Some(ms) = batch.timeout_ms {
        options = options.timeout(Duration::from_millis(ms));
    }
    if let Some(limit) = batch.max_concurrency {
        options = options.max_concurrency(limit);
    }
    let client = Client::new(transport);
    let outcome = client.call_tools(&batch.calls, &options).await;
    client.into_transport().close().await;
    let results = outcome?;
    println!("{}", serde_json::json!({ "results": results }));
    Ok(())
}
