//! Resource subscriptions. On 2025-11-25 a session subscribes with
//! `resources/subscribe` (and leaves with `resources/unsubscribe`); one task
//! per subscribing session forwards the port's updates for its URIs as
//! `notifications/resources/updated`. On 2026-07-28 a client names the URIs
//! in `subscriptions/listen`'s `resourceSubscriptions`, and the listen
//! stream carries the same notifications (handler.rs). Either way only a
//! resource declared `@subscribable` may be subscribed to, by a caller
//! holding its scopes.

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
}

impl Subscriptions {
    fn uris(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.uris.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn has(&self, uri: &str) -> bool {
        self.uris().contains(uri)
    }
}

impl<P: CallPort> McpServer<P> {
    /// Whether this server offers subscriptions: the catalogue has
    /// `@subscribable` resources and the port hears their updates.
    pub(super) fn offers_subscriptions(&self) -> bool {
        self.entries().subscribes() && self.port().resource_updates().is_some()
    }

    /// The URIs of `requested` a 2026-07-28 listener may follow: those of
    /// subscribable resources, when the server offers subscriptions.
    pub(super) fn followable(&self, requested: Option<&Vec<String>>) -> Vec<String> {
        if !self.offers_subscriptions() {
            return Vec::new();
        }
        requested
            .into_iter()
            .flatten()
            .filter(|uri| self.entries().subscribable(uri).is_some())
            .cloned()
            .collect()
    }

    /// Whether the caller of `context` may follow `uri`: it holds the
    /// scopes of the resource.
    pub(super) fn may_follow(
        &self,
        uri: &str,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let Some(entry) = self.entries().subscribable(uri) else {
            return Err(ErrorData::invalid_params(
                format!("no resource that can be subscribed to has the URI `{uri}`"),
                Some(json!({ "uri": uri })),
            ));
        };
        if let Some(principal) = principal_of(&context.extensions) {
            entry
                .permits(&principal)
                .map_err(|e| crate::mcp::entries::answer::error(e, "uri", uri))?;
        }
        Ok(())
    }

    /// `resources/subscribe`.
    pub(super) fn subscribe_to(
        &self,
        request: SubscribeRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let Some(updates) = self
            .entries()
            .subscribes()
            .then(|| self.port().resource_updates())
            .flatten()
        else {
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

    /// `resources/unsubscribe`: the URI is followed no more (one never
    /// subscribed to is no error).
    pub(super) fn unsubscribe_from(
        &self,
        request: &UnsubscribeRequestParams,
    ) -> Result<(), ErrorData> {
        if !self.offers_subscriptions() {
            return Err(not_found("resources/unsubscribe"));
        }
        self.session.subscriptions.uris().remove(&request.uri);
        Ok(())
    }
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
