//! What a running handler may observe and send: cancellation, progress,
//! stream chunks, and what it may ask of its caller's client (log
//! messages, sampling, elicitation).

use std::marker::PhantomData;
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio_util::sync::CancellationToken;

use crate::ask::Ask;
use crate::caller::{Caller, Elicited, Form, LogLevel, Root, Sampled, SamplingRequest};
use crate::{Json, Principal, ToolError};

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
    /// The client that made the call, when its transport can reach it.
    caller: Option<Arc<dyn Caller>>,
    /// Who the call is made for, when its door authenticated them.
    principal: Option<Arc<Principal>>,
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
            caller: None,
            principal: None,
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
            caller: None,
            principal: None,
        }
    }

    /// The context with the client that made the call, which the
    /// handler's logs, progress, sampling and elicitation go to.
    #[must_use]
    pub fn with_caller(mut self, caller: Option<Arc<dyn Caller>>) -> Self {
        self.caller = caller;
        self
    }

    /// The client that made the call, when its transport can reach it.
    pub fn caller(&self) -> Option<&Arc<dyn Caller>> {
        self.caller.as_ref()
    }

    /// The context with who the call is made for.
    #[must_use]
    pub fn with_principal(mut self, principal: Option<Arc<Principal>>) -> Self {
        self.principal = principal;
        self
    }

    /// Who the call is made for, when its door authenticated them (see
    /// [`Principal`]).
    pub fn principal(&self) -> Option<&Principal> {
        self.principal.as_deref()
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

    /// Who the call is made for, when its door authenticated them: the
    /// subject, client and scopes of their credentials (see
    /// [`Principal`]). `None` on a door without authentication.
    pub fn principal(&self) -> Option<&Principal> {
        self.inner.principal()
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

    /// Reports progress between 0 and 1 (clamped): to the job, and to the
    /// client while it waits for the answer.
    pub fn progress(&self, fraction: f32) {
        let fraction = if fraction.is_nan() {
            0.0
        } else {
            fraction.clamp(0.0, 1.0)
        };
        if let Some(sink) = &self.inner.sink {
            sink.progress(fraction);
        }
        if let Some(caller) = &self.inner.caller {
            caller.progress(fraction);
        }
    }

    /// Sends a log message to the client, when it takes messages of
    /// `level` (MCP: `notifications/message`, filtered by the session's
    /// `logging/setLevel`). Goes nowhere when the call's transport cannot
    /// reach its client.
    pub fn log(&self, level: LogLevel, message: impl Into<String>) {
        if let Some(caller) = &self.inner.caller {
            caller.log(level, None, Json::String(message.into()));
        }
    }

    /// As [`log`](Self::log), with structured data and the name of the
    /// logger it comes from.
    pub fn log_data(&self, level: LogLevel, logger: &str, data: Json) {
        if let Some(caller) = &self.inner.caller {
            caller.log(level, Some(logger), data);
        }
    }

    /// Asks the client's model for a completion (MCP sampling); see
    /// [`Ask::sample`].
    ///
    /// # Errors
    /// As [`Ask::sample`].
    pub async fn sample(&self, request: SamplingRequest) -> Result<Sampled, ToolError> {
        Ask::new(&self.inner, None).sample(request).await
    }

    /// Asks the client's user for input (MCP elicitation): `schema` is the
    /// flat JSON Schema object of what to ask, `message` says why. The
    /// answer, when given, is decoded as `T`. See [`Ask::elicit`].
    ///
    /// # Errors
    /// As [`Ask::elicit`].
    pub async fn elicit<T: DeserializeOwned>(
        &self,
        message: impl Into<String>,
        schema: Json,
    ) -> Result<Elicited<T>, ToolError> {
        Ask::new(&self.inner, None).elicit(message, schema).await
    }

    /// Asks the client for its roots (MCP `roots/list`). See
    /// [`Ask::roots`].
    ///
    /// # Errors
    /// As [`Ask::roots`].
    pub async fn roots(&self) -> Result<Vec<Root>, ToolError> {
        Ask::new(&self.inner, None).roots().await
    }

    /// A question to the client under `key`, which names it where the
    /// client answers questions by name (MCP 2026-07-28; see [`Ask`]):
    /// `cx.ask("user_name").elicit(message, schema)`.
    pub fn ask<'a>(&'a self, key: &'a str) -> Ask<'a> {
        Ask::new(&self.inner, Some(key))
    }

    /// Closes the connection the answer would go on and tells the client
    /// to reconnect after `retry` (MCP Streamable HTTP's SSE polling): a
    /// call that runs for minutes need not hold a connection, and the
    /// client resumes the stream, with everything sent meanwhile, when it
    /// reconnects. The answer waits for the client to be back. `false`, and
    /// nothing closed, where the call's transport has no such stream
    /// (stdio, stateless HTTP, HOOT01, the web routes) or it has ended.
    pub async fn close_stream(&self, retry: std::time::Duration) -> bool {
        match &self.inner.caller {
            Some(caller) => caller.close_stream(retry).await.unwrap_or(false),
            None => false,
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

    /// Asks the client's user to fill in the `@form` struct `T`, whose
    /// requested schema the generated code carries (MCP elicitation). See
    /// [`Ask::elicit_form`].
    ///
    /// # Errors
    /// As [`Ask::elicit`].
    pub async fn elicit_form<T: Form>(
        &self,
        message: impl Into<String>,
    ) -> Result<Elicited<T>, ToolError> {
        Ask::new(&self.inner, None).elicit_form(message).await
    }

    /// The untyped context.
    pub fn untyped(&self) -> &CallContext {
        &self.inner
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::caller::CallerFuture;
    use crate::codes;

    /// A client that records what it is told and answers every question.
    #[derive(Debug, Default)]
    struct Recorder {
        told: Mutex<Vec<String>>,
    }

    impl Caller for Recorder {
        fn log(&self, level: LogLevel, logger: Option<&str>, data: Json) {
            let line = format!("{level:?} {logger:?} {data}");
            self.told.lock().unwrap().push(line);
        }

        fn progress(&self, fraction: f32) {
            self.told
                .lock()
                .unwrap()
                .push(format!("progress {fraction}"));
        }

        fn sample(&self, _key: Option<&str>, request: SamplingRequest) -> CallerFuture<Sampled> {
            let text = format!("re: {}", request.messages[0].text);
            Box::pin(async move { Ok(Sampled::new(text, "model")) })
        }

        fn elicit(
            &self,
            _key: Option<&str>,
            message: String,
            _schema: Json,
        ) -> CallerFuture<Elicited<Json>> {
            Box::pin(async move { Ok(Elicited::Accepted(serde_json::json!({ "name": message }))) })
        }
    }

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Named {
        name: String,
    }

    #[derive(Debug, serde::Deserialize)]
    struct Numbered {
        #[allow(dead_code)] // only decoded, to fail
        number: u32,
    }

    fn with(recorder: &Arc<Recorder>) -> Context {
        let caller: Arc<dyn Caller> = recorder.clone();
        Context::new(CallContext::detached().with_caller(Some(caller)))
    }

    #[tokio::test]
    async fn a_context_without_a_caller_refuses_questions_and_drops_logs() {
        let cx: Context = Context::new(CallContext::detached());
        cx.log(LogLevel::Error, "nobody hears this");
        cx.progress(0.5);
        let e = cx.sample(SamplingRequest::new("hi", 10)).await.unwrap_err();
        assert_eq!(e.code, codes::UNSUPPORTED);
        let e = cx
            .elicit::<Named>("who?", serde_json::json!({}))
            .await
            .unwrap_err();
        assert_eq!(e.code, codes::UNSUPPORTED);
        assert!(e.message.contains("elicitation"), "{e}");
    }

    #[tokio::test]
    async fn a_context_with_a_caller_reaches_it() {
        let recorder = Arc::new(Recorder::default());
        let cx = with(&recorder);
        cx.log(LogLevel::Warning, "careful");
        cx.log_data(LogLevel::Debug, "tuner", serde_json::json!({"hz": 440}));
        cx.progress(f32::NAN);
        cx.progress(7.0);
        let sampled = cx.sample(SamplingRequest::new("hi", 10)).await.unwrap();
        assert_eq!(sampled.text, "re: hi");
        let named = cx.elicit::<Named>("ada", serde_json::json!({})).await;
        assert_eq!(
            named.unwrap(),
            Elicited::Accepted(Named { name: "ada".into() })
        );
        assert_eq!(
            *recorder.told.lock().unwrap(),
            [
                r#"Warning None "careful""#,
                r#"Debug Some("tuner") {"hz":440}"#,
                "progress 0",
                "progress 1",
            ]
        );
    }

    #[tokio::test]
    async fn input_that_does_not_decode_is_invalid() {
        let recorder = Arc::new(Recorder::default());
        let e = with(&recorder)
            .elicit::<Numbered>("ada", serde_json::json!({}))
            .await
            .unwrap_err();
        assert_eq!(e.code, codes::INVALID_REQUEST);
        assert!(e.message.contains("does not decode"), "{e}");
    }
}
