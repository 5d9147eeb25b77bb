//! Subscriptions to mounted resources: the mounted server gets one
//! `resources/subscribe` for a URI however many sessions here hold it,
//! an `unsubscribe` when the last lets go, and the subscriptions still
//! held again when it reconnects.

use std::sync::{Arc, MutexGuard, PoisonError};

use rmcp::Peer;
use rmcp::model::{SubscribeRequestParams, UnsubscribeRequestParams};
use rmcp::service::RoleClient;

use super::set::Mounts;
use super::state::{Mounted, Proxied};

/// One hold on a mounted resource's subscription, kept by a session or a
/// listen stream: dropping it lets go.
pub(crate) struct Subscribed {
    mounted: Arc<Mounted>,
    /// The mounted server's own URI.
    own: String,
}

impl std::fmt::Debug for Subscribed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscribed")
            .field("mount", &self.mounted.prefix)
            .field("uri", &self.own)
            .finish()
    }
}

impl Drop for Subscribed {
    fn drop(&mut self) {
        if !self.mounted.release(&self.own) {
            return;
        }
        // The last hold went: the mounted server need send its updates no
        // more. One that is down forgot them with its session.
        let Some(peer) = self.mounted.state.borrow().peer.clone() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let own = std::mem::take(&mut self.own);
        runtime.spawn(async move {
            #[allow(deprecated)] // the mount's session is a 2025-11-25 one
            let _ = peer.unsubscribe(UnsubscribeRequestParams::new(own)).await;
        });
    }
}

impl Mounts {
    /// Subscribes to the mounted resource served as `uri`; `None` when it
    /// is no mount's. The mounted server's refusal is passed on.
    ///
    /// A mount that is down still gives the hold: the subscription is sent
    /// when it is back, as every one held is on a reconnection, so a
    /// subscription does not depend on whether the mount answered at the
    /// moment it was made (one made a moment earlier would have survived
    /// the same outage).
    pub(crate) async fn subscribe(
        &self,
        uri: &str,
        principal: Option<&crate::Principal>,
    ) -> Option<Result<Subscribed, Proxied>> {
        let (mounted, own) = self.by_uri(uri)?;
        if let Err(refused) = mounted.permits(principal, uri) {
            return Some(Err(refused));
        }
        let first = mounted.want(&own);
        let held = Subscribed {
            mounted: mounted.clone(),
            own: own.clone(),
        };
        let peer = mounted.state.borrow().peer.clone();
        let (true, Some(peer)) = (first, peer) else {
            return Some(Ok(held));
        };
        #[allow(deprecated)] // the mount's session is a 2025-11-25 one
        let sent = peer.subscribe(SubscribeRequestParams::new(own)).await;
        match mounted.answered(sent) {
            Ok(()) | Err(Proxied::Unavailable(_)) => Some(Ok(held)),
            Err(refused) => Some(Err(refused)),
        }
    }
}

impl Mounted {
    fn wanted(&self) -> MutexGuard<'_, std::collections::HashMap<String, usize>> {
        self.wanted.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts one more hold on `own`: true when it is the first.
    fn want(&self, own: &str) -> bool {
        let mut wanted = self.wanted();
        let holds = wanted.entry(own.to_owned()).or_default();
        *holds += 1;
        *holds == 1
    }

    /// Counts one hold on `own` fewer: true when it was the last.
    fn release(&self, own: &str) -> bool {
        let mut wanted = self.wanted();
        let Some(holds) = wanted.get_mut(own) else {
            return false;
        };
        *holds -= 1;
        let last = *holds == 0;
        if last {
            wanted.remove(own);
        }
        last
    }

    /// Sends every subscription held to a new session of the mounted
    /// server. One it refuses now stays held, and is tried again on the
    /// next reconnection.
    pub(super) async fn resubscribe(&self, peer: &Peer<RoleClient>) {
        let uris: Vec<String> = self.wanted().keys().cloned().collect();
        for own in uris {
            #[allow(deprecated)] // the mount's session is a 2025-11-25 one
            let _ = peer.subscribe(SubscribeRequestParams::new(own)).await;
        }
    }
}
