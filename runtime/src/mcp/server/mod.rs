//! [`McpServer`]: what every session of a server shares (the edge, the
//! schema, the features it was set up with) and what one session holds.
//! The features add their methods from their own modules.

mod entries;
pub(super) mod handler;
mod listing;
#[cfg(feature = "mount")]
mod mounted;
mod owner;
#[cfg(feature = "redis")]
mod shared_session;
mod subscriptions;
#[cfg(feature = "otel")]
mod traced;

#[cfg(feature = "redis")]
pub(in crate::mcp) use shared_session::session_id;

use std::sync::Arc;

use crate::Catalogue;
use crate::ServeError;
use crate::edge::Edge;
use crate::jobs::Owner;
use crate::mcp::discovery::view::{Discovery, Listeners, SharedView};
use crate::mcp::talk_back::{seal, told};
use crate::mcp::tasks::v2025_11_25::store::Tasks;
use crate::mcp::tasks::v2026_07_28::questions::TaskQuestions;
use crate::mcp::tools::catalogue::McpSchema;
use crate::mcp::tools::toolsets::{Served, UnknownToolset};
use crate::mcp::tools::unified_envelope as envelope;
use crate::port::CallPort;

/// An MCP server over a [`CallPort`]. Cheap to clone: clones share
/// everything but a session's own state, which each new session gets
/// afresh.
pub struct McpServer<P: CallPort> {
    /// What every session shares: set up before serving, read after.
    pub(super) shared: Arc<Shared<P>>,
    /// What one session holds.
    pub(super) session: Session,
}

/// What every session of a server shares.
#[derive(Clone)]
pub(super) struct Shared<P> {
    /// The stage calls go through: the port, the schema's edge view, and
    /// the version `status` reports.
    pub(super) edge: Edge<P>,
    pub(super) schema: Arc<McpSchema>,
    pub(super) name: Arc<str>,
    pub(super) version: Arc<str>,
    /// Every session sees every job (a single-user server).
    pub(super) shared_jobs: bool,
    /// `tools/list` leaves out what the caller's principal may not call.
    pub(super) callable_only: bool,
    /// The tools it serves.
    pub(super) served: Arc<Served>,
    /// Set when sessions discover tools progressively.
    pub(super) discovery: Option<Arc<Discovery>>,
    /// Seals the answers a 2026-07-28 call was given into its
    /// `requestState`.
    pub(super) seal: Arc<seal::Seal>,
    /// The questions jobs ask inside 2026-07-28 tasks, shared by every
    /// session: a task is followed by requests of no session.
    pub(super) task_questions: Arc<TaskQuestions>,
    /// Set when results come in HIP-0300's envelope: its trace ids.
    pub(super) envelope: Option<Arc<envelope::Traces>>,
    /// Where sessions are kept, when every replica of the server shares
    /// them.
    #[cfg(feature = "redis")]
    pub(in crate::mcp) sessions: Option<Arc<crate::mcp::RedisSessions>>,
    /// What `initialize` and rmcp's capability checks read, made once:
    /// rmcp asks for it on every request of a capability that needs it.
    pub(super) info: std::sync::OnceLock<rmcp::model::ServerConfig>,
}

/// What one session holds (2025-11-25 and earlier; a 2026-07-28 request
/// keeps no session and finds these empty).
#[derive(Clone, Default)]
pub(super) struct Session {
    /// The tasks of the session; see [`McpServer::for_session`].
    pub(super) tasks: Arc<Tasks>,
    /// Who this session's calls are made for when the transport names no
    /// one (stdio): the jobs they start belong to the session.
    pub(super) owner: Option<Owner>,
    /// What this session lists, when discovery is progressive.
    pub(super) view: SharedView,
    /// This session's `subscriptions/listen` streams (2026-07-28).
    pub(super) listeners: Listeners,
    /// This session's `logging/setLevel`.
    pub(super) log_level: told::SessionLevel,
    /// The resources this session subscribed to (`resources/subscribe`).
    pub(super) subscriptions: Arc<subscriptions::Subscriptions>,
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
                callable_only: false,
                served: Arc::default(),
                discovery: None,
                seal: Arc::new(seal::Seal::random().map_err(ServeError::StateKey)?),
                task_questions: Arc::default(),
                envelope: None,
                #[cfg(feature = "redis")]
                sessions: None,
                info: std::sync::OnceLock::new(),
            }),
            session: Session::default(),
        })
    }

    /// What every session shares, to set up before serving.
    pub(super) fn shared_mut(&mut self) -> &mut Shared<P> {
        let shared = Arc::make_mut(&mut self.shared);
        // A builder changed what the info says.
        shared.info = std::sync::OnceLock::new();
        shared
    }

    /// Seals the `requestState` of MCP 2026-07-28 calls that ask their
    /// client a question with `key` (at least 32 bytes) rather than a key
    /// of the process's own: servers behind one address, which may each
    /// get a call's next round, must share it (docs/wire.md).
    ///
    /// # Errors
    /// [`ServeError::StateKey`] when the key is shorter than 32 bytes.
    pub fn request_state_key(mut self, key: &[u8]) -> Result<Self, ServeError> {
        self.shared_mut().seal = Arc::new(seal::Seal::with_key(key).map_err(ServeError::StateKey)?);
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

    /// Lets every session see and cancel every job, for a server with one
    /// user. By default jobs belong to the session that started them, and
    /// another session's `job_status`, `job_list`, `job_poll` and
    /// `job_cancel` do not find them (docs/mcp.md).
    #[must_use]
    pub fn shared_jobs(mut self) -> Self {
        self.shared_mut().shared_jobs = true;
        self
    }

    /// Lists to each caller only the tools it may call: over HTTP with
    /// authentication, `tools/list` leaves out a tool whose scopes the
    /// request's principal does not hold. By default every served tool is
    /// listed, with its scopes in `_meta["toolwright/scopes"]`, so that a
    /// client can say what a user would need; calling one is `FORBIDDEN`
    /// either way. A request with no principal (stdio, no authentication
    /// configured) is shown everything.
    #[must_use]
    pub fn list_callable_only(mut self) -> Self {
        self.shared_mut().callable_only = true;
        self
    }

    /// Keeps its Streamable HTTP sessions in `store`, shared by every
    /// replica of the server behind one address: a 2025-11-25 client that
    /// reconnects to another replica with its `Mcp-Session-Id` goes on
    /// with its negotiated revision and capabilities and its log level, and
    /// (with a job store the replicas share) its jobs; one that resumes an
    /// SSE stream there with `Last-Event-ID` gets the events it missed.
    #[cfg(feature = "redis")]
    #[must_use]
    pub fn sessions(mut self, store: crate::mcp::RedisSessions) -> Self {
        self.shared_mut().sessions = Some(Arc::new(store));
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

    /// Sets the name and version the server gives in `initialize`.
    #[must_use]
    pub fn named(mut self, name: &str, version: &str) -> Self {
        let shared = self.shared_mut();
        shared.name = Arc::from(name);
        shared.version = Arc::from(version);
        shared.edge.set_version(shared.version.clone());
        self
    }

    /// Serves the tools, resources and prompts of the MCP server `mount`
    /// names beside the catalogue's, under its prefix (see
    /// [`mount`](crate::mount)). Its connection is opened and kept in a
    /// task of its own, started here: call this inside a Tokio runtime.
    #[cfg(feature = "mount")]
    #[must_use]
    pub fn mount(mut self, mount: crate::mount::Mount) -> Self {
        self.shared_mut().edge.mount(mount);
        self
    }

    /// A server for one more session: the same port and schema, and
    /// a task list of its own, since tasks belong to the session that
    /// made them.
    pub(super) fn for_session(&self) -> Self {
        McpServer {
            shared: self.shared.clone(),
            session: Session {
                owner: (!self.shared.shared_jobs).then(|| Owner::unique("mcp-session")),
                ..Session::default()
            },
        }
    }

    /// The port it serves.
    pub fn port(&self) -> &P {
        self.shared.edge.port()
    }
}
