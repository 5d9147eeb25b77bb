//! What a client tells of its backends
//! ([`Client::backends`](super::Client::backends)): whether each takes
//! calls, and if not, why.

/// Whether a backend takes calls.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BackendState {
    /// In rotation: calls may go to it.
    InRotation,
    /// Out of rotation until it answers a Heartbeat: it has not answered
    /// one yet, fell silent for longer than the liveness window, closed
    /// its connection, or could not take a call sent to it.
    NotAnswering,
    /// It answered that it does not serve the client's service
    /// (`UNKNOWN_SERVICE`), with this message. It stays out of rotation
    /// until it answers a Heartbeat otherwise.
    Refused(String),
    /// Its CURVE handshake with the client failed, for this reason: it
    /// refused the client's key, or it does not hold the secret key of the
    /// server key the client was given. libzmq tries again (every second
    /// at most); it joins the rotation once a handshake succeeds and it
    /// answers a Heartbeat.
    HandshakeFailed(String),
}

/// One backend of a client, as
/// [`Client::backends`](super::Client::backends) reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BackendStatus {
    /// The endpoint it was given as.
    pub endpoint: String,
    /// Whether it takes calls.
    pub state: BackendState,
    /// Calls sent to it and not yet answered.
    pub in_flight: usize,
}
