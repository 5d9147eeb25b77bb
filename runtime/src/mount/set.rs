//! [`Mounts`]: the servers a server mounts, each kept connected by its own
//! task, and the requests proxied to them.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, GetPromptRequestParams, GetPromptResult,
    ReadResourceRequestParams, ReadResourceResult, ResultType, Tool,
};
use serde_json::{Map, Value as Json};
use tokio::sync::{Notify, broadcast, watch};
use tokio_util::sync::{CancellationToken, DropGuard};

use super::listing::Listing;
use super::names::{Mount, unprefixed_uri};
use super::state::{Mounted, Proxied, State};
use super::supervise::supervise;

/// The servers mounted, shared by every door of one server. Cheap to
/// clone; when the last clone goes, the mounts' tasks stop and the
/// commands they started are killed.
#[derive(Clone)]
pub(crate) struct Mounts {
    mounts: Arc<Vec<Arc<Mounted>>>,
    /// Bumped whenever a mount's listing or availability changes.
    generation: Arc<watch::Sender<u64>>,
    /// The updates of subscribed mounted resources, their URIs as served.
    updates: broadcast::Sender<Arc<str>>,
    stop: CancellationToken,
    _stopped: Arc<DropGuard>,
}

impl Default for Mounts {
    fn default() -> Self {
        let stop = CancellationToken::new();
        Mounts {
            mounts: Arc::default(),
            generation: Arc::new(watch::Sender::new(0)),
            updates: broadcast::Sender::new(UPDATES_CAPACITY),
            _stopped: Arc::new(stop.clone().drop_guard()),
            stop,
        }
    }
}

/// How many updates of mounted resources a session's forwarding may fall
/// behind before it loses the oldest (as the catalogue's own updates).
const UPDATES_CAPACITY: usize = 1024;

// A result is re-marked `complete` on its way through: the mounted
// session may be on a revision before 2026-07-28, which leaves the mark
// out, and this server's client may be on one that needs it (rmcp drops
// it again for an older client).

impl Mounts {
    /// Mounts `mount`: its task starts connecting now (so this must run
    /// inside a Tokio runtime).
    pub(crate) fn add(&mut self, mount: Mount) {
        let mounted = Arc::new(Mounted {
            prefix: mount.prefix,
            target: mount.target,
            scopes: mount.scopes,
            state: watch::Sender::new(Arc::new(State {
                down: Some("not connected yet".to_owned()),
                ..State::default()
            })),
            broken: Notify::new(),
            wanted: std::sync::Mutex::default(),
            updates: self.updates.clone(),
        });
        Arc::make_mut(&mut self.mounts).push(mounted.clone());
        tokio::spawn(supervise(
            mounted,
            self.generation.clone(),
            self.stop.child_token(),
        ));
    }

    /// True when nothing is mounted.
    pub(crate) fn is_empty(&self) -> bool {
        self.mounts.is_empty()
    }

    /// A number that changes whenever a mount's lists or availability do.
    #[cfg(feature = "web")]
    pub(crate) fn generation(&self) -> u64 {
        *self.generation.borrow()
    }

    /// Changes whenever a mount's lists or availability do.
    pub(crate) fn changes(&self) -> watch::Receiver<u64> {
        self.generation.subscribe()
    }

    /// The listings of the mounts that answer now, with their prefixes.
    pub(crate) fn listings(&self) -> Vec<(&str, Arc<Listing>)> {
        self.mounts
            .iter()
            .filter_map(|m| {
                let state = m.state.borrow();
                state
                    .peer
                    .is_some()
                    .then(|| (m.prefix.as_str(), state.listing.clone()))
            })
            .collect()
    }

    /// The scopes a caller needs for the mounted tool (or prompt) `name`.
    pub(crate) fn scopes_of(&self, name: &str) -> &[String] {
        self.by_name(name).map_or(&[], |m| m.scopes.as_slice())
    }

    /// The tools of the mounts that answer now.
    pub(crate) fn tools(&self) -> Vec<Tool> {
        let listings = self.listings();
        listings
            .iter()
            .flat_map(|(_, l)| l.tools.iter().cloned())
            .collect()
    }

    /// The mount whose prefix `name` carries (`<prefix>_…`).
    pub(super) fn by_name(&self, name: &str) -> Option<&Arc<Mounted>> {
        self.mounts.iter().find(|m| {
            name.strip_prefix(m.prefix.as_str())
                .is_some_and(|rest| rest.starts_with('_'))
        })
    }

    /// The mount whose prefix `uri` carries, and the mounted server's own
    /// URI for it.
    pub(super) fn by_uri(&self, uri: &str) -> Option<(&Arc<Mounted>, String)> {
        self.mounts
            .iter()
            .find_map(|m| Some((m, unprefixed_uri(&m.prefix, uri)?)))
    }

    /// True when `uri` is under a mount's prefix.
    pub(crate) fn routes_uri(&self, uri: &str) -> bool {
        self.by_uri(uri).is_some()
    }

    /// The updates of the mounted resources subscribed to, from now on:
    /// each URI as served.
    pub(crate) fn updates(&self) -> broadcast::Receiver<Arc<str>> {
        self.updates.subscribe()
    }

    /// True when `name` is a mounted tool's: one a mount that answers
    /// lists, or any name under the prefix of one that does not (whose
    /// call is `UNAVAILABLE`).
    pub(crate) fn routes_tool(&self, name: &str) -> bool {
        self.by_name(name).is_some_and(|m| {
            let state = m.state.borrow();
            state.peer.is_none() || state.listing.tool_names.contains_key(name)
        })
    }

    /// Calls the mounted tool served as `name`; `None` when no mount
    /// serves it (see [`routes_tool`](Self::routes_tool)).
    pub(crate) async fn call_tool(
        &self,
        name: &str,
        arguments: Option<Map<String, Json>>,
        principal: Option<&crate::Principal>,
    ) -> Option<Result<CallToolResult, Proxied>> {
        let mounted = self.by_name(name)?;
        let (state, peer) = match mounted.ready(principal, name) {
            Ok(ready) => ready,
            Err(refused) => return Some(Err(refused)),
        };
        let own = state.listing.tool_names.get(name)?;
        let mut params = CallToolRequestParams::new(own.clone());
        params.arguments = arguments;
        Some(
            mounted
                .answered(peer.call_tool(params).await)
                .map(|mut result| {
                    result.result_type = Some(ResultType::COMPLETE);
                    result
                }),
        )
    }

    /// Reads the mounted resource served as `uri`; `None` when it is no
    /// mount's.
    pub(crate) async fn read(
        &self,
        uri: &str,
        principal: Option<&crate::Principal>,
    ) -> Option<Result<ReadResourceResult, Proxied>> {
        let (mounted, own) = self.by_uri(uri)?;
        let peer = match mounted.ready(principal, uri) {
            Ok((_, peer)) => peer,
            Err(refused) => return Some(Err(refused)),
        };
        let read = peer
            .read_resource(ReadResourceRequestParams::new(own))
            .await;
        Some(mounted.answered(read).map(|mut result| {
            result.result_type = Some(ResultType::COMPLETE);
            for contents in &mut result.contents {
                rename_contents(contents, &mounted.prefix);
            }
            result
        }))
    }

    /// Gets the mounted prompt served as `name`; `None` when no mount
    /// serves it.
    pub(crate) async fn prompt(
        &self,
        name: &str,
        arguments: Option<Map<String, Json>>,
        principal: Option<&crate::Principal>,
    ) -> Option<Result<GetPromptResult, Proxied>> {
        let mounted = self.by_name(name)?;
        let (state, peer) = match mounted.ready(principal, name) {
            Ok(ready) => ready,
            Err(refused) => return Some(Err(refused)),
        };
        let own = state.listing.prompt_names.get(name)?;
        let mut params = GetPromptRequestParams::new(own.clone());
        params.arguments = arguments;
        Some(
            mounted
                .answered(peer.get_prompt(params).await)
                .map(|mut result| {
                    result.result_type = Some(ResultType::COMPLETE);
                    result
                }),
        )
    }

    /// The prefix and scopes of the mount whose URIs `uri` is under.
    #[cfg(feature = "web")]
    pub(crate) fn mount_of_uri(&self, uri: &str) -> Option<(&str, &[String])> {
        self.mounts
            .iter()
            .find(|m| unprefixed_uri(&m.prefix, uri).is_some())
            .map(|m| (m.prefix.as_str(), m.scopes.as_slice()))
    }
}

/// A read's contents with their URI as served under `prefix`.
fn rename_contents(contents: &mut rmcp::model::ResourceContents, prefix: &str) {
    use rmcp::model::ResourceContents;
    let uri = match contents {
        ResourceContents::TextResourceContents { uri, .. }
        | ResourceContents::BlobResourceContents { uri, .. } => uri,
        // A kind of contents newer than this server has no URI it knows.
        _ => return,
    };
    *uri = super::names::prefixed_uri(prefix, uri);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Principal;

    /// A mount of an address nothing listens on: never connected.
    fn unreachable(scopes: &[&str]) -> Mounts {
        let mut mounts = Mounts::default();
        let mount = Mount::http("b", "http://127.0.0.1:9/mcp").expect("a prefix");
        mounts.add(mount.scopes(scopes.iter().copied()));
        mounts
    }

    fn code(outcome: Option<Result<CallToolResult, Proxied>>) -> String {
        match outcome.expect("routed to the mount") {
            Ok(result) => panic!("answered {result:?}"),
            Err(proxied) => proxied.into_tool_error().code.to_string(),
        }
    }

    #[tokio::test]
    async fn a_caller_without_the_mounts_scopes_is_forbidden_before_anything_is_sent() {
        let mounts = unreachable(&["b:use"]);
        assert!(
            mounts.routes_tool("b_add"),
            "a mount that is down routes its prefix"
        );
        assert!(!mounts.routes_tool("c_add") && !mounts.routes_tool("badd"));
        let stranger = Principal::new("stranger").with_scopes(["other"]);
        let member = Principal::new("member").with_scopes(["b:use"]);
        let forbidden = code(mounts.call_tool("b_add", None, Some(&stranger)).await);
        assert_eq!(forbidden, crate::codes::FORBIDDEN);
        // Let through, it finds the mount down.
        let down = code(mounts.call_tool("b_add", None, Some(&member)).await);
        assert_eq!(down, crate::codes::UNAVAILABLE);
        // No authentication: no principal, nothing to check.
        let open = code(mounts.call_tool("b_add", None, None).await);
        assert_eq!(open, crate::codes::UNAVAILABLE);
        let read = mounts.read("cas://b/index", Some(&stranger)).await;
        assert!(matches!(read, Some(Err(Proxied::Forbidden(_)))));
        assert!(mounts.read("cas://index", Some(&member)).await.is_none());
        assert_eq!(mounts.scopes_of("b_add"), ["b:use".to_owned()]);
    }
}
