//! The MCP server: serves any [`CallPort`] — an in-process [`Dispatcher`],
//! or a HOOT01 client to remote workers, which makes it a gateway — to MCP
//! clients over stdio or Streamable HTTP, with the official Rust SDK (rmcp)
//! speaking the protocol.
//!
//! [`Dispatcher`]: crate::Dispatcher
//!
//! - `tools/list` is the catalogue's generated MCP schema.
//! - `tools/call` turns the arguments into the MsgPack request the port
//!   decodes as every other transport's, so a bad argument is a tool result
//!   with `isError: true` naming the field and the type it takes.
//! - Each call is answered as its timing class says: `sync` inline,
//!   `async_short`/`async_medium` inline when they end within their wait
//!   budget, `async_long` and `fire_and_forget` with a job handle at once.
//!   A job handle tells the model how to poll with the job tools.
//! - A caller that gives a `progressToken` is sent `notifications/progress`
//!   while it waits: the chunks of an `async_short`/`async_medium` call
//!   waited on, and the chunks and progress of the jobs a `job_poll` waits
//!   for.
//! - A handler's [`Context`](crate::Context) reaches the client that called
//!   it: its log messages go out as `notifications/message` (the server
//!   declares `logging`; `logging/setLevel` sets the session's least
//!   severe level), its progress as `notifications/progress`, and it may
//!   ask the client's model (`sampling/createMessage`) or user
//!   (`elicitation/create`) when the client declared that capability.
//! - `notifications/cancelled` cancels the call's job and stops its handler.
//! - A client on 2025-11-25 may call a job-capable tool as a task and follow
//!   it with `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel`;
//!   the task is the job (see the `reroute` module for how those methods
//!   get past rmcp).
//!
//! ```no_run
//! # async fn serve<S: toolwright::Service>(dispatcher: toolwright::Dispatcher<S>)
//! # -> Result<(), toolwright::mcp::ServeError> {
//! use toolwright::mcp::{HttpConfig, McpServer};
//!
//! let server = McpServer::new(dispatcher)?;
//! server.serve_http(HttpConfig::default()).await
//! # }
//! ```

mod call;
mod caller;
mod discovery;
mod envelope;
mod handler;
mod http;
mod in_task;
mod jsonrpc;
mod reroute;
mod rerouted;
mod result;
mod revision;
mod rounds;
mod schema;
mod stdio;
mod task_extension;
mod tasks;
mod toolsets;

use std::sync::Arc;

use rmcp::ServiceExt as _;

pub use crate::ServeError;
pub use http::HttpConfig;
pub use revision::Revision;
pub use toolsets::UnknownToolset;

use crate::edge::Edge;
use crate::jobs::Owner;
use crate::port::{CallOptions, CallPort};
use crate::{Catalogue, ToolInfo};
use discovery::{Discovery, Listeners, SharedView};
use schema::McpSchema;
use tasks::Tasks;
use toolsets::Served;

/// The protocol revisions the server speaks, oldest first: through
/// `initialize` up to 2025-11-25, and 2026-07-28, whose requests each name
/// their revision.
pub const PROTOCOL_VERSIONS: [&str; 5] = [
    Revision::V2024_11_05.as_str(),
    Revision::V2025_03_26.as_str(),
    Revision::V2025_06_18.as_str(),
    Revision::V2025_11_25.as_str(),
    Revision::V2026_07_28.as_str(),
];

/// An MCP server over a [`CallPort`]. Cheap to clone: clones share
/// everything but a session's own state, which each new session gets
/// afresh.
pub struct McpServer<P: CallPort> {
    /// What every session shares: set up before serving, read after.
    shared: Arc<Shared<P>>,
    /// What one session holds.
    session: Session,
}

/// What every session of a server shares.
#[derive(Clone)]
struct Shared<P> {
    /// The stage calls go through: the port, the schema's edge view, and
    /// the version `status` reports.
    edge: Edge<P>,
    schema: Arc<McpSchema>,
    name: Arc<str>,
    version: Arc<str>,
    /// Every session sees every job (a single-user server).
    shared_jobs: bool,
    /// The tools it serves.
    served: Arc<Served>,
    /// Set when sessions discover tools progressively.
    discovery: Option<Arc<Discovery>>,
    /// Seals the answers a 2026-07-28 call was given into its
    /// `requestState`.
    seal: Arc<rounds::Seal>,
    /// The questions jobs ask inside 2026-07-28 tasks, shared by every
    /// session: a task is followed by requests of no session.
    task_questions: Arc<in_task::TaskQuestions>,
    /// Set when results come in HIP-0300's envelope: its trace ids.
    envelope: Option<Arc<envelope::Traces>>,
}

/// What one session holds (2025-11-25 and earlier; a 2026-07-28 request
/// keeps no session and finds these empty).
#[derive(Clone, Default)]
struct Session {
    /// The tasks of the session; see [`McpServer::for_session`].
    tasks: Arc<Tasks>,
    /// Who this session's calls are made for when the transport names no
    /// one (stdio): the jobs they start belong to the session.
    owner: Option<Owner>,
    /// What this session lists, when discovery is progressive.
    view: SharedView,
    /// This session's `subscriptions/listen` streams (2026-07-28).
    listeners: Listeners,
    /// This session's `logging/setLevel`.
    log_level: caller::SessionLevel,
}

impl<P: CallPort> Clone for McpServer<P> {
    fn clone(&self) -> Self {
        McpServer {
            shared: self.shared.clone(),
            session: self.session.clone(),
        }
    }
}

impl<P: CallPort> std::fmt::Debug for McpServer<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer")
            .field("name", &self.shared.name)
            .field("version", &self.shared.version)
            .field("tools", &self.shared.schema.tools.len())
            .finish_non_exhaustive()
    }
}

impl<P: CallPort> McpServer<P> {
    /// A server for `port`, listing the tools of its catalogue's
    /// generated MCP schema. It introduces itself as `toolwright` with the
    /// runtime's version; see [`McpServer::named`].
    ///
    /// # Errors
    /// [`ServeError::Schema`] when the catalogue's schema text does not
    /// parse, which means the generator and the runtime disagree.
    pub fn new(port: P) -> Result<Self, ServeError> {
        // The generated output schemas already allow what this edge adds
        // to a tool's own result: a job handle, and the `help` and
        // `schema` answers of action tools (docs/schemas.md).
        let schema = McpSchema::parse(<P::Catalogue as Catalogue>::MCP_SCHEMA)
            .map_err(|e| ServeError::Schema(e.to_string()))?;
        let version: Arc<str> = Arc::from(env!("CARGO_PKG_VERSION"));
        Ok(McpServer {
            shared: Arc::new(Shared {
                edge: Edge::new(port, schema.edge.clone(), version.clone()),
                schema: Arc::new(schema),
                name: Arc::from("toolwright"),
                version,
                shared_jobs: false,
                served: Arc::default(),
                discovery: None,
                seal: Arc::new(rounds::Seal::random().map_err(ServeError::StateKey)?),
                task_questions: Arc::default(),
                envelope: None,
            }),
            session: Session::default(),
        })
    }

    /// What every session shares, to set up before serving.
    fn shared_mut(&mut self) -> &mut Shared<P> {
        Arc::make_mut(&mut self.shared)
    }

    /// Seals the `requestState` of MCP 2026-07-28 calls that ask their
    /// client a question with `key` (at least 32 bytes) rather than a key
    /// of the process's own: servers behind one address, which may each
    /// get a call's next round, must share it (docs/wire.md).
    ///
    /// # Errors
    /// [`ServeError::StateKey`] when the key is shorter than 32 bytes.
    pub fn request_state_key(mut self, key: &[u8]) -> Result<Self, ServeError> {
        self.shared_mut().seal =
            Arc::new(rounds::Seal::with_key(key).map_err(ServeError::StateKey)?);
        Ok(self)
    }

    /// Serves only the tools of `toolsets` (and the job tools): the others
    /// are neither listed nor called. A tool is in its category's toolset
    /// and in those its `@toolset` attribute names.
    ///
    /// # Errors
    /// [`UnknownToolset`] for a name the catalogue has no toolset of.
    pub fn toolsets(mut self, toolsets: &[&str]) -> Result<Self, UnknownToolset> {
        self.shared_mut().served = Arc::new(Served::toolsets::<P::Catalogue>(toolsets)?);
        Ok(self)
    }

    /// Progressive discovery, for large catalogues: each session's
    /// `tools/list` starts from `search_tools`, `describe_tools`,
    /// `select_toolsets` and the job tools, and grows (with
    /// `notifications/tools/list_changed`) by the tools it describes and
    /// the toolsets it enables. Every served tool can be called whether
    /// listed or not (docs/mcp.md).
    ///
    /// # Errors
    /// [`ServeError::Schema`] when the catalogue has a tool named as one
    /// of the discovery tools.
    pub fn progressive(mut self) -> Result<Self, ServeError> {
        let discovery = Discovery::new::<P::Catalogue>().map_err(|clash| {
            ServeError::Schema(format!(
                "the catalogue's tool `{clash}` has the name of a discovery tool;                  rename it to serve the catalogue progressively"
            ))
        })?;
        self.shared_mut().discovery = Some(Arc::new(discovery));
        Ok(self)
    }

    /// The served tool with this name.
    fn served_tool(&self, name: &str) -> Option<&'static ToolInfo> {
        P::Catalogue::tool(name).filter(|tool| self.shared.served.serves(tool))
    }

    /// The `tools/list` entry of a discovery tool (when discovery is
    /// progressive) or of a served tool.
    fn definition(&self, name: &str) -> Option<&rmcp::model::Tool> {
        let discovered = self.shared.discovery.as_deref().map(|d| d.tools.iter());
        discovered
            .into_iter()
            .flatten()
            .find(|t| t.name == name)
            .or_else(|| self.shared.schema.tool(self.served_tool(name)?.name))
    }

    /// What `describe_tools` gives of a tool: its `tools/list` entry with
    /// its error schema in `_meta`, which the listing leaves out to stay
    /// lean.
    fn described(&self, name: &str) -> Option<serde_json::Value> {
        let mut definition = serde_json::to_value(self.definition(name)?).ok()?;
        if let Some(errors) = self.shared.schema.error_schema(name)
            && let Some(object) = definition.as_object_mut()
        {
            let meta = object
                .entry("_meta")
                .or_insert_with(|| serde_json::json!({}));
            if let Some(meta) = meta.as_object_mut() {
                meta.insert(
                    schema::ERROR_SCHEMA_META.to_owned(),
                    serde_json::Value::Object(errors.clone()),
                );
            }
        }
        Some(definition)
    }

    /// This session's `tools/list`: the served tools, or with progressive
    /// discovery the discovery tools and those the session has found, with
    /// the job tools once one of those may answer with a job.
    fn listed(&self) -> Vec<rmcp::model::Tool> {
        let view = self
            .session
            .view
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let shown = |tool: &ToolInfo| {
            self.shared.served.serves(tool) && (self.shared.discovery.is_none() || view.shows(tool))
        };
        let jobs = <P::Catalogue as Catalogue>::TOOLS
            .iter()
            .any(|t| !t.builtin && t.timing != crate::ToolTiming::Sync && shown(t));
        let discovered = self.shared.discovery.as_deref().map(|d| d.tools.iter());
        let served = self.shared.schema.tools.iter().filter(|tool| {
            P::Catalogue::tool(&tool.name)
                .is_some_and(|info| if info.builtin { jobs } else { shown(info) })
        });
        discovered
            .into_iter()
            .flatten()
            .chain(served)
            .cloned()
            .collect()
    }

    /// Lets every session see and cancel every job, for a server with one
    /// user. By default jobs belong to the session that started them, and
    /// another session's `job_status`, `job_list`, `job_poll` and
    /// `job_cancel` do not find them (docs/mcp.md).
    #[must_use]
    pub fn shared_jobs(mut self) -> Self {
        self.shared_mut().shared_jobs = true;
        self
    }

    /// Answers every call of a catalogue tool in HIP-0300's unified
    /// envelope: `structuredContent` is `{ok, data, error, meta: {tool,
    /// action?, trace_id, backend}}` (the answer in `data`, or the error in
    /// `error`), and each tool's `outputSchema` says so. Off by default:
    /// `structuredContent` is the bare answer (docs/wire.md).
    #[must_use]
    pub fn envelope(mut self) -> Self {
        if self.shared.envelope.is_none() {
            let mut schema = (*self.shared.schema).clone();
            schema.tools = schema
                .tools
                .into_iter()
                .map(envelope::wrap_schema)
                .collect();
            let shared = self.shared_mut();
            shared.schema = Arc::new(schema);
            shared.envelope = Some(Arc::default());
        }
        self
    }

    /// `result` of a call of `tool` with `args`, in the envelope when the
    /// server answers in it; the discovery tools answer bare.
    fn enveloped(
        &self,
        tool: &str,
        args: Option<&rmcp::model::JsonObject>,
        result: rmcp::model::CallToolResult,
    ) -> rmcp::model::CallToolResult {
        let Some(traces) = self
            .shared
            .envelope
            .as_ref()
            .filter(|_| !self.discovers(tool))
        else {
            return result;
        };
        let action = args.and_then(|a| a.get("action")).and_then(|a| a.as_str());
        let meta = envelope::Meta {
            tool,
            action,
            backend: self.shared.edge.port().events().source().as_str(),
            paged: P::Catalogue::tool(tool).is_some_and(|info| info.pages(action)),
        };
        envelope::wrap(result, &meta, traces.next())
    }

    /// Sets the name and version the server gives in `initialize`.
    #[must_use]
    pub fn named(mut self, name: &str, version: &str) -> Self {
        let shared = self.shared_mut();
        shared.name = Arc::from(name);
        shared.version = Arc::from(version);
        shared.edge = Edge::new(
            shared.edge.port().clone(),
            shared.schema.edge.clone(),
            shared.version.clone(),
        );
        self
    }

    /// A server for one more session: the same port and schema, and
    /// a task list of its own, since tasks belong to the session that
    /// made them.
    fn for_session(&self) -> Self {
        McpServer {
            shared: self.shared.clone(),
            session: Session {
                owner: (!self.shared.shared_jobs).then(|| Owner::unique("mcp-session")),
                ..Session::default()
            },
        }
    }

    /// The options a call starts from: made for its owner (see
    /// [`McpServer::owner_of`]).
    fn call_options(&self, extensions: &rmcp::model::Extensions) -> CallOptions {
        let options = CallOptions::default();
        match self.owner_of(extensions) {
            Some(owner) => options.owned_by(owner),
            None => options,
        }
    }

    /// Who a request is made for. Over HTTP: the bearer token it shows, when
    /// it shows one (the principal outlives sessions, reconnections and
    /// restarts of a durable server); else its MCP session; else (a
    /// 2026-07-28 client, which keeps no session) one anonymous owner,
    /// since nothing tells such clients apart. Over stdio: the session.
    /// Nobody with [`McpServer::shared_jobs`].
    fn owner_of(&self, extensions: &rmcp::model::Extensions) -> Option<Owner> {
        if self.shared.shared_jobs {
            return None;
        }
        let Some(parts) = extensions.get::<axum::http::request::Parts>() else {
            return self.session.owner.clone();
        };
        let header = |name: &str| {
            parts
                .headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .filter(|v| !v.is_empty())
        };
        if let Some(credentials) = header("authorization") {
            // The token itself is not kept: a fixed-key hash names it.
            let mut hasher = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(credentials, &mut hasher);
            let digest = std::hash::Hasher::finish(&hasher);
            return Some(Owner::new(&format!("mcp-bearer:{digest:016x}")));
        }
        if let Some(session) = header("mcp-session-id") {
            return Some(Owner::new(&format!("mcp-session:{session}")));
        }
        Some(Owner::new("mcp-anonymous"))
    }

    /// The port it serves.
    pub fn port(&self) -> &P {
        self.shared.edge.port()
    }

    /// Serves one client on standard input and output until it disconnects.
    ///
    /// # Errors
    /// [`ServeError::Initialize`] when the client's handshake fails,
    /// [`ServeError::Task`] when the session's task fails.
    pub async fn serve_stdio(self) -> Result<(), ServeError> {
        self.serve_io(tokio::io::stdin(), tokio::io::stdout()).await
    }

    /// Serves one client on any byte stream pair (a pipe, a socket) until it
    /// disconnects: line-delimited JSON-RPC, as on stdio, through a
    /// transport of the server's own in front of rmcp. Malformed lines get
    /// their JSON-RPC error and the session goes on; a line longer than
    /// 16 MiB is skipped (`-32600`). A JSON-RPC batch is answered with one
    /// array line when the session negotiated 2025-03-26 or earlier (at
    /// most 1024 members, and 64 batches awaiting answers at once; more is
    /// refused with `-32600`), and refused with `-32600` before
    /// `initialize` and in later revisions. The client's end of input ends
    /// the session, once the answers already under way are written.
    ///
    /// # Errors
    /// As [`McpServer::serve_stdio`], and [`ServeError::Io`] when writing to
    /// the client failed.
    pub async fn serve_io<R, W>(self, reader: R, writer: W) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        let transport = stdio::LineTransport::new(reader, writer);
        let outcome = transport.outcome();
        let running = self
            .for_session()
            .serve(transport)
            .await
            .map_err(|e| ServeError::Initialize(e.to_string()))?;
        running
            .waiting()
            .await
            .map_err(|e| ServeError::Task(e.to_string()))?;
        outcome.failure().map_or(Ok(()), |e| Err(ServeError::Io(e)))
    }
}
