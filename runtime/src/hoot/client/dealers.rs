//! The client's sockets, made and connected: a DEALER per backend with a
//! monitor of its connection, and a SUB per IOPub endpoint; with CURVE,
//! each holds the client's keys and the server's public key.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::hoot::{HootError, KeyPair, PublicKey};

/// How a client secures its connections: its key pair, and the public key
/// of its backends (every backend of a client has the same).
#[derive(Clone, Debug)]
pub(super) struct Curve {
    pub(super) keys: KeyPair,
    pub(super) server: PublicKey,
}

impl Curve {
    /// Makes `socket` a CURVE client of the server whose public key it has.
    fn secure(&self, socket: &zmq::Socket) -> Result<(), HootError> {
        socket.set_curve_serverkey(self.server.as_bytes())?;
        socket.set_curve_publickey(self.keys.public().as_bytes())?;
        socket.set_curve_secretkey(self.keys.secret())?;
        Ok(())
    }
}

/// What the DEALERs are set up with.
pub(super) struct Options<'a> {
    pub(super) high_water_mark: i32,
    pub(super) max_body: usize,
    pub(super) curve: Option<&'a Curve>,
}

/// The DEALERs, one per backend, and the PAIRs that hear their connection
/// events. Dropped, it stops the monitors before the sockets close.
pub(super) struct Dealers {
    pub(super) sockets: Vec<zmq::Socket>,
    pub(super) monitors: Vec<zmq::Socket>,
}

impl Dealers {
    /// A DEALER connected to each of `endpoints`, each monitored.
    pub(super) fn connect(
        context: &zmq::Context,
        endpoints: &[String],
        options: &Options<'_>,
    ) -> Result<Dealers, HootError> {
        if options.curve.is_some() {
            crate::hoot::error::check_curve()?;
            for endpoint in endpoints {
                crate::hoot::error::check_curve_endpoint(endpoint)?;
            }
        }
        // Dropped on any error below, it stops the monitors it holds.
        let mut dealers = Dealers {
            sockets: Vec::with_capacity(endpoints.len()),
            monitors: Vec::with_capacity(endpoints.len()),
        };
        for endpoint in endpoints {
            let dealer = context.socket(zmq::DEALER)?;
            dealer.set_linger(0)?;
            // Nothing is queued for a backend that is not connected: a call
            // fails at once instead of waiting for it to come back. Under
            // CURVE, not before the handshake has succeeded either.
            dealer.set_immediate(true)?;
            dealer.set_sndhwm(options.high_water_mark)?;
            dealer.set_rcvhwm(options.high_water_mark)?;
            dealer.set_maxmsgsize(
                i64::try_from(options.max_body)
                    .unwrap_or(i64::MAX)
                    .saturating_add(4096),
            )?;
            dealer.set_reconnect_ivl(100)?;
            dealer.set_reconnect_ivl_max(1000)?;
            if let Some(curve) = options.curve {
                curve.secure(&dealer)?;
            }
            let monitor = monitor(context, &dealer, options.curve.is_some());
            dealers.sockets.push(dealer);
            dealers.monitors.push(monitor?);
            dealers.connect_last(endpoint)?;
        }
        Ok(dealers)
    }

    /// Connects the last DEALER to `endpoint`.
    fn connect_last(&self, endpoint: &str) -> Result<(), HootError> {
        let Some(dealer) = self.sockets.last() else {
            return Ok(());
        };
        dealer
            .connect(endpoint)
            .map_err(|source| HootError::Connect {
                endpoint: endpoint.to_owned(),
                source,
            })
    }
}

impl Drop for Dealers {
    fn drop(&mut self) {
        for dealer in &self.sockets {
            unmonitor(dealer);
        }
    }
}

/// A SUB to each IOPub endpoint, subscribed to every job event and every
/// resource update.
pub(super) fn subscribe(
    context: &zmq::Context,
    endpoints: &[String],
    curve: Option<&Curve>,
) -> Result<Vec<zmq::Socket>, HootError> {
    let mut subscribers = Vec::with_capacity(endpoints.len());
    for endpoint in endpoints {
        if curve.is_some() {
            crate::hoot::error::check_curve_endpoint(endpoint)?;
        }
        let subscriber = context.socket(zmq::SUB)?;
        subscriber.set_linger(0)?;
        if let Some(curve) = curve {
            curve.secure(&subscriber)?;
        }
        subscriber.set_subscribe(crate::hoot::iopub::JOB_TOPIC.as_bytes())?;
        subscriber.set_subscribe(crate::hoot::iopub::RESOURCE_UPDATED_TOPIC.as_bytes())?;
        subscriber
            .connect(endpoint)
            .map_err(|source| HootError::Connect {
                endpoint: endpoint.clone(),
                source,
            })?;
        subscribers.push(subscriber);
    }
    Ok(subscribers)
}

/// Makes each monitor's inproc endpoint unique within the process, whose
/// clients share one context.
static MONITORS: AtomicU64 = AtomicU64::new(0);

/// A fresh inproc endpoint for a monitor.
fn monitor_endpoint() -> String {
    format!(
        "inproc://toolwright-hoot-monitor-{}",
        MONITORS.fetch_add(1, Ordering::Relaxed)
    )
}

/// A PAIR socket that hears libzmq's connection events of `dealer`: when
/// its connection closes, and when it opens again; with `handshakes`, also
/// when a CURVE handshake fails. Stop it with [`unmonitor`] before closing
/// the PAIR.
fn monitor(
    context: &zmq::Context,
    dealer: &zmq::Socket,
    handshakes: bool,
) -> Result<zmq::Socket, HootError> {
    use zmq::SocketEvent;
    let endpoint = monitor_endpoint();
    let mut events = SocketEvent::CONNECTED.to_raw() | SocketEvent::DISCONNECTED.to_raw();
    if handshakes {
        events |= SocketEvent::HANDSHAKE_FAILED_NO_DETAIL.to_raw()
            | SocketEvent::HANDSHAKE_FAILED_PROTOCOL.to_raw()
            | SocketEvent::HANDSHAKE_FAILED_AUTH.to_raw();
    }
    dealer.monitor(&endpoint, i32::from(events))?;
    let monitor = context.socket(zmq::PAIR)?;
    monitor.set_linger(0)?;
    monitor.connect(&endpoint)?;
    Ok(monitor)
}

/// Stops `dealer`'s monitor. libzmq's I/O thread, which the process's
/// servers and clients share, sends each event with a blocking send: an
/// event for a monitor nobody reads any more would stop it for good. A
/// monitor of no events replaces the old one (which libzmq closes), and
/// sends nothing; the safe API cannot pass the null endpoint that would
/// just stop it.
fn unmonitor(dealer: &zmq::Socket) {
    let _ = dealer.monitor(&monitor_endpoint(), 0);
}
