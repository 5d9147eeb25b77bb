//! The timing policy, in one place: how each call is answered by its timing
//! class, how long a job is waited for, what cancelling a call does, and
//! when a caller's stream starts and ends. Every transport reaches it
//! through the call port.

use std::time::Duration;

use super::panic::CatchPanic;
use super::sink::StreamTo;
use super::{Dispatcher, RequestOf, ResponseOf, envelope, job_started, paging, runner};
use crate::port::{CallOptions, StreamEvent};
use crate::{CallContext, CallInfo, Catalogue, ResponseEnvelope, Service, ToolError, ToolTiming};

impl<S: Service> Dispatcher<S> {
    /// Answers a call as its timing class and `options` say.
    pub(super) async fn answer(
        &self,
        request: RequestOf<S>,
        info: CallInfo,
        options: CallOptions,
    ) -> ResponseEnvelope<ResponseOf<S>> {
        // Doors check scopes before they call; checked again here, so a
        // principal that reached the port by another way (a HOOT01 call
        // body, a call made in code) is held to the same rule.
        if let Some(Err(e)) = options.principal.as_deref().map(|p| p.may_call(info.tool)) {
            return ResponseEnvelope::Error(e);
        }
        let request = if info.tool.builtin {
            match S::Catalogue::into_job_call(request) {
                Ok(call) => {
                    return tokio::select! {
                        answer = self.answer_job_call(call, options.owner.as_ref()) => answer,
                        () = options.cancelled() => cancelled(info),
                    };
                }
                Err(request) => request,
            }
        } else {
            request
        };
        if !info.timing.is_job() {
            let mut request = request;
            let scope = match paging::open::<S>(&self.inner.config, &mut request) {
                Ok(scope) => scope,
                Err(e) => return ResponseEnvelope::Error(e),
            };
            let cx = CallContext::detached()
                .with_caller(options.caller.clone())
                .with_principal(options.principal.clone());
            let handler = CatchPanic::new(
                info.tool.name,
                paging::call(&self.inner.service, request, cx, scope),
            );
            #[cfg(feature = "otel")]
            let handler = crate::otel::handler(options.span.clone(), info.tool.name, handler);
            // No job to cancel: dropping the handler's future stops it at
            // its next `.await`.
            return tokio::select! {
                outcome = handler => envelope(outcome),
                () = options.cancelled() => cancelled(info),
            };
        }
        let budget = options.wait.unwrap_or_else(|| self.budget(info.timing));
        self.run_job(request, info, budget, options).await
    }

    /// How long a call of this timing class is waited for by default.
    fn budget(&self, timing: ToolTiming) -> Duration {
        match timing {
            ToolTiming::AsyncShort => self.config().short_wait,
            ToolTiming::AsyncMedium => self.config().medium_wait,
            _ => Duration::ZERO,
        }
    }

    /// A call that runs as a job: its answer if it ends within `budget`,
    /// else its handle.
    async fn run_job(
        &self,
        request: RequestOf<S>,
        info: CallInfo,
        budget: Duration,
        options: CallOptions,
    ) -> ResponseEnvelope<ResponseOf<S>> {
        let waits = !budget.is_zero();
        // A caller that is not waited for gets no stream: it has its answer
        // (the handle) before the first chunk could reach it.
        let stream = options
            .stream
            .clone()
            .filter(|_| waits)
            .map(StreamTo::Events);
        let requester = runner::Requester::of(&options);
        let job = match runner::spawn(&self.inner, request, info, waits, stream, requester).await {
            Ok(job) => job,
            Err(e) => return ResponseEnvelope::Error(e),
        };
        let Some(mut waiter) = job.waiter else {
            return job_started(&job.job_id, info);
        };
        let expired = tokio::time::sleep(budget);
        tokio::pin!(expired);
        tokio::select! {
            outcome = &mut waiter => {
                let Ok(outcome) = outcome else {
                    // The store dropped the waiter without an outcome:
                    // nothing to give but the id.
                    job.sink.close();
                    return job_started(&job.job_id, info);
                };
                // Closed under the lock that forwards chunks: the count is
                // final, and no chunk follows the end.
                if let Some((stream, chunks)) = job.sink.close() {
                    stream.send(StreamEvent::End { job_id: job.job_id.to_string(), chunks });
                }
                envelope(outcome)
            }
            () = &mut expired => {
                job.sink.close();
                if self.inner.jobs.detach_waiter(&job.job_id) {
                    return job_started(&job.job_id, info);
                }
                // It finished as the budget ran out: the outcome is on its
                // way to us (once the store has the job's end), not kept.
                match waiter.await {
                    Ok(outcome) => envelope(outcome),
                    Err(_) => job_started(&job.job_id, info),
                }
            }
            () = options.cancelled() => {
                job.sink.close();
                // The handler sees its token at once; this returns when it
                // has stopped or the grace has run out.
                let _ = self.inner.jobs.cancel(&job.job_id).await;
                cancelled(info)
            }
        }
    }
}

/// The answer to a call its caller cancelled.
fn cancelled<R>(info: CallInfo) -> ResponseEnvelope<R> {
    ResponseEnvelope::Error(ToolError::cancelled(format!(
        "the call of `{}` was cancelled by its caller",
        info.tool.name
    )))
}
