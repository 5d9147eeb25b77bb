//! Resource subscriptions. On 2025-11-25 a session subscribes with
//! `resources/subscribe` (and leaves with `resources/unsubscribe`); one task
//! per subscribing session forwards the port's updates for its URIs as
//! `notifications/resources/updated`. On 2026-07-28 a client names the URIs
//! in `subscriptions/listen`'s `resourceSubscriptions`, and the listen
//! stream carries the same notifications (handler.rs). Either way only a
//! resource declared `@subscribable` may be subscribed to, by a caller
//! holding its scopes — or a mounted server's resource, whose
//! subscription is the mounted server's to accept (`mount/subscribed.rs`).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use rmcp::model::{
    ResourceUpdatedNotificationParam, SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData, RoleServer};
use serde_json::json;
use tokio::sync::broadcast;

use super::McpServer;
use super::entries::not_found;
use super::owner::principal_of;
use crate::port::CallPort;

/// How often a forwarding task with nothing to forward checks whether its
/// session is still there.
const CHECK_EVERY: Duration = Duration::from_secs(30);

/// The URIs one session subscribed to, and whether its forwarding task
/// runs.
#[derive(Debug, Default)]
pub(in crate::mcp) struct Subscriptions {
    uris: Mutex<HashSet<String>>,
    forwarding: AtomicBool,
    /// The holds on the mounted resources' subscriptions among `uris`:
    /// they go with the session.
    #[cfg(feature = "mount")]
    mounted: Mutex<std::collections::HashMap<String, crate::mount::Subscribed>>,
    /// Whether the task forwarding the mounts' updates runs.
    #[cfg(feature = "mount")]
    forwarding_mounted: AtomicBool,
}

/// What a listen stream follows of the mounts' resources: their URIs as
/// served, their updates, and the holds on their subscriptions, which
/// last as long as the stream.
#[derive(Default)]
pub(super) struct MountedFollow {
    pub(super) uris: Vec<String>,
    pub(super) updates: Option<broadcast::Receiver<Arc<str>>>,
    #[cfg(feature = "mount")]
    _held: Vec<crate::mount::Subscribed>,
}

impl Subscriptions {
    fn uris(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.uris.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn has(&self, uri: &str) -> bool {
        self.uris().contains(uri)
    }

    #[cfg(feature = "mount")]
    fn held(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::HashMap<String, crate::mount::Subscribed>>
    {
        self.mounted.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl<P: CallPort> McpServer<P> {
    /// Whether this server offers subscriptions: the catalogue has
    /// `@subscribable` resources and the port hears their updates.
    pub(super) fn offers_subscriptions(&self) -> bool {
        self.entries().subscribes() && self.port().resource_updates().is_some()
    }

    /// The URIs of `requested` a 2026-07-28 listener may follow: those of
    /// subscribable resources, when the server offers subscriptions, and
    /// those of mounted servers.
    pub(super) fn followable(&self, requested: Option<&Vec<String>>) -> Vec<String> {
        let offers = self.offers_subscriptions();
        requested
            .into_iter()
            .flatten()
            .filter(|uri| {
                (offers && self.entries().subscribable(uri).is_some()) || self.mounted_uri(uri)
            })
            .cloned()
            .collect()
    }

    /// True when `uri` is no subscribable resource of the catalogue's but
    /// one of a mount's.
    fn mounted_uri(&self, uri: &str) -> bool {
        #[cfg(feature = "mount")]
        return self.entries().subscribable(uri).is_none()
            && self.mounts().is_some_and(|m| m.routes_uri(uri));
        #[cfg(not(feature = "mount"))]
        {
            let _ = uri;
            false
        }
    }

    /// Subscribes a listen stream to the mounted resources of `accepted`
    /// the caller of `context` may follow; one the mounted server refuses
    /// is left out, as one the caller lacks the scopes of is.
    pub(super) async fn follow_mounted(
        &self,
        accepted: &[String],
        context: &RequestContext<RoleServer>,
    ) -> MountedFollow {
        #[cfg(feature = "mount")]
        if let Some(mounts) = self.mounts() {
            let mut follow = MountedFollow::default();
            let principal = principal_of(&context.extensions);
            for uri in accepted.iter().filter(|uri| self.mounted_uri(uri)) {
                if let Some(Ok(held)) = mounts.subscribe(uri, principal.as_deref()).await {
                    follow._held.push(held);
                    follow.uris.push(uri.clone());
                }
            }
            if !follow.uris.is_empty() {
                follow.updates = Some(mounts.updates());
            }
            return follow;
        }
        let _ = (accepted, context);
        MountedFollow::default()
    }

    /// Whether the caller of `context` may follow `uri`: it holds the
    /// scopes of the resource.
    pub(super) fn may_follow(
        &self,
        uri: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let Some(entry) = self.entries().subscribable(uri) else {
            return Err(not_subscribable(uri));
        };
        if let Some(principal) = principal_of(&context.extensions) {
            entry
                .permits(&principal)
                .map_err(|e| crate::mcp::entries::answer::error(e, "uri", uri))?;
        }
        Ok(())
    }

    /// `resources/subscribe`.
    pub(super) async fn subscribe_to(
        &self,
        request: SubscribeRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        #[cfg(feature = "mount")]
        if self.mounted_uri(&request.uri) {
            return self.subscribe_mounted(request.uri, context).await;
        }
        let Some(updates) = self
            .entries()
            .subscribes()
            .then(|| self.port().resource_updates())
            .flatten()
        else {
            // With mounts the capability is declared: a URI that is
            // neither theirs nor the catalogue's is a bad one.
            if self.has_mounts() {
                return Err(not_subscribable(&request.uri));
            }
            return Err(not_found("resources/subscribe"));
        };
        self.may_follow(&request.uri, context)?;
        let subscriptions = &self.session.subscriptions;
        subscriptions.uris().insert(request.uri);
        if !subscriptions.forwarding.swap(true, Ordering::AcqRel) {
            tokio::spawn(forward(
                updates,
                Arc::downgrade(subscriptions),
                context.peer.clone(),
            ));
        }
        Ok(())
    }

    /// `resources/subscribe` of a mounted resource: held for the session,
    /// whose updates one task forwards as the catalogue's are.
    #[cfg(feature = "mount")]
    async fn subscribe_mounted(
        &self,
        uri: String,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let Some(mounts) = self.mounts() else {
            return Err(not_found("resources/subscribe"));
        };
        let principal = principal_of(&context.extensions);
        let held = match mounts.subscribe(&uri, principal.as_deref()).await {
            Some(Ok(held)) => held,
            Some(Err(refused)) => return Err(super::mounted::proxied_error(refused, "uri", &uri)),
            None => return Err(not_found("resources/subscribe")),
        };
        let subscriptions = &self.session.subscriptions;
        subscriptions.uris().insert(uri.clone());
        // A second subscription of the session replaces its first hold.
        let replaced = subscriptions.held().insert(uri, held);
        drop(replaced);
        if !subscriptions
            .forwarding_mounted
            .swap(true, Ordering::AcqRel)
        {
            tokio::spawn(forward(
                mounts.updates(),
                Arc::downgrade(subscriptions),
                context.peer.clone(),
            ));
        }
        Ok(())
    }

    /// `resources/unsubscribe`: the URI is followed no more (one never
    /// subscribed to is no error); a mounted one's hold is let go.
    pub(super) fn unsubscribe_from(
        &self,
        request: &UnsubscribeRequestParams,
    ) -> Result<(), ErrorData> {
        if !self.offers_subscriptions() && !self.has_mounts() {
            return Err(not_found("resources/unsubscribe"));
        }
        let subscriptions = &self.session.subscriptions;
        subscriptions.uris().remove(&request.uri);
        #[cfg(feature = "mount")]
        {
            let released = subscriptions.held().remove(&request.uri);
            drop(released);
        }
        Ok(())
    }
}

/// `-32602` for a URI no resource that can be subscribed to has.
fn not_subscribable(uri: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("no resource that can be subscribed to has the URI `{uri}`"),
        Some(json!({ "uri": uri })),
    )
}

/// Forwards each update of a URI the session subscribed to, until the
/// session or its transport is gone.
async fn forward(
    mut updates: broadcast::Receiver<Arc<str>>,
    subscriptions: Weak<Subscriptions>,
    peer: Peer<RoleServer>,
) {
    let mut check = tokio::time::interval(CHECK_EVERY);
    loop {
        tokio::select! {
            update = updates.recv() => {
                let uri = match update {
                    Ok(uri) => uri,
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                let Some(subscriptions) = subscriptions.upgrade() else {
                    return;
                };
                if subscriptions.has(&uri) {
                    let notification = ResourceUpdatedNotificationParam::new(uri.to_string());
                    if peer.notify_resource_updated(notification).await.is_err() {
                        return;
                    }
                }
            }
            _ = check.tick() => {
                if subscriptions.strong_count() == 0 || peer.is_transport_closed() {
                    return;
                }
            }
        }
    }
}
