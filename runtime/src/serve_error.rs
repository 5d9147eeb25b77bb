//! `ServeError`: why serving (MCP on stdio or HTTP, the web routes) stopped
//! or could not start.

/// Why a server could not start or stopped with an error.
#[derive(Debug)]
#[non_exhaustive]
pub enum ServeError {
    /// The catalogue's generated MCP schema does not parse.
    Schema(String),
    /// The client's `initialize` handshake failed.
    Initialize(String),
    /// The session's task failed.
    Task(String),
    /// The HTTP listener could not bind its address.
    Bind {
        /// The address asked for.
        addr: std::net::SocketAddr,
        /// Why it could not be bound.
        source: std::io::Error,
    },
    /// Serving stopped with an I/O error (the HTTP listener, or writing
    /// to the client on stdio).
    Io(std::io::Error),
    /// The HTTP configuration is not usable.
    Config(String),
    /// No key to seal request states with: the one given is too short, or
    /// the operating system gave no random bytes.
    StateKey(String),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Schema(e) => write!(f, "the catalogue's MCP schema does not parse: {e}"),
            ServeError::Initialize(e) => write!(f, "the MCP handshake failed: {e}"),
            ServeError::Task(e) => write!(f, "the MCP session failed: {e}"),
            ServeError::Bind { addr, source } => write!(f, "cannot listen on {addr}: {source}"),
            ServeError::Io(e) => write!(f, "serving failed: {e}"),
            ServeError::Config(e) => write!(f, "invalid HTTP configuration: {e}"),
            ServeError::StateKey(e) => write!(f, "no key to seal request states: {e}"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ServeError::Bind { source, .. } => Some(source),
            ServeError::Io(e) => Some(e),
            _ => None,
        }
    }
}
