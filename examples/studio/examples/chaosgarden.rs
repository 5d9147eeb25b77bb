//! Chaosgarden: a caller that fires and forgets. It never waits on a
//! reply; it learns how every job ended — success or failure — from the
//! backend's IOPub feed.
//!
//! ```sh
//! cargo run -p studio -- serve --hoot tcp://127.0.0.1:5555 --iopub tcp://127.0.0.1:5556
//! cargo run -p studio --example chaosgarden -- tcp://127.0.0.1:5555 tcp://127.0.0.1:5556
//! ```

use std::time::Duration;

use studio::ToolCatalogue;
use toolwright::codec::{self, Limits};
use toolwright::hoot::{Client, ClientConfig};
use toolwright::jobs::JobEvent;
use toolwright::port::{CallOptions, CallPort};

/// What it fires: a transport command, a seek, and a generation.
const COMMANDS: [&str; 3] = [
    r#"{"tool": "garden_play"}"#,
    r#"{"tool": "garden_seek", "beat": 16.0}"#,
    r#"{"tool": "orpheus_generate", "max_tokens": 256}"#,
];

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [backend, iopub] = args.as_slice() else {
        return Err("usage: chaosgarden HOOT_ENDPOINT IOPUB_ENDPOINT".into());
    };
    let client = Client::<ToolCatalogue>::connect(
        &[backend.as_str()],
        ClientConfig::default().iopub(iopub.as_str()),
    )?;
    if !client.ready(Duration::from_secs(5)).await {
        return Err(format!("no backend answers at {backend}").into());
    }
    let mut events = client.subscribe();
    // A subscriber only sees what is published after it has joined.
    tokio::time::sleep(Duration::from_millis(300)).await;

    for command in COMMANDS {
        let request = codec::json_to_msgpack(command.as_bytes(), Limits::default())?;
        let client = client.clone();
        // Fire: nobody awaits the answer (a job handle, at once).
        tokio::spawn(async move {
            client
                .call(request, CallOptions::default().wait(Duration::ZERO))
                .await
        });
        println!("fired {command}");
    }

    let mut finished = 0;
    let outcome = tokio::time::timeout(Duration::from_secs(30), async {
        while finished < COMMANDS.len() {
            match events.recv().await {
                Ok(JobEvent::Started { job_id, tool, .. }) => {
                    println!("  {job_id}: {tool} started");
                }
                Ok(JobEvent::Finished {
                    job_id,
                    tool,
                    state,
                    error_code,
                    ..
                }) => {
                    finished += 1;
                    match error_code {
                        Some(code) => println!("  {job_id}: {tool} {state:?} with {code}"),
                        None => println!("  {job_id}: {tool} {state:?}"),
                    }
                }
                Ok(_) => {}
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
            }
        }
    })
    .await;
    if outcome.is_err() {
        return Err("not every outcome was published within 30 s".into());
    }
    println!("learned {finished} outcomes from IOPub without waiting on a reply");
    Ok(())
}
