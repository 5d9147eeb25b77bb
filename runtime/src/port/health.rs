//! What a port tells an orchestrator: whether it can take calls now
//! ([`Readiness`], `/readyz`) and what it holds now ([`Gauges`], read at
//! each scrape of `/metrics`).

/// Whether a port can take calls now: what `/readyz` answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Readiness {
    /// It can.
    Ready,
    /// It cannot, and why, for people: a job store that does not answer,
    /// a gateway with no backend in rotation.
    NotReady(String),
}

impl Readiness {
    /// Whether it is [`Ready`](Readiness::Ready).
    pub fn is_ready(&self) -> bool {
        matches!(self, Readiness::Ready)
    }
}

/// What a port holds now (and a few counts since it started), each `None`
/// where the port has no such thing: a dispatcher has jobs and no
/// backends, a HOOT01 client the reverse, a HOOT01 server calls it serves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Gauges {
    /// Jobs this process accepted whose handler has not started.
    pub jobs_pending: Option<u64>,
    /// Jobs whose handler runs in this process.
    pub jobs_running: Option<u64>,
    /// Backends (HOOT01 workers) in rotation.
    pub workers_live: Option<u64>,
    /// Backends configured, in rotation or not.
    pub workers: Option<u64>,
    /// HOOT01 calls sent to a backend and not yet answered.
    pub hoot_in_flight: Option<u64>,
    /// HOOT01 calls a server took and has not answered: its queue.
    pub hoot_serving: Option<u64>,
    /// How many calls a HOOT01 server takes at once; beyond, `BUSY`.
    pub hoot_serving_limit: Option<u64>,
    /// HOOT01 Requests a server answered `BUSY` or `UNAVAILABLE`, since it
    /// started.
    pub hoot_turned_away: Option<u64>,
    /// CURVE handshakes a HOOT01 server refused for a key it does not
    /// allow, since it started.
    pub hoot_key_refused: Option<u64>,
    /// CURVE handshakes to a HOOT01 server that failed before a key could
    /// be checked, since it started.
    pub hoot_handshake_failed: Option<u64>,
}
