//! One ZeroMQ context for the process: servers and clients made here share
//! it, so an `inproc://` endpoint bound by a server in this process can be
//! connected to by a client in it (inproc only reaches sockets of the same
//! context).

use std::sync::OnceLock;

static CONTEXT: OnceLock<zmq::Context> = OnceLock::new();

/// The process's context.
pub(super) fn shared() -> zmq::Context {
    CONTEXT.get_or_init(zmq::Context::new).clone()
}
