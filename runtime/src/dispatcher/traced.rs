//! The handler's span around a call answered inline (feature `otel`);
//! handlers run as futures and jobs get theirs where they are run
//! (`policy.rs`, `runner.rs`).

use super::{Dispatcher, RequestOf, ResponseOf, envelope};
use crate::port::CallOptions;
use crate::{Catalogue, ResponseEnvelope, Service, ToolTiming, Validate};

impl<S: Service> Dispatcher<S> {
    /// [`Dispatcher::answer_inline`] with the handler inside its span, a child of
    /// the call's, for a call it may answer inline.
    pub(super) fn answer_inline_traced(
        &self,
        request: RequestOf<S>,
        options: &CallOptions,
    ) -> Result<ResponseEnvelope<ResponseOf<S>>, RequestOf<S>> {
        // Validated first, as `answer_inline` does: what goes on unanswered
        // is called as valid.
        if let Err(violation) = request.validate() {
            return Ok(envelope(Err(violation.into())));
        }
        let info = S::Catalogue::call_info(&request);
        // What `answer_inline` hands back unanswered gets its span where
        // it is answered: no span here for a handler that does not run.
        if info.timing != ToolTiming::Sync || info.tool.builtin {
            return Err(request);
        }
        let span = crate::otel::handler_span(options.span.as_ref(), info.tool.name);
        let answered = span.in_scope(|| self.answer_valid_inline(request, envelope));
        if let Ok(envelope) = &answered {
            crate::otel::record(&span, envelope);
        }
        answered
    }
}
