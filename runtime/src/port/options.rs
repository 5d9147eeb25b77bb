//! `CallOptions`: how one call through a port is waited for, cancelled
//! and streamed.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use std::sync::Arc;

use super::StreamSender;
use crate::Principal;
use crate::caller::Caller;
use crate::jobs::Owner;

/// How one call is made. `CallOptions::default()` waits as the tool's
/// timing class says, cannot be cancelled and does not stream.
///
/// ```
/// use std::time::Duration;
/// use toolwright::port::CallOptions;
///
/// let token = tokio_util::sync::CancellationToken::new();
/// let options = CallOptions::default()
///     .wait(Duration::from_secs(5))
///     .cancel_on(token.clone());
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct CallOptions {
    /// How long a call that runs as a job is waited for before the caller
    /// gets `JobStarted`. `None`: the budget of its timing class.
    /// `Duration::ZERO`: `JobStarted` at once. `Duration::MAX`: until it
    /// ends.
    pub wait: Option<Duration>,
    /// Cancels the call when cancelled.
    pub cancel: Option<CancellationToken>,
    /// Where the stream of a streaming job goes while it is waited for.
    pub stream: Option<StreamSender>,
    /// Who the call is made for: the jobs it starts belong to them, and a
    /// job tool called with an owner sees only theirs. `None` sees every
    /// job.
    pub owner: Option<Owner>,
    /// The client that makes the call, which the handler's logs,
    /// progress, sampling and elicitation go to (see [`Caller`]). Ports
    /// that cannot carry them to a remote handler leave it out there.
    pub caller: Option<Arc<dyn Caller>>,
    /// Who the call is made for, as its door authenticated them: the
    /// handler reads it from its context. A door checks the principal's
    /// scopes against the tool's before it calls the port.
    pub principal: Option<Arc<Principal>>,
    /// The span of the call (feature `otel`): the handler's and the job's
    /// spans are its children, and a HOOT01 client sends its context on
    /// in frame 5. `None`: the current span, if any.
    #[cfg(feature = "otel")]
    pub span: Option<tracing::Span>,
}

impl CallOptions {
    /// Waits at most `wait` for a call that runs as a job.
    #[must_use]
    pub fn wait(mut self, wait: Duration) -> Self {
        self.wait = Some(wait);
        self
    }

    /// Waits for a call that runs as a job until it ends.
    #[must_use]
    pub fn wait_until_done(self) -> Self {
        self.wait(Duration::MAX)
    }

    /// Cancels the call when `token` is cancelled.
    #[must_use]
    pub fn cancel_on(mut self, token: CancellationToken) -> Self {
        self.cancel = Some(token);
        self
    }

    /// Sends the call's stream to `sender` while it is waited for.
    #[must_use]
    pub fn stream_to(mut self, sender: StreamSender) -> Self {
        self.stream = Some(sender);
        self
    }

    /// Makes the call for `owner`: see [`Owner`].
    #[must_use]
    pub fn owned_by(mut self, owner: Owner) -> Self {
        self.owner = Some(owner);
        self
    }

    /// Makes the call for `principal`: its jobs belong to the principal's
    /// [`owner`](Principal::owner), and its handler sees it.
    #[must_use]
    pub fn principal(mut self, principal: Arc<Principal>) -> Self {
        self.owner = Some(principal.owner());
        self.principal = Some(principal);
        self
    }

    /// Makes the call for `caller`'s client: see [`Caller`].
    #[must_use]
    pub fn caller(mut self, caller: Arc<dyn Caller>) -> Self {
        self.caller = Some(caller);
        self
    }

    /// Makes the call inside `span` (feature `otel`): see
    /// [`CallOptions::span`].
    #[cfg(feature = "otel")]
    #[must_use]
    pub fn in_span(mut self, span: tracing::Span) -> Self {
        self.span = Some(span);
        self
    }

    /// Resolves when the call is cancelled; never without a token.
    pub(crate) async fn cancelled(&self) {
        match &self.cancel {
            Some(token) => token.cancelled().await,
            None => std::future::pending().await,
        }
    }
}
