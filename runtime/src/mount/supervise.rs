//! The task that keeps one mount connected: connect, list, watch; and on
//! a lost connection, say so and try again with backoff.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{ClientRequest, PingRequest};
use rmcp::service::{RoleClient, RunningService};
use tokio::sync::{Notify, watch};
use tokio_util::sync::CancellationToken;

use super::connect::{Client, connect};
use super::listing::Listing;
use super::state::{Mounted, State};

/// How often a connected mount is pinged: how long a server that died
/// without closing its connection (an HTTP endpoint) stays listed at most
/// when nobody calls it.
const PING_EVERY: Duration = Duration::from_secs(2);
/// How long a ping may take before the connection counts as lost.
const PING_TIMEOUT: Duration = Duration::from_secs(5);
/// The wait before the first retry of a failed connection, doubled after
/// each failure up to [`MAX_BACKOFF`].
const MIN_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Keeps `mounted` connected until `stop`.
pub(super) async fn supervise(
    mounted: Arc<Mounted>,
    generation: Arc<watch::Sender<u64>>,
    stop: CancellationToken,
) {
    let publish = |state: State| {
        mounted.state.send_replace(Arc::new(state));
        generation.send_modify(|g| *g += 1);
    };
    let mut backoff = MIN_BACKOFF;
    loop {
        let relist = Arc::new(Notify::new());
        let client = Client {
            relist: relist.clone(),
            mounted: mounted.clone(),
        };
        let connected = tokio::select! {
            () = stop.cancelled() => return,
            connected = connect(&mounted.target, client) => connected,
        };
        let lost = match connected {
            Ok(service) => {
                let session = Session {
                    mounted: &mounted,
                    service: &service,
                    relist: &relist,
                };
                let lost = tokio::select! {
                    () = stop.cancelled() => None,
                    lost = session.serve(&publish, &mut backoff) => Some(lost),
                };
                // Ends the session and kills a command's process.
                let _ = service.cancel().await;
                match lost {
                    Some(lost) => lost,
                    None => return,
                }
            }
            Err(reason) => reason,
        };
        let listing = mounted.state.borrow().listing.clone();
        publish(State {
            peer: None,
            listing,
            down: Some(lost),
        });
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(backoff) => {}
        }
        backoff = (backoff * 2).min(MAX_BACKOFF);
    }
}

/// One connected session of a mount.
struct Session<'a> {
    mounted: &'a Mounted,
    service: &'a RunningService<RoleClient, Client>,
    relist: &'a Notify,
}

impl Session<'_> {
    /// Lists, publishes, and watches the session until it is lost: why.
    async fn serve(&self, publish: &impl Fn(State), backoff: &mut Duration) -> String {
        let peer = self.service.peer();
        let target = &self.mounted.target;
        let mut resubscribed = false;
        loop {
            match Listing::of(&self.mounted.prefix, &self.mounted.scopes, peer).await {
                Ok(listing) => publish(State {
                    peer: Some(peer.clone()),
                    listing: Arc::new(listing),
                    down: None,
                }),
                Err(e) => return format!("{target} did not list what it has: {e}"),
            }
            // A new session of the mounted server knows none of the
            // subscriptions the sessions here still hold: once published
            // (so that a subscription made from now on is sent by its
            // maker), the ones made before are sent again.
            if !resubscribed {
                self.mounted.resubscribe(peer).await;
                resubscribed = true;
            }
            *backoff = MIN_BACKOFF;
            loop {
                tokio::select! {
                    () = self.relist.notified() => break,
                    () = self.mounted.broken.notified() => {}
                    () = tokio::time::sleep(PING_EVERY) => {}
                }
                if let Err(why) = self.ping().await {
                    return why;
                }
            }
        }
    }

    /// Checks that the server still answers.
    async fn ping(&self) -> Result<(), String> {
        let target = &self.mounted.target;
        let peer = self.service.peer();
        if peer.is_transport_closed() {
            return Err(format!("{target} closed the connection"));
        }
        let ping = peer.send_request(ClientRequest::PingRequest(PingRequest::default()));
        match tokio::time::timeout(PING_TIMEOUT, ping).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(format!("{target} did not answer a ping: {e}")),
            Err(_) => Err(format!(
                "{target} did not answer a ping within {} s",
                PING_TIMEOUT.as_secs()
            )),
        }
    }
}
