//! One mounted server and what is known of it now, and why a request
//! proxied to it has no result.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rmcp::service::{RoleClient, ServiceError};
use rmcp::{ErrorData, Peer};
use tokio::sync::{Notify, broadcast, watch};

use super::listing::Listing;
use super::names::Target;

/// One mounted server and what is known of it now.
pub(crate) struct Mounted {
    pub(super) prefix: String,
    pub(super) target: Target,
    /// The scopes a caller needs to use it.
    pub(super) scopes: Vec<String>,
    pub(super) state: watch::Sender<Arc<State>>,
    /// Told when a request failed as if the connection were gone, so that
    /// the mount's task checks it at once.
    pub(super) broken: Notify,
    /// The mounted server's own URIs some session subscribed to, with how
    /// many subscriptions hold each (`subscribed.rs`).
    pub(super) wanted: Mutex<HashMap<String, usize>>,
    /// Where its updates go, shared by every mount of a server.
    pub(super) updates: broadcast::Sender<Arc<str>>,
}

/// A mount's connection and lists.
#[derive(Default)]
pub(crate) struct State {
    /// The session, while the server answers.
    pub(super) peer: Option<Peer<RoleClient>>,
    /// What it listed when it last answered.
    pub(super) listing: Arc<Listing>,
    /// Why it is not connected, when it is not.
    pub(super) down: Option<String>,
}

/// Why a proxied request has no result.
#[derive(Debug)]
pub(crate) enum Proxied {
    /// The mounted server answered with a JSON-RPC error: passed on.
    Refused(ErrorData),
    /// The mounted server is not connected, or the connection failed
    /// during the request (`UNAVAILABLE`).
    Unavailable(String),
    /// The request timed out or was cancelled on the way.
    Failed(ServiceError),
    /// The caller lacks a scope the mount needs (`FORBIDDEN`): nothing
    /// was sent.
    Forbidden(crate::ToolError),
}

impl Proxied {
    /// As the web routes and the events say it: a JSON-RPC error is
    /// `PROTOCOL` with its code in `details`, a lost server
    /// `UNAVAILABLE`.
    pub(crate) fn into_tool_error(self) -> crate::ToolError {
        match self {
            Proxied::Refused(error) => crate::client::service_error(ServiceError::McpError(error)),
            Proxied::Unavailable(message) => {
                crate::ToolError::new(crate::codes::UNAVAILABLE, message)
            }
            Proxied::Failed(error) => crate::client::service_error(error),
            Proxied::Forbidden(error) => error,
        }
    }
}

impl Mounted {
    /// `Ok` when `principal` may use the mount (`name` is what it asked
    /// for); a request with no principal (no authentication) may.
    pub(super) fn permits(
        &self,
        principal: Option<&crate::Principal>,
        name: &str,
    ) -> Result<(), Proxied> {
        let Some(principal) = principal else {
            return Ok(());
        };
        let needed: Vec<&str> = self.scopes.iter().map(String::as_str).collect();
        principal.may_use(name, &needed).map_err(Proxied::Forbidden)
    }

    /// The mount's state and session, when `principal` may use it for
    /// `asked` and it is connected; else why not.
    pub(super) fn ready(
        &self,
        principal: Option<&crate::Principal>,
        asked: &str,
    ) -> Result<(Arc<State>, Peer<RoleClient>), Proxied> {
        self.permits(principal, asked)?;
        let state = self.state.borrow().clone();
        match state.peer.clone() {
            Some(peer) => Ok((state, peer)),
            None => Err(self.unavailable(&state)),
        }
    }

    fn unavailable(&self, state: &State) -> Proxied {
        let why = state.down.as_deref().unwrap_or("it is not connected");
        Proxied::Unavailable(format!(
            "the mounted MCP server `{}` ({}) is unavailable: {why}; its tools are listed again \
             when it is back",
            self.prefix, self.target
        ))
    }

    /// A proxied request's outcome: a failed connection is `UNAVAILABLE`
    /// and has the mount's task check the connection now.
    pub(super) fn answered<T>(&self, outcome: Result<T, ServiceError>) -> Result<T, Proxied> {
        outcome.map_err(|error| match error {
            ServiceError::McpError(error) => Proxied::Refused(error),
            error @ (ServiceError::TransportSend(_) | ServiceError::TransportClosed) => {
                self.broken.notify_one();
                Proxied::Unavailable(format!(
                    "the mounted MCP server `{}` ({}) did not answer: {error}",
                    self.prefix, self.target
                ))
            }
            error => Proxied::Failed(error),
        })
    }
}
