//! The handlers of the test catalogue, and the `Service` impl written the
//! way `#[tools]` expands it (macros/src/emit.rs).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use tokio::sync::Notify;
use toolwright::__private::{Arc, Future, InlineAnswer, MsgpackCall, Result as PrivateResult};
use toolwright::caller::{LogLevel, SamplingRequest};
use toolwright::{CallContext, Context, IntoToolError, Service, Tool, ToolError, ToolTiming};

use super::catalogue::*;

/// The answer `chat` asks its caller's user for.
#[derive(serde::Deserialize)]
struct Named {
    name: String,
}

/// What the handlers report to the tests.
#[derive(Default)]
pub struct Probes {
    /// Tools whose handler has started, in order.
    started: Mutex<Vec<&'static str>>,
    started_signal: Notify,
    /// When `generate` saw its cancellation.
    pub cancel_seen: Mutex<Option<Instant>>,
    /// When `stubborn`'s handler was dropped.
    pub stubborn_dropped: Mutex<Option<Instant>>,
    /// Whom each `launch` ran for: its principal's subject, if any.
    pub launched_for: Mutex<Vec<Option<String>>>,
}

impl Probes {
    fn start(&self, tool: &'static str) {
        self.started.lock().expect("probe lock").push(tool);
        self.started_signal.notify_waiters();
    }

    /// Waits until the handler of `tool` has started `n` times in all.
    pub async fn started(&self, tool: &str, n: usize) {
        loop {
            let signal = self.started_signal.notified();
            let count = self
                .started
                .lock()
                .expect("probe lock")
                .iter()
                .filter(|t| **t == tool)
                .count();
            if count >= n {
                return;
            }
            signal.await;
        }
    }
}

/// The service under test.
#[derive(Default)]
pub struct Studio {
    pub probes: Probes,
}

impl Studio {
    // A plain function: the dispatcher answers it without a future.
    fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        let result = request
            .a
            .checked_add(request.b)
            .ok_or(MathError::Overflow {})?;
        Ok(MathResult { result })
    }

    fn echo(&self, request: Echo) -> Result<Echo, ToolError> {
        Ok(request)
    }

    fn scale(&self, request: ScaleRequest) -> Result<ScaleResponse, ToolError> {
        Ok(ScaleResponse {
            factor: request.factor,
        })
    }

    async fn crash(&self) -> Result<(), ToolError> {
        panic!("the crash tool always panics")
    }

    fn crash_now(&self) -> Result<(), ToolError> {
        panic!("the crash_now tool always panics")
    }

    async fn sleep(&self, request: DelayRequest) -> Result<SleepResponse, ToolError> {
        self.probes.start("sleep");
        tokio::time::sleep(Duration::from_millis(request.ms)).await;
        Ok(SleepResponse {
            slept_ms: request.ms,
        })
    }

    async fn render(&self, request: DelayRequest) -> Result<RenderResponse, ToolError> {
        tokio::time::sleep(Duration::from_millis(request.ms)).await;
        Ok(RenderResponse {
            frames: u32::try_from(request.ms / 10).unwrap_or(u32::MAX),
        })
    }

    async fn generate(
        &self,
        request: GenerateRequest,
        cx: Context<GenerationChunk>,
    ) -> Result<GenerateResponse, ToolError> {
        self.probes.start("generate");
        for n in 0..request.chunks {
            cx.send(&GenerationChunk::Step { n })?;
            cx.progress((n + 1) as f32 / request.chunks as f32);
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(request.interval_ms)) => {}
                () = cx.cancelled() => {
                    *self.probes.cancel_seen.lock().expect("probe lock") = Some(Instant::now());
                    return Err(ToolError::cancelled("generation stopped"));
                }
            }
        }
        Ok(GenerateResponse {
            sent: request.chunks,
        })
    }

    async fn stubborn(&self) -> Result<(), ToolError> {
        struct OnDrop<'a>(&'a Probes);
        impl Drop for OnDrop<'_> {
            fn drop(&mut self) {
                *self.0.stubborn_dropped.lock().expect("probe lock") = Some(Instant::now());
            }
        }
        let _on_drop = OnDrop(&self.probes);
        self.probes.start("stubborn");
        loop {
            // Never looks at its context: only dropping it stops it.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    async fn meltdown(&self) -> Result<(), ToolError> {
        tokio::task::yield_now().await;
        panic!("meltdown in a job")
    }

    async fn launch(&self, request: LaunchRequest) -> Result<(), LaunchError> {
        tokio::task::yield_now().await;
        if request.fail {
            return Err(LaunchError::EngineDown {
                reason: "no audio device".to_owned(),
            });
        }
        Ok(())
    }

    async fn chat(&self, request: ChatRequest, cx: Context) -> Result<ChatResponse, ToolError> {
        cx.log(LogLevel::Info, format!("asking about {}", request.prompt));
        cx.progress(0.25);
        let answer = cx
            .sample(SamplingRequest::new(request.prompt, 50))
            .await?
            .text;
        cx.progress(0.5);
        let schema = serde_json::json!({
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
        });
        let name = cx
            .elicit::<Named>("Who is asking?", schema)
            .await?
            .accepted()
            .map(|n| n.name);
        let roots = cx.roots().await?.into_iter().map(|r| r.uri).collect();
        cx.log(LogLevel::Debug, "done");
        Ok(ChatResponse {
            answer,
            name,
            roots,
        })
    }

    /// The position is the next number to count.
    fn count(&self, request: CountRequest) -> Result<CountResponse, ToolError> {
        let from: u32 = match request.cursor {
            Some(position) => position
                .parse()
                .map_err(|_| ToolError::internal(format!("not a position: {position}")))?,
            None => 1,
        };
        let end = request.to.min(from.saturating_add(request.per_page - 1));
        let numbers: Vec<u32> = (from..=end).collect();
        let paging = if request.lie {
            Paging {
                cursor: None,
                more: true,
            }
        } else if end < request.to {
            Paging::next((end + 1).to_string())
        } else {
            Paging::last()
        };
        Ok(CountResponse { numbers, paging })
    }

    async fn fs(&self, request: FsRequest) -> Result<FsResponse, ToolError> {
        match request {
            FsRequest::List(l) => {
                // Pages of two; the position is the index of the next file.
                let from: u32 = l.cursor.as_deref().map_or(Ok(0), str::parse).map_err(|_| {
                    ToolError::internal("the position is not the index the handler made")
                })?;
                let end = l.files.min(from + 2);
                Ok(FsResponse::List(FsListResponse {
                    names: (from..end).map(|i| format!("file{i}")).collect(),
                    paging: if end < l.files {
                        Paging::next(end.to_string())
                    } else {
                        Paging::last()
                    },
                }))
            }
            FsRequest::Read(r) => Ok(FsResponse::Read(FsReadResponse {
                text: format!("contents of {}", r.uri),
            })),
            FsRequest::Write(w) => {
                tokio::time::sleep(Duration::from_millis(w.ms)).await;
                Ok(FsResponse::Write(FsWriteResponse {
                    written: w.content.len() as u64,
                }))
            }
        }
    }
}

impl Service for Studio {
    type Catalogue = ToolCatalogue;

    fn call(
        service: &Arc<Self>,
        request: ToolRequest,
        cx: CallContext,
    ) -> impl Future<Output = PrivateResult<ToolResponse, ToolError>> + Send + 'static {
        let service = Arc::clone(service);
        async move {
            match request {
                ToolRequest::Add(request) => {
                    let result: PrivateResult<MathResult, MathError> =
                        <Studio>::add(&service, request);
                    result
                        .map(ToolResponse::Add)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::Echo(request) => {
                    let result: PrivateResult<Echo, ToolError> = <Studio>::echo(&service, request);
                    result
                        .map(ToolResponse::Echo)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::Crash => {
                    let result: PrivateResult<(), ToolError> = <Studio>::crash(&service).await;
                    result
                        .map(|()| ToolResponse::Crash)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::CrashNow => {
                    let result: PrivateResult<(), ToolError> = <Studio>::crash_now(&service);
                    result
                        .map(|()| ToolResponse::CrashNow)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::Sleep(request) => {
                    let result: PrivateResult<SleepResponse, ToolError> =
                        <Studio>::sleep(&service, request).await;
                    result
                        .map(ToolResponse::Sleep)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::Render(request) => {
                    let result: PrivateResult<RenderResponse, ToolError> =
                        <Studio>::render(&service, request).await;
                    result
                        .map(ToolResponse::Render)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::Generate(request) => {
                    let result: PrivateResult<GenerateResponse, ToolError> = <Studio>::generate(
                        &service,
                        request,
                        Context::<<GenerateTool as Tool>::Chunk>::new(cx),
                    )
                    .await;
                    result
                        .map(ToolResponse::Generate)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::Stubborn => {
                    let result: PrivateResult<(), ToolError> = <Studio>::stubborn(&service).await;
                    result
                        .map(|()| ToolResponse::Stubborn)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::Meltdown => {
                    let result: PrivateResult<(), ToolError> = <Studio>::meltdown(&service).await;
                    result
                        .map(|()| ToolResponse::Meltdown)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::Launch(request) => {
                    let principal = cx.principal().map(|p| p.subject().to_owned());
                    service
                        .probes
                        .launched_for
                        .lock()
                        .expect("probe lock")
                        .push(principal);
                    let result: PrivateResult<(), LaunchError> =
                        <Studio>::launch(&service, request).await;
                    result
                        .map(|()| ToolResponse::Launch)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::Chat(request) => {
                    let result: PrivateResult<ChatResponse, ToolError> =
                        <Studio>::chat(&service, request, Context::new(cx)).await;
                    result
                        .map(ToolResponse::Chat)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::Scale(request) => {
                    let result: PrivateResult<ScaleResponse, ToolError> =
                        <Studio>::scale(&service, request);
                    result
                        .map(ToolResponse::Scale)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::Count(request) => {
                    let result: PrivateResult<CountResponse, ToolError> =
                        <Studio>::count(&service, request);
                    result
                        .map(ToolResponse::Count)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::Fs(request) => {
                    let result: PrivateResult<FsResponse, ToolError> =
                        <Studio>::fs(&service, request).await;
                    result
                        .map(ToolResponse::Fs)
                        .map_err(IntoToolError::into_tool_error)
                }
                ToolRequest::JobStatus(_)
                | ToolRequest::JobList(_)
                | ToolRequest::JobPoll(_)
                | ToolRequest::JobCancel(_) => PrivateResult::Err(ToolError::internal(
                    "job tools are answered by the dispatcher",
                )),
            }
        }
    }

    fn call_inline<T>(
        &self,
        request: ToolRequest,
        finish: impl FnOnce(PrivateResult<ToolResponse, ToolError>) -> T,
    ) -> PrivateResult<T, ToolRequest> {
        let service = self;
        match request {
            ToolRequest::Add(request) => {
                let result: PrivateResult<MathResult, MathError> = <Studio>::add(service, request);
                Ok(finish(
                    result
                        .map(ToolResponse::Add)
                        .map_err(IntoToolError::into_tool_error),
                ))
            }
            ToolRequest::Echo(request) => {
                let result: PrivateResult<Echo, ToolError> = <Studio>::echo(service, request);
                Ok(finish(
                    result
                        .map(ToolResponse::Echo)
                        .map_err(IntoToolError::into_tool_error),
                ))
            }
            ToolRequest::CrashNow => {
                let result: PrivateResult<(), ToolError> = <Studio>::crash_now(service);
                Ok(finish(
                    result
                        .map(|()| ToolResponse::CrashNow)
                        .map_err(IntoToolError::into_tool_error),
                ))
            }
            other => Err(other),
        }
    }

    fn call_inline_msgpack<'a, 'de>(
        &self,
        call: MsgpackCall<'a, 'de>,
    ) -> PrivateResult<InlineAnswer, MsgpackCall<'a, 'de>> {
        let service = self;
        match call.tool() {
            "add" if matches!(<AddTool as Tool>::TIMING, ToolTiming::Sync) => {
                Ok(call.answer(|request: <AddTool as Tool>::Request| {
                    let result: PrivateResult<MathResult, MathError> =
                        <Studio>::add(service, request);
                    result
                        .map(ToolResponse::Add)
                        .map_err(IntoToolError::into_tool_error)
                }))
            }
            "echo" if matches!(<EchoTool as Tool>::TIMING, ToolTiming::Sync) => {
                Ok(call.answer(|request: <EchoTool as Tool>::Request| {
                    let result: PrivateResult<Echo, ToolError> = <Studio>::echo(service, request);
                    result
                        .map(ToolResponse::Echo)
                        .map_err(IntoToolError::into_tool_error)
                }))
            }
            "crash_now" if matches!(<CrashNowTool as Tool>::TIMING, ToolTiming::Sync) => Ok(call
                .answer_unit(|| {
                    let result: PrivateResult<(), ToolError> = <Studio>::crash_now(service);
                    result
                        .map(|()| ToolResponse::CrashNow)
                        .map_err(IntoToolError::into_tool_error)
                })),
            _ => Err(call),
        }
    }
}
