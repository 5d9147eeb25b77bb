//! The studio's command line. Its build script compiles the reference
//! catalogue; this binds the studio's handlers to it and sends MsgPack
//! requests through the timing-aware dispatcher, printing each exchange.
//!
//! - `cargo run -p studio` runs a tour: sync tools, the content store, bad
//!   input, a streaming `async_long` job, cancellation, a restart.
//! - `cargo run -p studio -- call TOOL [JSON]` sends one call, its arguments
//!   given as a JSON object (transcoded to MsgPack), and prints the answer.
//! - `cargo run -p studio -- serve --stdio` serves the studio to one MCP
//!   client on stdin and stdout; `serve --http [ADDR]` serves MCP over
//!   Streamable HTTP at `http://ADDR/mcp` (default `127.0.0.1:8787`);
//!   Ctrl-C (or SIGTERM) lets the requests under way finish, then cancels
//!   the jobs still running and records them so.
//! - `serve --hoot ENDPOINT [--iopub ENDPOINT]` serves HOOT01 over ZeroMQ
//!   (`tcp://127.0.0.1:5555`), publishing job and call events on IOPub;
//!   Ctrl-C (or SIGTERM) drains the calls in flight, then stops.
//! - `serve` and `gateway` take `--toolset NAME[,NAME…]` to serve only
//!   some toolsets, and `--progressive` to let each MCP session start from
//!   `search_tools`, `describe_tools` and `select_toolsets`, and
//!   `--envelope` to answer in HIP-0300's unified envelope.
//! - `serve` and `gateway` take `--mount NAME=URL` (a Streamable HTTP
//!   endpoint) or `--mount "NAME=PROGRAM ARG…"` (a command speaking MCP
//!   on stdio), again for more: that MCP server's tools, resources and
//!   prompts are served beside the studio's, named `NAME_…`, with
//!   `source: "mcp"` on the web routes and in the events.
//!   `--mount-scopes NAME=SCOPE[,SCOPE…]` makes mount `NAME`'s tools,
//!   resources and prompts need those scopes (again for another mount).
//! - `gateway --backend ENDPOINT… [--iopub ENDPOINT…] (--stdio | --http
//!   [ADDR])` serves MCP in front of HOOT01 backends (`serve --hoot`):
//!   JSON at the edge, MsgPack to the workers, each call to the least busy
//!   one and the job tools to the worker that runs the job.
//!
//! - `keygen PATH` makes a CURVE key pair: the secret certificate at PATH
//!   (mode 0600), the public one at `PATH.pub`, and prints the public key.
//!   `serve --hoot … --curve-secret FILE --curve-allow FILE_OR_DIR…`
//!   encrypts HOOT01 and IOPub and lets in only the clients whose public
//!   key is allowed (a key file, or a directory of `*.pub` and `*.key`
//!   files; the flag again for more); `gateway … --curve-secret FILE
//!   --curve-server FILE` calls backends holding the secret of that public
//!   key. A CURVE backend says, when it stops, how many handshakes it
//!   refused. A gateway that authenticates its callers (`--auth-issuer`,
//!   `--token`) forwards each caller's principal and scopes; a backend
//!   believes them only from a gateway it let in by its CURVE key, or,
//!   with `--trust-plain-gateways`, from any peer on its network.
//! - `serve --hoot … --probes ADDR` serves `/healthz`, `/readyz` (not
//!   ready while it drains) and `/metrics` (its calls in flight, its
//!   refusals) on an HTTP listener of their own; `/metrics` takes the
//!   AUTH flags' credentials.
//! - `serve --hoot` takes `--service NAME` (again for more names) to answer
//!   only Requests for those services, refusing others with
//!   `UNKNOWN_SERVICE`; `gateway --service NAME` names the service in its
//!   Requests, so only backends serving it join its rotation.
//! - `gateway --route NAME=ENDPOINT… --http [ADDR]` fronts several
//!   services at once: each NAME gets the backends routed to it, names
//!   itself in its Requests, and is served at `http://ADDR/NAME/mcp`.
//! - `serve` and `gateway` take `--jobs STORE` (or `$STUDIO_JOBS`): where
//!   the jobs' records are kept. `memory` (the default) keeps them in the
//!   process; a file path keeps them in a redb file, so that results and
//!   failures survive a restart and jobs a crash interrupted are reported
//!   `INTERRUPTED`; `redis://HOST:PORT/DB` keeps them in Redis, shared by
//!   every worker and gateway: a job started through one gateway is read,
//!   polled and cancelled through any, and a dead worker's jobs are
//!   reported `INTERRUPTED`.
//!
//! - `serve` and `gateway` take `--otlp URL` (or
//!   `$OTEL_EXPORTER_OTLP_ENDPOINT`): each call's spans go to the
//!   OpenTelemetry collector at URL over OTLP/HTTP (docs/tracing.md).
//!
//! Content is stored under `$STUDIO_DATA`, by default a `toolwright-studio`
//! folder in the system's temporary directory. For tests of a deployment,
//! `$STUDIO_JOB_LEASE_MS` sets how long a worker's lease on its jobs lasts
//! (`DispatcherConfig::job_lease`, default 5,000), and `$STUDIO_STEP_MS`
//! how long each step of `orpheus_generate` takes (default 25).

mod credentials;
mod curve;
mod routes;
mod telemetry;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use studio::{
    AbcParseRequest, CasGetRequest, CasInspectRequest, CasStoreRequest, JobListRequest,
    JobPollRequest, JobRef, JobState, MathOperands, OrpheusGenerateRequest, Studio, ToolCatalogue,
    ToolRequest, ToolResponse,
};
use toolwright::codec::{self, Limits};
use toolwright::hoot::{Client, ClientConfig, Server, ServerConfig};
use toolwright::http::Probes;
use toolwright::jobs::JobEvent;
use toolwright::mcp::{HttpConfig, McpServer};
use toolwright::port::CallPort;
use toolwright::{Bytes, Dispatcher, DispatcherConfig, ResponseEnvelope};

type Envelope = ResponseEnvelope<ToolResponse>;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match run().await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // What went wrong as the error says it (`Display`), not as its
            // structure (`Debug`, which `main` returning `Result` prints).
            eprintln!("studio: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let data_dir = std::env::var_os("STUDIO_DATA").map_or_else(
        || std::env::temp_dir().join("toolwright-studio"),
        PathBuf::from,
    );
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // Servers export spans when asked; the tour and one-off calls do not.
    let service = match args.as_slice() {
        [serve, hoot, ..] if serve == "serve" && hoot == "--hoot" => Some("studio-worker"),
        [serve, ..] if serve == "serve" => Some("studio"),
        [gateway, ..] if gateway == "gateway" => Some("studio-gateway"),
        _ => None,
    };
    let telemetry = match service {
        Some(service) => telemetry::take(&mut args, service)?,
        None => None,
    };
    let ran = dispatch(&data_dir, &args).await;
    // Spans still batched are sent before the process ends.
    if let Some(telemetry) = telemetry {
        telemetry.shutdown().await;
    }
    ran
}

async fn dispatch(data_dir: &Path, args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    match args {
        [] => tour(data_dir).await,
        [call, tool] if call == "call" => call_one(data_dir, tool, "{}").await,
        [call, tool, json] if call == "call" => call_one(data_dir, tool, json).await,
        [serve, hoot, rest @ ..] if serve == "serve" && hoot == "--hoot" => {
            serve_hoot(data_dir, rest).await
        }
        [serve, mode, rest @ ..] if serve == "serve" => serve_mcp(data_dir, mode, rest).await,
        [gateway, rest @ ..] if gateway == "gateway" => serve_gateway(rest).await,
        [keygen, path] if keygen == "keygen" => curve::keygen(path),
        _ => Err(USAGE.into()),
    }
}

const USAGE: &str = "usage: studio [call TOOL [JSON]
              | serve (--stdio | --http [ADDR] [AUTH]) [LISTING] [--jobs STORE]
              | serve --hoot ENDPOINT [--iopub ENDPOINT] [--service NAME]... [--jobs STORE] [CURVE_SERVER] [--trust-plain-gateways] [--probes ADDR [AUTH]]
              | gateway --backend ENDPOINT... [--iopub ENDPOINT...] [--service NAME] (--stdio | --http [ADDR] [AUTH]) [LISTING] [--jobs STORE] [CURVE_CLIENT]
              | gateway --route NAME=ENDPOINT... --http [ADDR] [AUTH] [LISTING] [--jobs STORE] [CURVE_CLIENT]
              | keygen PATH]
LISTING: [--toolset NAME[,NAME...]]... [--progressive] [--envelope] [--callable-only] [--event-streams] [--mount NAME=URL | --mount 'NAME=PROGRAM ARG...']... [--mount-scopes NAME=SCOPE[,SCOPE...]]...
STORE: memory | PATH (a redb file) | redis://HOST:PORT/DB; default $STUDIO_JOBS, else memory
AUTH: [--auth-issuer URL]... [--auth-audience URI] [--token T (default $STUDIO_TOKEN)]
CURVE_SERVER: --curve-secret FILE --curve-allow FILE_OR_DIR [--curve-allow FILE_OR_DIR]...
CURVE_CLIENT: --curve-secret FILE --curve-server FILE (the backends' public key)
serve and gateway take --otlp URL (default $OTEL_EXPORTER_OTLP_ENDPOINT): spans to that OTLP/HTTP collector
keygen writes PATH (the secret key, mode 0600) and PATH.pub (the public key)";

/// Takes `flag` out of `args`: whether it was there.
fn take_flag(args: &mut Vec<String>, flag: &str) -> bool {
    let before = args.len();
    args.retain(|a| a != flag);
    args.len() != before
}

/// Takes every `--service NAME` out of `args`.
fn take_services(args: &mut Vec<String>) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut services = Vec::new();
    while let Some(at) = args.iter().position(|a| a == "--service") {
        if at + 1 >= args.len() {
            return Err(USAGE.into());
        }
        services.push(args.remove(at + 1));
        args.remove(at);
    }
    Ok(services)
}

/// Takes `--jobs STORE` out of `args`; `$STUDIO_JOBS` when it is not
/// there. `None` for the default, memory.
fn take_jobs(args: &mut Vec<String>) -> Result<Option<String>, Box<dyn std::error::Error>> {
    let mut jobs = std::env::var("STUDIO_JOBS").ok();
    if let Some(at) = args.iter().position(|a| a == "--jobs") {
        if at + 1 >= args.len() {
            return Err(USAGE.into());
        }
        jobs = Some(args.remove(at + 1));
        args.remove(at);
    }
    Ok(jobs.filter(|spec| spec != "memory"))
}

/// Which tools an MCP server offers and how it lists and answers them:
/// `--toolset`, `--progressive`, `--envelope` and `--callable-only` (list
/// to each authenticated caller only what its scopes let it call), taken
/// out of `args`; and
/// `--event-streams`, which answers every sessionless HTTP request as an
/// event stream, even one a single JSON body would carry (for comparing
/// the two); `--mount` and `--mount-scopes`, the MCP servers it mounts
/// and the scopes each needs.
#[derive(Default)]
struct Listing {
    toolsets: Vec<String>,
    progressive: bool,
    envelope: bool,
    callable_only: bool,
    event_streams: bool,
    mounts: Vec<toolwright::mount::Mount>,
}

impl Listing {
    /// Takes the listing flags out of `args`, leaving the others.
    fn take(args: &mut Vec<String>) -> Result<Listing, Box<dyn std::error::Error>> {
        let mut listing = Listing::default();
        let mut scoped = Vec::new();
        let mut rest = Vec::new();
        let mut iter = std::mem::take(args).into_iter();
        while let Some(arg) = iter.next() {
            match arg.as_str() {
                "--toolset" => {
                    let names = iter.next().ok_or(USAGE)?;
                    listing
                        .toolsets
                        .extend(names.split(',').map(str::trim).map(str::to_owned));
                }
                "--progressive" => listing.progressive = true,
                "--envelope" => listing.envelope = true,
                "--callable-only" => listing.callable_only = true,
                "--event-streams" => listing.event_streams = true,
                "--mount" => listing.mounts.push(mount(&iter.next().ok_or(USAGE)?)?),
                "--mount-scopes" => scoped.push(mount_scopes(&iter.next().ok_or(USAGE)?)?),
                _ => rest.push(arg),
            }
        }
        *args = rest;
        listing.scope_mounts(scoped)?;
        Ok(listing)
    }

    /// Gives each mount named in `scoped` the scopes given for it (every
    /// `--mount-scopes` of its name, in order).
    ///
    /// # Errors
    /// When a name is no `--mount`'s.
    fn scope_mounts(
        &mut self,
        scoped: Vec<(String, Vec<String>)>,
    ) -> Result<(), Box<dyn std::error::Error>> {
        for (name, _) in &scoped {
            if !self.mounts.iter().any(|m| m.prefix() == name) {
                return Err(format!(
                    "--mount-scopes {name}=…: no --mount {name}=… is given; name a mount the \
                     command line mounts"
                )
                .into());
            }
        }
        for mount in &mut self.mounts {
            let scopes: Vec<String> = scoped
                .iter()
                .filter(|(name, _)| name == mount.prefix())
                .flat_map(|(_, scopes)| scopes.iter().cloned())
                .collect();
            if !scopes.is_empty() {
                *mount = mount.clone().scopes(scopes);
            }
        }
        Ok(())
    }

    /// `server`, limited and listed as asked.
    fn apply<P: CallPort>(
        &self,
        mut server: McpServer<P>,
    ) -> Result<McpServer<P>, Box<dyn std::error::Error>> {
        if !self.toolsets.is_empty() {
            let names: Vec<&str> = self.toolsets.iter().map(String::as_str).collect();
            server = server.toolsets(&names)?;
        }
        if self.progressive {
            server = server.progressive()?;
        }
        if self.envelope {
            server = server.envelope();
        }
        if self.callable_only {
            server = server.list_callable_only();
        }
        for mount in &self.mounts {
            server = server.mount(mount.clone());
        }
        Ok(server)
    }
}

/// `NAME=URL` (`http://…` or `https://…`) or `NAME=PROGRAM ARG…`.
fn mount(spec: &str) -> Result<toolwright::mount::Mount, Box<dyn std::error::Error>> {
    use toolwright::mount::Mount;
    let (name, target) = spec
        .split_once('=')
        .ok_or_else(|| format!("--mount takes NAME=URL or \"NAME=PROGRAM ARG…\", not `{spec}`"))?;
    if target.starts_with("http://") || target.starts_with("https://") {
        return Ok(Mount::http(name, target)?);
    }
    let mut words = target.split_whitespace();
    let program = words
        .next()
        .ok_or_else(|| format!("--mount {name}= names no URL or program"))?;
    Ok(Mount::command(name, program, words)?)
}

/// `NAME=SCOPE[,SCOPE…]`: the mount's name and the scopes it needs.
fn mount_scopes(spec: &str) -> Result<(String, Vec<String>), Box<dyn std::error::Error>> {
    let malformed = || format!("--mount-scopes takes NAME=SCOPE[,SCOPE…], not `{spec}`");
    let (name, scopes) = spec.split_once('=').ok_or_else(malformed)?;
    let scopes: Vec<String> = scopes
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    if name.is_empty() || scopes.is_empty() {
        return Err(malformed().into());
    }
    Ok((name.to_owned(), scopes))
}

/// Serves MCP in front of HOOT01 backends until the client (stdio) or the
/// process (HTTP) stops.
async fn serve_gateway(rest: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let mut rest = rest.to_vec();
    let listing = Listing::take(&mut rest)?;
    let mut backends = Vec::new();
    let mut config = ClientConfig::default();
    let jobs = take_jobs(&mut rest)?;
    let credentials = credentials::Credentials::take(&mut rest)?;
    if let Some((keys, server)) = curve::take_client(&mut rest)? {
        config = config.curve(keys, server);
    }
    let routes = routes::Routes::take(&mut rest)?;
    match take_services(&mut rest)?.as_slice() {
        [] => {}
        [service] if routes.is_empty() => config = config.service(service.as_str()),
        [_] => return Err("--route names each service: give no --service with it".into()),
        _ => return Err("a gateway fronts one service: give --service once".into()),
    }
    if let Some(spec) = &jobs {
        let records = toolwright::jobs::open(spec)?;
        config = config.jobs(records, dispatcher_config()?.job_lease);
        eprintln!("studio: job records in {spec}");
    }
    let mut mode = None;
    let mut args = rest.iter();
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--backend" => backends.push(args.next().ok_or(USAGE)?.clone()),
            "--iopub" => config = config.iopub(args.next().ok_or(USAGE)?.as_str()),
            "--stdio" => mode = Some(None),
            "--http" => {
                let addr = args.as_slice().first().filter(|a| !a.starts_with("--"));
                if addr.is_some() {
                    args.next();
                }
                mode = Some(Some(addr.cloned()));
            }
            _ => return Err(USAGE.into()),
        }
    }
    let Some(mode) = mode else {
        return Err(USAGE.into());
    };
    if !routes.is_empty() {
        let (Some(addr), true) = (mode, backends.is_empty()) else {
            return Err(
                "--route serves each service over HTTP at /NAME/mcp: give --http, \
                        and no --backend"
                    .into(),
            );
        };
        let jobs = jobs.as_deref();
        return routes
            .serve(&config, addr.as_deref(), &credentials, async |server| {
                shared_sessions(listing.apply(server)?, jobs).await
            })
            .await;
    }
    let client = Client::<ToolCatalogue>::connect(&backends, config)?;
    if !client.ready(Duration::from_secs(5)).await {
        eprintln!(
            "studio: no backend answers yet ({}); calls fail with UNAVAILABLE until one does",
            backends.join(", ")
        );
    }
    let server = listing
        .apply(McpServer::new(client)?.named("studio-gateway", env!("CARGO_PKG_VERSION")))?;
    let server = shared_sessions(server, jobs.as_deref()).await?;
    match mode {
        None => {
            eprintln!("studio: gateway on stdio to {}", backends.join(", "));
            server.serve_stdio().await?;
        }
        Some(addr) => {
            let to = format!("gateway to {}", backends.join(", "));
            let http = Http {
                addr: addr.as_deref(),
                what: &to,
                event_streams: listing.event_streams,
                credentials: &credentials,
            };
            serve_http(server, http).await?;
        }
    }
    Ok(())
}

/// `server`, keeping its sessions in Redis too when the jobs are there, and
/// sealing 2026-07-28 request states with the key kept there, so that any
/// replica behind one address serves any session and any call's next
/// round.
async fn shared_sessions<P: CallPort>(
    server: McpServer<P>,
    jobs: Option<&str>,
) -> Result<McpServer<P>, Box<dyn std::error::Error>> {
    let Some(url) = jobs.filter(|url| url.starts_with("redis://") || url.starts_with("rediss://"))
    else {
        return Ok(server);
    };
    let sessions = toolwright::mcp::RedisSessions::open(url)?;
    let server = match sessions.request_state_key().await {
        Ok(key) => server.request_state_key(&key)?,
        Err(e) => {
            eprintln!(
                "studio: {e}; 2026-07-28 request states are sealed with this process's own key"
            );
            server
        }
    };
    Ok(server.sessions(sessions))
}

/// A listener bound to `addr` (default `127.0.0.1:8787`).
async fn listen(addr: Option<&str>) -> Result<tokio::net::TcpListener, Box<dyn std::error::Error>> {
    let addr = match addr {
        Some(addr) => addr
            .parse()
            .map_err(|e| format!("bad address `{addr}`: {e}"))?,
        None => HttpConfig::default().addr,
    };
    Ok(tokio::net::TcpListener::bind(addr).await?)
}

/// A token cancelled on Ctrl-C or SIGTERM: the HTTP servers stop taking
/// connections and let the requests under way finish.
fn stop_on_signal() -> tokio_util::sync::CancellationToken {
    let shutdown = tokio_util::sync::CancellationToken::new();
    let stop = shutdown.clone();
    tokio::spawn(async move {
        let _ = stopped().await;
        stop.cancel();
    });
    shutdown
}

/// How `serve_http` serves.
struct Http<'a> {
    /// Where (default `127.0.0.1:8787`).
    addr: Option<&'a str>,
    /// What, as stderr says it.
    what: &'a str,
    /// `--event-streams`.
    event_streams: bool,
    /// Who may call.
    credentials: &'a credentials::Credentials,
}

/// Serves `server` over Streamable HTTP as `http` says, saying on stderr
/// where and what.
async fn serve_http<P: CallPort>(
    server: McpServer<P>,
    http: Http<'_>,
) -> Result<(), Box<dyn std::error::Error>> {
    let listener = listen(http.addr).await?;
    let local = listener.local_addr()?;
    let config = HttpConfig::default()
        .shutdown(stop_on_signal())
        .json_response(!http.event_streams);
    let config = http.credentials.apply(config, local);
    let what = http.what;
    eprintln!("studio: {what} at http://{local}{}", config.path);
    eprintln!("studio: the catalogue and live tool calls at http://{local}/");
    server.serve_http_on(listener, config).await?;
    Ok(())
}

/// The studio's dispatcher, its jobs' records in `jobs` (see `--jobs`),
/// by default in memory.
fn open_dispatcher(
    data_dir: &Path,
    jobs: Option<&str>,
) -> Result<Dispatcher<Studio>, Box<dyn std::error::Error>> {
    let mut studio = Studio::open(data_dir)?;
    if let Some(step) = millis_from_env("STUDIO_STEP_MS")? {
        studio = studio.with_step(step);
    }
    let config = dispatcher_config()?;
    let updates = studio.resource_updates();
    Ok(match jobs {
        Some(spec) => {
            let records = toolwright::jobs::open(spec)?;
            eprintln!("studio: job records in {spec}");
            Dispatcher::with_job_records(studio, config, records).with_resource_updates(updates)
        }
        None => Dispatcher::with_config(studio, config).with_resource_updates(updates),
    })
}

/// The dispatcher's configuration: the default, with `$STUDIO_JOB_LEASE_MS`.
fn dispatcher_config() -> Result<DispatcherConfig, Box<dyn std::error::Error>> {
    let config = DispatcherConfig::default();
    Ok(match millis_from_env("STUDIO_JOB_LEASE_MS")? {
        Some(lease) => config.job_lease(lease),
        None => config,
    })
}

/// A duration in milliseconds from the environment variable `name`.
fn millis_from_env(name: &str) -> Result<Option<Duration>, Box<dyn std::error::Error>> {
    match std::env::var(name) {
        Ok(ms) => {
            let ms: u64 = ms
                .parse()
                .map_err(|_| format!("${name} is not a number of milliseconds: {ms:?}"))?;
            Ok(Some(Duration::from_millis(ms)))
        }
        Err(_) => Ok(None),
    }
}

/// Serves the studio over HOOT01 until Ctrl-C or SIGTERM, then drains.
async fn serve_hoot(data_dir: &Path, rest: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let mut rest = rest.to_vec();
    let jobs = take_jobs(&mut rest)?;
    let services = take_services(&mut rest)?;
    let curve = curve::take_server(&mut rest)?;
    let trust_plain = take_flag(&mut rest, "--trust-plain-gateways");
    let probes = take_probes(&mut rest)?;
    // Credentials guard the probes' `/metrics`; without `--probes` their
    // flags are left to be refused as the usage says.
    let credentials = match probes {
        Some(_) => credentials::Credentials::take(&mut rest)?,
        None => credentials::Credentials::default(),
    };
    let (endpoint, iopub) = match rest.as_slice() {
        [endpoint] => (endpoint, None),
        [endpoint, flag, iopub] if flag == "--iopub" => (endpoint, Some(iopub)),
        _ => return Err(USAGE.into()),
    };
    let dispatcher = open_dispatcher(data_dir, jobs.as_deref())?;
    let mut config = ServerConfig::new(endpoint.as_str());
    for service in services {
        config = config.service(service);
    }
    if let Some(iopub) = iopub {
        config = config.iopub(iopub.as_str());
    }
    let secured = curve.is_some();
    if let Some((keys, allowed)) = curve {
        config = config.curve(keys, allowed);
    }
    config = config.trust_plain_peers(trust_plain);
    let server = Server::serve(dispatcher.clone(), config)?;
    let probing = match probes {
        Some(addr) => {
            let probes = Probes::new()
                .port(dispatcher.clone())
                .hoot_server(server.meter());
            Some(serve_probes(&addr, probes, &credentials).await?)
        }
        None => None,
    };
    match server.iopub_endpoint() {
        Some(iopub) => eprintln!(
            "studio: serving HOOT01 at {}, IOPub at {iopub}",
            server.endpoint()
        ),
        None => eprintln!("studio: serving HOOT01 at {}", server.endpoint()),
    }
    stopped().await?;
    eprintln!("studio: draining the calls in flight");
    let stats = server.stats();
    // `/readyz` says so while the calls drain; the probes stop after.
    server.shutdown(Duration::from_secs(10)).await;
    if let Some(probing) = probing {
        probing.cancel();
    }
    curve::report(&stats, secured);
    // The jobs still running are cancelled and recorded so.
    dispatcher.shutdown().await;
    Ok(())
}

/// Takes `--probes ADDR` out of `args`.
fn take_probes(args: &mut Vec<String>) -> Result<Option<String>, Box<dyn std::error::Error>> {
    let Some(at) = args.iter().position(|a| a == "--probes") else {
        return Ok(None);
    };
    if at + 1 >= args.len() {
        return Err("--probes needs an address to listen on, such as 127.0.0.1:9102".into());
    }
    let addr = args.remove(at + 1);
    args.remove(at);
    Ok(Some(addr))
}

/// Serves `probes` (`/healthz`, `/readyz`, `/metrics`) over HTTP at
/// `addr` until the token it returns is cancelled.
async fn serve_probes(
    addr: &str,
    probes: Probes,
    credentials: &credentials::Credentials,
) -> Result<tokio_util::sync::CancellationToken, Box<dyn std::error::Error>> {
    let listener = listen(Some(addr)).await?;
    let local = listener.local_addr()?;
    let stop = tokio_util::sync::CancellationToken::new();
    let config = credentials.apply(HttpConfig::default().shutdown(stop.clone()), local);
    let router = probes.router(&config)?;
    eprintln!("studio: probes at http://{local}/healthz, /readyz and /metrics");
    let stopped = stop.clone().cancelled_owned();
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, router)
            .with_graceful_shutdown(stopped)
            .await
        {
            eprintln!("studio: the probes stopped: {e}");
        }
    });
    Ok(stop)
}

/// Waits for Ctrl-C or, on Unix, SIGTERM.
async fn stopped() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            result = tokio::signal::ctrl_c() => result,
            _ = term.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c().await
    }
}

/// Serves the studio over MCP. Only protocol messages go to stdout; what
/// the server says about itself goes to stderr.
async fn serve_mcp(
    data_dir: &Path,
    mode: &str,
    rest: &[String],
) -> Result<(), Box<dyn std::error::Error>> {
    let mut rest = rest.to_vec();
    let listing = Listing::take(&mut rest)?;
    let jobs = take_jobs(&mut rest)?;
    let credentials = credentials::Credentials::take(&mut rest)?;
    let dispatcher = open_dispatcher(data_dir, jobs.as_deref())?;
    let server = listing
        .apply(McpServer::new(dispatcher.clone())?.named("studio", env!("CARGO_PKG_VERSION")))?;
    let server = shared_sessions(server, jobs.as_deref()).await?;
    match (mode, rest.as_slice()) {
        ("--stdio", []) => {
            eprintln!("studio: serving MCP on stdio");
            server.serve_stdio().await?;
            // The client is gone: the jobs still running are cancelled
            // and recorded so.
            dispatcher.shutdown().await;
        }
        ("--http", [] | [_]) => {
            let http = Http {
                addr: rest.first().map(String::as_str),
                what: "serving MCP",
                event_streams: listing.event_streams,
                credentials: &credentials,
            };
            serve_http(server, http).await?;
            // Stopped: the jobs still running are cancelled and recorded so.
            eprintln!("studio: cancelling the jobs still running");
            dispatcher.shutdown().await;
        }
        _ => return Err(USAGE.into()),
    }
    Ok(())
}

/// Sends one call given as a tool name and a JSON object of arguments.
async fn call_one(
    data_dir: &Path,
    tool: &str,
    json: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let studio = Studio::open(data_dir)?;
    let updates = studio.resource_updates();
    let dispatcher = Dispatcher::new(studio).with_resource_updates(updates);
    // The tool tag must come first: splice it in front of the arguments'
    // own keys, then transcode the JSON text to MsgPack in order.
    let rest = json
        .trim()
        .strip_prefix('{')
        .ok_or("the arguments must be a JSON object")?;
    let tag = String::from_utf8(codec::to_json(tool)?)?;
    let separator = if rest.trim_start().starts_with('}') {
        ""
    } else {
        ","
    };
    let request = format!("{{\"tool\":{tag}{separator}{rest}");
    println!("→ {request}");
    let bytes = codec::json_to_msgpack(request.as_bytes(), Limits::default())?;
    receive(&dispatcher, &bytes).await?;
    Ok(())
}

/// The tour `cargo run -p studio` prints.
async fn tour(data_dir: &Path) -> Result<(), Box<dyn std::error::Error>> {
    println!("studio: content store in {}", data_dir.display());
    let studio = Studio::open(data_dir)?;
    let updates = studio.resource_updates();
    let dispatcher = Dispatcher::new(studio).with_resource_updates(updates);

    section("sync tools answer inline");
    call(&dispatcher, ToolRequest::Add(MathOperands { a: 2, b: 40 })).await?;
    call(
        &dispatcher,
        ToolRequest::Multiply(MathOperands { a: i64::MAX, b: 2 }),
    )
    .await?;

    section("a content-addressed store on disk");
    let stored = call(
        &dispatcher,
        ToolRequest::CasStore(CasStoreRequest {
            data: Bytes(b"X:1\nT:Studio tune\nK:C\nCDEF GABc|\n".to_vec()),
            mime_type: "text/vnd.abc".into(),
        }),
    )
    .await?;
    let Envelope::Success(ToolResponse::CasStore(stored)) = stored else {
        return Err("cas_store failed".into());
    };
    call(
        &dispatcher,
        ToolRequest::CasInspect(CasInspectRequest {
            hash: stored.hash.clone(),
            preview_chars: 16,
        }),
    )
    .await?;

    section("bad input and unserved tools get a typed error, never a crash");
    send_raw(
        &dispatcher,
        "a misspelled tool",
        &msgpack_map(&[("tool", "ad")]),
    )
    .await;
    send_raw(&dispatcher, "garbage bytes", b"\xc1\xff\x00garbage").await;
    send_raw(
        &dispatcher,
        "a truncated request",
        &codec::to_msgpack(&ToolRequest::Add(MathOperands { a: 1, b: 2 }))?[..9],
    )
    .await;
    call(
        &dispatcher,
        ToolRequest::AbcParse(AbcParseRequest { abc: "X:1".into() }),
    )
    .await?;

    section("async_long: started as a job, streamed, polled");
    let mut events = dispatcher.subscribe();
    let started = call(
        &dispatcher,
        ToolRequest::OrpheusGenerate(generate_request(2)),
    )
    .await?;
    let Envelope::JobStarted { job_id, .. } = started else {
        return Err("orpheus_generate did not start a job".into());
    };
    let poll = JobPollRequest {
        job_ids: vec![job_id.clone()],
        timeout_ms: 10_000,
        ..Default::default()
    };
    call(&dispatcher, ToolRequest::JobPoll(poll)).await?;
    let mut chunks = 0;
    while let Ok(event) = events.try_recv() {
        if matches!(event, JobEvent::Chunk { .. }) {
            chunks += 1;
        }
    }
    println!("  ({chunks} stream chunks were published while it ran)");
    call(&dispatcher, ToolRequest::JobStatus(JobRef { job_id })).await?;

    section("cancelling a running job stops its handler");
    let Envelope::JobStarted { job_id, .. } = call(
        &dispatcher,
        ToolRequest::OrpheusGenerate(generate_request(8)),
    )
    .await?
    else {
        return Err("orpheus_generate did not start a job".into());
    };
    tokio::time::sleep(Duration::from_millis(60)).await;
    call(&dispatcher, ToolRequest::JobCancel(JobRef { job_id })).await?;
    call(
        &dispatcher,
        ToolRequest::JobList(JobListRequest {
            state: Some(JobState::Cancelled),
            ..Default::default()
        }),
    )
    .await?;

    section("the store survives a restart");
    drop(dispatcher);
    let studio = Studio::open(data_dir)?;
    let updates = studio.resource_updates();
    let dispatcher = Dispatcher::new(studio).with_resource_updates(updates);
    call(
        &dispatcher,
        ToolRequest::CasGet(CasGetRequest { hash: stored.hash }),
    )
    .await?;
    Ok(())
}

fn generate_request(num_variations: u32) -> OrpheusGenerateRequest {
    OrpheusGenerateRequest {
        num_variations,
        max_tokens: 512,
        seed: Some(42),
        ..Default::default()
    }
}

fn section(title: &str) {
    println!("\n== {title}");
}

/// Encodes a typed request as MsgPack, dispatches the bytes, decodes the
/// envelope, and prints both sides as JSON.
async fn call(
    dispatcher: &Dispatcher<Studio>,
    request: ToolRequest,
) -> Result<Envelope, Box<dyn std::error::Error>> {
    println!(
        "→ {}",
        shorten(&String::from_utf8(codec::to_json(&request)?)?)
    );
    let bytes = codec::to_msgpack(&request)?;
    Ok(receive(dispatcher, &bytes).await?)
}

async fn send_raw(dispatcher: &Dispatcher<Studio>, what: &str, bytes: &[u8]) {
    println!("→ {what}: {}", hex(bytes));
    if let Err(e) = receive(dispatcher, bytes).await {
        println!("  the envelope itself did not decode: {e}");
    }
}

async fn receive(
    dispatcher: &Dispatcher<Studio>,
    bytes: &[u8],
) -> Result<Envelope, toolwright::ToolError> {
    let started = Instant::now();
    let reply = dispatcher.call_msgpack(bytes).await;
    let elapsed = started.elapsed();
    let envelope: Envelope = codec::from_msgpack(&reply, Limits::default())?;
    let json = String::from_utf8_lossy(&codec::to_json(&envelope)?).into_owned();
    println!(
        "← {} ({} bytes, {elapsed:.1?})",
        shorten(&json),
        reply.len()
    );
    Ok(envelope)
}

fn msgpack_map(entries: &[(&str, &str)]) -> Vec<u8> {
    let map: std::collections::BTreeMap<&str, &str> = entries.iter().copied().collect();
    codec::to_msgpack(&map).unwrap_or_default()
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn shorten(text: &str) -> String {
    const MAX: usize = 160;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(MAX).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(args: &[&str]) -> Result<Listing, String> {
        let mut args: Vec<String> = args.iter().map(|&a| a.to_owned()).collect();
        Listing::take(&mut args).map_err(|e| e.to_string())
    }

    #[test]
    fn mount_scopes_go_to_the_mount_they_name() {
        let listing = take(&[
            "--mount",
            "b=http://127.0.0.1:9000/mcp",
            "--mount-scopes",
            "b=b:use, b:write",
            "--mount",
            "c=studio serve --stdio",
            "--mount-scopes",
            "b=b:admin",
        ])
        .expect("parsed");
        let shown: Vec<String> = listing.mounts.iter().map(|m| format!("{m:?}")).collect();
        assert!(
            shown[0].contains(r#"scopes: ["b:use", "b:write", "b:admin"]"#),
            "{shown:?}"
        );
        assert!(shown[1].contains("scopes: []"), "{shown:?}");
    }

    #[test]
    fn mount_scopes_of_no_mount_or_without_scopes_are_refused() {
        let unknown = take(&["--mount", "b=http://x/mcp", "--mount-scopes", "c=c:use"])
            .err()
            .expect("refused");
        assert!(unknown.contains("no --mount c=… is given"), "{unknown}");
        for spec in ["b", "b=", "=b:use", "b= , "] {
            let error = take(&["--mount", "b=http://x/mcp", "--mount-scopes", spec])
                .err()
                .expect("refused");
            assert!(error.contains("takes NAME=SCOPE"), "{spec}: {error}");
        }
    }
}
