//! Why a HOOT01 server or client could not start.

use std::fmt;

use super::MAX_SERVICE_LEN;

/// Why a HOOT01 server or client could not start.
#[derive(Debug)]
#[non_exhaustive]
pub enum HootError {
    /// An endpoint could not be bound (in use, malformed, no permission).
    Bind {
        /// The endpoint, as given.
        endpoint: String,
        /// What libzmq said.
        source: zmq::Error,
    },
    /// An endpoint could not be connected to (malformed, unknown transport).
    Connect {
        /// The endpoint, as given.
        endpoint: String,
        /// What libzmq said.
        source: zmq::Error,
    },
    /// libzmq refused to make or set up a socket.
    Socket(zmq::Error),
    /// The socket thread could not be started.
    Thread(std::io::Error),
    /// Not called from within a tokio runtime, which runs the calls.
    NoRuntime,
    /// A client was given no backend to connect to.
    NoBackend,
    /// A service name longer than frame 4 holds (255 bytes).
    ServiceName(String),
    /// The catalogue's generated MCP schema, which a batch transport reads
    /// arguments against, does not parse.
    Schema(String),
    /// CURVE was asked for, and the libzmq this was built with has none
    /// (`zmq::has("curve")` is false): nothing is served or connected
    /// rather than serving plain text.
    CurveUnavailable,
    /// CURVE was asked for on an `inproc://` endpoint, where libzmq runs no
    /// security handshake: the connection would be neither encrypted nor
    /// authenticated.
    CurveInproc(String),
}

impl fmt::Display for HootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HootError::Bind { endpoint, source } => {
                write!(f, "cannot bind `{endpoint}`: {source}")
            }
            HootError::Connect { endpoint, source } => {
                write!(f, "cannot connect to `{endpoint}`: {source}")
            }
            HootError::Socket(e) => write!(f, "cannot set up a ZeroMQ socket: {e}"),
            HootError::Thread(e) => write!(f, "cannot start the socket thread: {e}"),
            HootError::NoRuntime => {
                f.write_str("HOOT01 must be started from within a tokio runtime")
            }
            HootError::NoBackend => {
                f.write_str("a HOOT01 client needs at least one backend endpoint")
            }
            HootError::ServiceName(name) => write!(
                f,
                "a HOOT01 service name is at most {MAX_SERVICE_LEN} bytes; `{name}` has {}",
                name.len()
            ),
            HootError::Schema(e) => write!(f, "the catalogue's MCP schema does not parse: {e}"),
            HootError::CurveUnavailable => f.write_str(
                "CURVE was asked for, but this libzmq was built without it \
                 (zmq::has(\"curve\") is false); build libzmq with libsodium \
                 (docs/hoot.md, \"Security: CURVE\")",
            ),
            HootError::CurveInproc(endpoint) => write!(
                f,
                "`{endpoint}` is inproc, where libzmq runs no CURVE handshake; \
                 serve CURVE on tcp:// or ipc://"
            ),
        }
    }
}

impl std::error::Error for HootError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HootError::Bind { source, .. } | HootError::Connect { source, .. } => Some(source),
            HootError::Socket(e) => Some(e),
            HootError::Thread(e) => Some(e),
            HootError::NoRuntime
            | HootError::NoBackend
            | HootError::ServiceName(_)
            | HootError::Schema(_)
            | HootError::CurveUnavailable
            | HootError::CurveInproc(_) => None,
        }
    }
}

impl From<zmq::Error> for HootError {
    fn from(e: zmq::Error) -> Self {
        HootError::Socket(e)
    }
}

/// [`HootError::ServiceName`] for a name frame 4 cannot hold.
pub(super) fn check_service(name: &str) -> Result<(), HootError> {
    if name.len() > MAX_SERVICE_LEN {
        return Err(HootError::ServiceName(name.to_owned()));
    }
    Ok(())
}

/// [`HootError::CurveUnavailable`] unless libzmq has CURVE.
pub(super) fn check_curve() -> Result<(), HootError> {
    if zmq::has("curve") == Some(true) {
        Ok(())
    } else {
        Err(HootError::CurveUnavailable)
    }
}

/// [`HootError::CurveInproc`] for an inproc endpoint, which CURVE cannot
/// secure.
pub(super) fn check_curve_endpoint(endpoint: &str) -> Result<(), HootError> {
    if endpoint.starts_with("inproc://") {
        return Err(HootError::CurveInproc(endpoint.to_owned()));
    }
    Ok(())
}
