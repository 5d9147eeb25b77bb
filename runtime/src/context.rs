//! What a running handler may observe and send: cancellation, progress,
//! stream chunks.

use std::marker::PhantomData;
use std::sync::Arc;

use serde::Serialize;
use tokio_util::sync::CancellationToken;

/// A sink for what a running call reports. The dispatcher gives each call
/// one; transports forward what arrives (HOOT01 Reply frames, MCP progress
/// notifications, IOPub events).
pub trait CallSink: Send + Sync + 'static {
    /// Progress between 0 and 1.
    fn progress(&self, fraction: f32);
    /// One stream chunk, already encoded as MsgPack, with its sequence number.
    fn chunk(&self, seq: u64, msgpack: Vec<u8>);
}

/// The untyped context of one call, made by the dispatcher.
///
/// Clones share the cancellation token, the sink and the chunk numbering.
#[derive(Clone)]
pub struct CallContext {
    job_id: Option<Arc<str>>,
    // `None` for a detached call: the dispatcher answers `sync` calls with
    // one each, and making one must cost no allocation.
    token: Option<CancellationToken>,
    sink: Option<Arc<dyn CallSink>>,
    /// The next chunk's number; only kept when there is a sink to number
    /// chunks for.
    seq: Option<Arc<std::sync::atomic::AtomicU64>>,
}

impl std::fmt::Debug for CallContext {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallContext")
            .field("job_id", &self.job_id)
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}

impl CallContext {
    /// A context for a call that is not a job, cannot be cancelled and
    /// reports nowhere. Allocates nothing.
    pub fn detached() -> Self {
        CallContext {
            job_id: None,
            token: None,
            sink: None,
            seq: None,
        }
    }

    /// A context with a job id, a cancellation token and a sink.
    pub fn new(
        job_id: Option<Arc<str>>,
        token: CancellationToken,
        sink: Option<Arc<dyn CallSink>>,
    ) -> Self {
        let seq = sink.as_ref().map(|_| Arc::default());
        CallContext {
            job_id,
            token: Some(token),
            sink,
            seq,
        }
    }

    /// The job this call runs as, if it runs as one.
    pub fn job_id(&self) -> Option<&str> {
        self.job_id.as_deref()
    }

    /// The token cancelled when the caller cancels the call; `None` for a
    /// [`detached`](Self::detached) call, which nothing can cancel.
    pub fn token(&self) -> Option<&CancellationToken> {
        self.token.as_ref()
    }

    /// True once the call has been cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.token
            .as_ref()
            .is_some_and(CancellationToken::is_cancelled)
    }

    /// Resolves when the call is cancelled; never, for a detached call.
    pub async fn cancelled(&self) {
        match &self.token {
            Some(token) => token.cancelled().await,
            None => std::future::pending().await,
        }
    }
}

/// What a handler receives next to its request: cancellation, progress, and
/// (for `stream` tools) a typed chunk sender. `C` is the tool's chunk type.
#[derive(Clone, Debug)]
pub struct Context<C = ()> {
    inner: CallContext,
    _chunk: PhantomData<fn(C)>,
}

impl<C: Serialize> Context<C> {
    /// Wraps the dispatcher's context.
    pub fn new(inner: CallContext) -> Self {
        Context {
            inner,
            _chunk: PhantomData,
        }
    }

    /// The job this call runs as, if it runs as one.
    pub fn job_id(&self) -> Option<&str> {
        self.inner.job_id()
    }

    /// True once the call has been cancelled. Long loops check it between
    /// steps; a handler that never looks is aborted at its next `.await`.
    pub fn is_cancelled(&self) -> bool {
        self.inner.is_cancelled()
    }

    /// Resolves when the call is cancelled; use it in `tokio::select!`.
    pub async fn cancelled(&self) {
        self.inner.cancelled().await;
    }

    /// Reports progress between 0 and 1 (clamped).
    pub fn progress(&self, fraction: f32) {
        if let Some(sink) = &self.inner.sink {
            let fraction = if fraction.is_nan() {
                0.0
            } else {
                fraction.clamp(0.0, 1.0)
            };
            sink.progress(fraction);
        }
    }

    /// Sends one stream chunk. Chunks are numbered from 0 in the order sent.
    ///
    /// # Errors
    /// When the chunk cannot be encoded as MsgPack (a map with non-string
    /// keys in a `json` value, say).
    pub fn send(&self, chunk: &C) -> Result<(), crate::ToolError> {
        let bytes = crate::codec::to_msgpack(chunk)?;
        if let (Some(sink), Some(seq)) = (&self.inner.sink, &self.inner.seq) {
            let seq = seq.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            sink.chunk(seq, bytes);
        }
        Ok(())
    }

    /// The untyped context.
    pub fn untyped(&self) -> &CallContext {
        &self.inner
    }
}
