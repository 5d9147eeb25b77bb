//! A CURVE server's guard: its sockets' settings, the ZAP handler (ZeroMQ
//! RFC 27) that lets in only the allowed client keys, and a monitor that
//! counts the handshakes that fail before ZAP is asked.
//!
//! A CURVE server has a ZeroMQ context of its own: libzmq asks the one
//! handler bound at `inproc://zeromq.zap.01` *of the socket's context*, so
//! each server's handler hears its own sockets alone, and two servers in
//! one process cannot take each other's endpoint. The handler is polled
//! by the server's socket thread beside the ROUTER: a handshake is asked
//! about once per connection, and the thread closes the handler after the
//! sockets it guards, never before.

use std::collections::BTreeSet;

use crate::hoot::{HootError, KeyPair, PublicKey};

/// Where libzmq looks for the ZAP handler (RFC 27).
const ZAP_ENDPOINT: &str = "inproc://zeromq.zap.01";

/// The ZAP domain of a server's sockets. Every CURVE server has its own
/// context, so the name need not tell servers apart.
const DOMAIN: &str = "toolwright-hoot";

/// The monitor of the ROUTER's failed handshakes, and where it goes when
/// stopped.
const MONITOR: &str = "inproc://toolwright-hoot-handshakes";
const MONITOR_STOPPED: &str = "inproc://toolwright-hoot-handshakes-stopped";

/// How a server secures itself: its key pair, and the client keys it
/// lets in.
#[derive(Clone, Debug)]
pub(super) struct Curve {
    pub(super) keys: KeyPair,
    pub(super) allowed: BTreeSet<PublicKey>,
}

impl Curve {
    /// Makes `socket` a CURVE server with the server's keys, whose
    /// handshakes ask the ZAP handler.
    pub(super) fn secure(&self, socket: &zmq::Socket) -> Result<(), HootError> {
        socket.set_curve_server(true)?;
        socket.set_curve_publickey(self.keys.public().as_bytes())?;
        socket.set_curve_secretkey(self.keys.secret())?;
        socket.set_zap_domain(DOMAIN)?;
        Ok(())
    }
}

/// The ZAP handler and the handshake monitor, owned by the socket thread.
pub(super) struct Guard {
    zap: zmq::Socket,
    monitor: zmq::Socket,
    allowed: BTreeSet<PublicKey>,
}

impl Guard {
    /// Binds the ZAP handler on `context`: before any socket it guards is
    /// bound, so no handshake finds it missing (libzmq lets a CURVE client
    /// in unchecked when no handler is bound).
    pub(super) fn bind(context: &zmq::Context, curve: &Curve) -> Result<Guard, HootError> {
        let zap = context.socket(zmq::REP)?;
        zap.set_linger(0)?;
        zap.bind(ZAP_ENDPOINT)?;
        let monitor = context.socket(zmq::PAIR)?;
        monitor.set_linger(0)?;
        Ok(Guard {
            zap,
            monitor,
            allowed: curve.allowed.clone(),
        })
    }

    /// Hears `router`'s handshakes that fail before ZAP is asked: a peer
    /// speaking plain text or another mechanism, one that does not know
    /// the server's public key, one that hangs up halfway.
    pub(super) fn watch(&self, router: &zmq::Socket) -> Result<(), HootError> {
        let events = zmq::SocketEvent::HANDSHAKE_FAILED_NO_DETAIL.to_raw()
            | zmq::SocketEvent::HANDSHAKE_FAILED_PROTOCOL.to_raw();
        router.monitor(MONITOR, i32::from(events))?;
        self.monitor.connect(MONITOR)?;
        Ok(())
    }

    /// Stops the monitor of `router` before the PAIR that reads it closes:
    /// libzmq sends each event with a blocking send, and one for a monitor
    /// nobody reads would hold the context's I/O thread for good. A monitor
    /// of no events replaces it and sends nothing.
    pub(super) fn unwatch(&self, router: &zmq::Socket) {
        let _ = router.monitor(MONITOR_STOPPED, 0);
    }

    /// The sockets the thread polls: the ZAP handler, then the monitor.
    pub(super) fn sockets(&self) -> [&zmq::Socket; 2] {
        [&self.zap, &self.monitor]
    }

    /// Answers the ZAP requests waiting; how many it refused.
    pub(super) fn answer(&self) -> u64 {
        let mut refused = 0;
        while let Ok(request) = self.zap.recv_multipart(zmq::DONTWAIT) {
            let (reply, allowed) = self.decide(&request);
            if !allowed {
                refused += 1;
            }
            // A REP answers before it reads again; a reply libzmq would not
            // take leaves that handshake waiting until the peer gives up.
            if self.zap.send_multipart(reply, 0).is_err() {
                break;
            }
        }
        refused
    }

    /// The reply to one ZAP request, and whether it lets the peer in.
    ///
    /// RFC 27: the request is the version `1.0`, a request id, the domain,
    /// the peer's address and routing id, the mechanism and its
    /// credentials (for CURVE, the client's 32-byte public key); the reply
    /// is the version, the request id, a status (`200` in, `400` refused,
    /// `500` a request it cannot read), its text, the user id and
    /// metadata. The user id of a client let in is its public key in Z85,
    /// which libzmq gives as the `User-Id` of each message it sends.
    fn decide(&self, request: &[Vec<u8>]) -> (Vec<Vec<u8>>, bool) {
        let id = request.get(1).cloned().unwrap_or_default();
        let reply = |status: &str, text: &str, user: String| {
            vec![
                b"1.0".to_vec(),
                id.clone(),
                status.as_bytes().to_vec(),
                text.as_bytes().to_vec(),
                user.into_bytes(),
                Vec::new(),
            ]
        };
        let (Some(version), Some(mechanism), Some(credentials)) =
            (request.first(), request.get(5), request.get(6))
        else {
            return (reply("500", "not a ZAP 1.0 request", String::new()), false);
        };
        if version.as_slice() != b"1.0" {
            return (reply("500", "not a ZAP 1.0 request", String::new()), false);
        }
        let key = <[u8; 32]>::try_from(credentials.as_slice())
            .ok()
            .filter(|_| mechanism.as_slice() == b"CURVE")
            .map(PublicKey::from_bytes);
        match key {
            Some(key) if self.allowed.contains(&key) => (reply("200", "OK", key.to_z85()), true),
            _ => (
                reply("400", "this client key is not allowed", String::new()),
                false,
            ),
        }
    }

    /// Reads the monitor's events; how many handshakes failed.
    pub(super) fn failed_handshakes(&self) -> u64 {
        let mut failed = 0;
        while let Ok(frames) = self.monitor.recv_multipart(zmq::DONTWAIT) {
            // Frame 0: the event (u16) and its value (u32), in host order.
            if frames.first().is_some_and(|f| f.len() >= 2) {
                failed += 1;
            }
        }
        failed
    }
}

/// Reads one message from a CURVE server's `router`, with the public key
/// its peer was let in with (the `User-Id` the ZAP handler gave it).
/// Every message is asked, not each peer once: a routing id a peer chose
/// can come back on another connection, with another key.
pub(super) fn recv(router: &zmq::Socket) -> zmq::Result<(Vec<Vec<u8>>, Option<PublicKey>)> {
    let mut parts = vec![router.recv_bytes(zmq::DONTWAIT)?];
    let mut key = None;
    while router.get_rcvmore()? {
        let mut part = router.recv_msg(0)?;
        // The routing id is the ROUTER's own frame; the peer's start here.
        if parts.len() == 1 {
            key = part
                .gets("User-Id")
                .and_then(|id| PublicKey::from_z85(id).ok());
        }
        parts.push(part.to_vec());
    }
    Ok((parts, key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_message_carries_the_key_its_peer_was_let_in_with() {
        let (server, client) = (KeyPair::generate(), KeyPair::generate());
        let (Ok(server), Ok(client)) = (server, client) else {
            panic!("libzmq has CURVE");
        };
        let curve = Curve {
            keys: server.clone(),
            allowed: [client.public()].into_iter().collect(),
        };
        let context = zmq::Context::new();
        let guard = Guard::bind(&context, &curve).expect("the handler binds");
        let router = context.socket(zmq::ROUTER).expect("a socket");
        curve.secure(&router).expect("secured");
        router.bind("tcp://127.0.0.1:*").expect("bound");
        let endpoint = router
            .get_last_endpoint()
            .expect("an endpoint")
            .expect("UTF-8");

        let dealer = context.socket(zmq::DEALER).expect("a socket");
        dealer
            .set_curve_serverkey(server.public().as_bytes())
            .expect("set");
        dealer
            .set_curve_publickey(client.public().as_bytes())
            .expect("set");
        dealer.set_curve_secretkey(client.secret()).expect("set");
        dealer.connect(&endpoint).expect("connected");
        dealer
            .send_multipart([&b"one"[..], b"two"], 0)
            .expect("queued");

        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let received = loop {
            assert!(std::time::Instant::now() < deadline, "nothing arrived");
            let [zap, _] = guard.sockets();
            let mut items = [
                router.as_poll_item(zmq::POLLIN),
                zap.as_poll_item(zmq::POLLIN),
            ];
            zmq::poll(&mut items, 100).expect("poll");
            assert_eq!(guard.answer(), 0, "the client is allowed");
            if let Ok(received) = recv(&router) {
                break received;
            }
        };
        let (parts, key) = received;
        assert_eq!(parts[1..], [b"one".to_vec(), b"two".to_vec()]);
        assert_eq!(key, Some(client.public()));
        let _ = dealer.set_linger(0);
    }
}
