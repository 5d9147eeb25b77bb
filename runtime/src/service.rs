//! `Service`: a set of handlers bound to a catalogue by `#[tools]`.

use std::future::Future;
use std::sync::Arc;

use crate::entry::{EntryAnswer, EntryCall};
use crate::{CallContext, Catalogue, ServerCatalogue, ToolError};

/// Handlers for every tool of a catalogue. `#[tools]` implements it on the
/// type of the annotated impl block; the dispatcher calls it.
pub trait Service: Send + Sync + Sized + 'static {
    /// The catalogue the handlers serve.
    type Catalogue: ServerCatalogue;

    /// The tools of the catalogue this service has no handler for, which
    /// answer `NOT_IMPLEMENTED` (`#[tools(not_implemented(...))]`, or a
    /// handler compiled out by `#[cfg]`): what `GET /api/tools` marks as
    /// not served here. `#[tools]` implements it; empty by default.
    const NOT_SERVED: &'static [&'static str] = &[];

    /// Runs the handler of one (non-job) request. The future owns what it
    /// needs, so the dispatcher can run it as a job.
    fn call(
        service: &Arc<Self>,
        request: <Self::Catalogue as Catalogue>::Request,
        cx: CallContext,
    ) -> impl Future<Output = Result<<Self::Catalogue as Catalogue>::Response, ToolError>> + Send + 'static;

    /// Runs the handler of `request` at once when it is a plain function
    /// (not `async`) that takes no context, without building a future, and
    /// gives its outcome to `finish`; hands the request back otherwise.
    /// `#[tools]` implements it for such handlers, and the dispatcher
    /// answers `sync` calls through it first: most of what a small call
    /// costs is building and moving futures and large values, which
    /// `finish` spares the outcome (it is encoded where it is made).
    ///
    /// # Errors
    /// The request, when its handler is not answered this way.
    fn call_inline<T>(
        &self,
        request: <Self::Catalogue as Catalogue>::Request,
        finish: impl FnOnce(Result<<Self::Catalogue as Catalogue>::Response, ToolError>) -> T,
    ) -> Result<T, <Self::Catalogue as Catalogue>::Request> {
        let _ = finish;
        Err(request)
    }

    /// Answers a MsgPack call straight from its bytes when its handler is a
    /// plain function that takes no context and its tool is `sync`:
    /// decodes the handler's own request struct from the rest of the map
    /// and encodes the outcome, building neither catalogue enum. Hands the
    /// call back otherwise. `#[tools]` implements it; the dispatcher's
    /// [`call_msgpack`](crate::Dispatcher::call_msgpack) tries it first.
    ///
    /// # Errors
    /// The call, when its handler is not answered this way.
    #[doc(hidden)]
    fn call_inline_msgpack<'a, 'de>(
        &self,
        call: crate::dispatcher::MsgpackCall<'a, 'de>,
    ) -> Result<crate::dispatcher::InlineAnswer, crate::dispatcher::MsgpackCall<'a, 'de>> {
        Err(call)
    }

    /// Answers an entry's request: reads a resource, gets a prompt or
    /// completes an argument (see [`crate::entry`]). `#[tools]` implements
    /// it from the block's `#[resource]`, `#[prompt]` and `#[complete]`
    /// methods, checking the entry's scopes first; by default every entry
    /// is `UNKNOWN_ENTRY`.
    fn entry(
        service: &Arc<Self>,
        call: EntryCall,
        cx: CallContext,
    ) -> impl Future<Output = Result<EntryAnswer, ToolError>> + Send + 'static {
        let _ = (service, cx);
        std::future::ready(Err(call.unknown()))
    }
}
