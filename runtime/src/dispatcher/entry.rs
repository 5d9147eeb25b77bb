//! Answering an entry's request: a resource read, a prompt get, a
//! completion. Each runs in the caller's task, as a `sync` call does: an
//! entry has no timing class and never becomes a job.

use super::Dispatcher;
use super::panic::CatchPanic;
use crate::entry::{EntryAnswer, EntryCall};
use crate::port::CallOptions;
use crate::{CallContext, ResponseEnvelope, Service, ToolError};

impl<S: Service> Dispatcher<S> {
    /// Answers one MsgPack entry request (see [`crate::entry`]) made with
    /// `options`: its principal's scopes are checked against the entry's,
    /// its caller hears what the handler says, its cancel stops the
    /// handler. A request that does not decode is `INVALID_REQUEST`, one
    /// naming no entry `UNKNOWN_ENTRY`, a panicking handler `INTERNAL`.
    pub async fn entry(
        &self,
        request: Vec<u8>,
        options: CallOptions,
    ) -> ResponseEnvelope<EntryAnswer> {
        let call = match EntryCall::parse(request, self.config().limits) {
            Ok(call) => call,
            Err(e) => return ResponseEnvelope::Error(e),
        };
        let label = format!("{} {}", call.kind(), call.name());
        let cx = CallContext::detached()
            .with_caller(options.caller.clone())
            .with_principal(options.principal.clone());
        let handler = CatchPanic::new(label, S::entry(&self.inner.service, call, cx));
        tokio::select! {
            outcome = handler => match outcome {
                Ok(answer) => ResponseEnvelope::Success(answer),
                Err(e) => ResponseEnvelope::Error(e),
            },
            () = options.cancelled() => ResponseEnvelope::Error(ToolError::cancelled(
                "the request was cancelled by its caller",
            )),
        }
    }
}
