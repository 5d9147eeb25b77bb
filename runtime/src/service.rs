//! `Service`: a set of handlers bound to a catalogue by `#[tools]`.

use std::future::Future;
use std::sync::Arc;

use crate::{CallContext, Catalogue, ServerCatalogue, ToolError};

/// Handlers for every tool of a catalogue. `#[tools]` implements it on the
/// type of the annotated impl block; the dispatcher calls it.
pub trait Service: Send + Sync + Sized + 'static {
    /// The catalogue the handlers serve.
    type Catalogue: ServerCatalogue;

    /// Runs the handler of one (non-job) request. The future owns what it
    /// needs, so the dispatcher can run it as a job.
    fn call(
        service: &Arc<Self>,
        request: <Self::Catalogue as Catalogue>::Request,
        cx: CallContext,
    ) -> impl Future<Output = Result<<Self::Catalogue as Catalogue>::Response, ToolError>> + Send + 'static;
}
