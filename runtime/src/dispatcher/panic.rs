//! Turning a panicking handler into an `INTERNAL` error instead of a dead
//! task or a dead connection.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use pin_project_lite::pin_project;

use crate::ToolError;

pin_project! {
    /// A handler's future that answers a panic in any of its polls with an
    /// `INTERNAL` error naming the tool and carrying the panic message.
    ///
    /// A struct rather than an `async fn` so that it holds the handler's
    /// future once: `sync` calls build and move it on every call, and its
    /// size is most of what they copy.
    pub(crate) struct CatchPanic<F, N> {
        tool: N,
        #[pin]
        handler: F,
    }
}

impl<F, N> CatchPanic<F, N> {
    /// `handler`, whose panic is reported as the panic of `tool`'s
    /// handler (a tool's name; an entry's `resource `name``).
    pub(crate) fn new(tool: N, handler: F) -> Self {
        CatchPanic { tool, handler }
    }
}

impl<T, F, N> Future for CatchPanic<F, N>
where
    F: Future<Output = Result<T, ToolError>>,
    N: AsRef<str>,
{
    type Output = Result<T, ToolError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        // A handler that panicked is never polled again (the caller gets
        // `Ready` and drops it), so whatever state the panic left behind is
        // never observed: asserting unwind safety is sound.
        match catch_unwind(AssertUnwindSafe(|| this.handler.poll(cx))) {
            Ok(poll) => poll,
            Err(payload) => Poll::Ready(Err(panicked(this.tool.as_ref(), payload.as_ref()))),
        }
    }
}

pub(crate) fn panicked(tool: &str, payload: &(dyn Any + Send)) -> ToolError {
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)");
    ToolError::internal(format!("the handler of `{tool}` panicked: {message}"))
}
