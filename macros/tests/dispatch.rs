//! End to end: `#[tools]` blocks bound to the test catalogue (generated from
//! `support/catalogue.tool`), called through `Service::call` as the
//! dispatcher calls them.

use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;
use toolwright::codec::Limits;
use toolwright::{CallContext, CallSink, Context, Service, ToolError, codes};

include!("support/catalogue.rs");

/// Binds every tool: async and sync handlers, a tool without a request, one
/// without a response, and a streaming one with a context.
struct Studio {
    playing: Mutex<bool>,
}

#[toolwright::tools]
impl Studio {
    #[tool]
    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        let result = request
            .a
            .checked_add(request.b)
            .ok_or(MathError::Overflow {})?;
        Ok(MathResult { result })
    }

    #[tool(name = "multiply")]
    fn times(&self, request: MathOperands) -> Result<MathResult, MathError> {
        let result = request
            .a
            .checked_mul(request.b)
            .ok_or(MathError::Overflow {})?;
        Ok(MathResult { result })
    }

    #[tool]
    async fn garden_status(&self) -> Result<GardenStatus, ToolError> {
        Ok(GardenStatus {
            playing: self.is_playing(),
            tempo_bpm: 120.0,
        })
    }

    #[toolwright::tool]
    async fn garden_play(&self) -> Result<(), GardenError> {
        let mut playing = self.playing.lock().map_err(|_| GardenError::NoDevice {})?;
        if *playing {
            return Err(GardenError::NoDevice {});
        }
        *playing = true;
        Ok(())
    }

    #[tool]
    async fn transfer(
        &self,
        request: TransferRequest,
        cx: Context<TransferProgress>,
    ) -> Result<TransferResponse, ToolError> {
        let bytes = request.uri.len() as u64;
        for done in 1..=bytes {
            cx.send(&TransferProgress { done })?;
        }
        Ok(TransferResponse { bytes })
    }

    // Not a handler: `#[tools]` leaves other methods alone.
    fn is_playing(&self) -> bool {
        self.playing.lock().map(|p| *p).unwrap_or(false)
    }
}

/// Binds one tool and answers the others `NOT_IMPLEMENTED`.
struct Partial;

#[toolwright::tools(not_implemented)]
impl Partial {
    #[tool]
    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a + request.b,
        })
    }
}

/// Binds every tool but the two it lists, which answer `NOT_IMPLEMENTED`.
struct Listed;

#[toolwright::tools(not_implemented(garden_play, transfer))]
impl Listed {
    #[tool]
    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a + request.b,
        })
    }

    #[tool]
    async fn multiply(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a * request.b,
        })
    }

    #[tool]
    async fn garden_status(&self) -> Result<GardenStatus, ToolError> {
        Ok(GardenStatus {
            playing: true,
            tempo_bpm: 90.0,
        })
    }
}

/// Handlers under `#[cfg]`: one compiled out, one in.
struct Gated;

#[toolwright::tools(not_implemented)]
impl Gated {
    #[cfg(not(test))]
    #[tool]
    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a + request.b,
        })
    }

    #[tool]
    #[cfg(test)]
    async fn multiply(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a * request.b,
        })
    }
}

fn run<S: Service<Catalogue = ToolCatalogue>>(
    service: S,
    request: ToolRequest,
    cx: CallContext,
) -> Result<ToolResponse, ToolError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime");
    runtime.block_on(S::call(&Arc::new(service), request, cx))
}

fn studio() -> Studio {
    Studio {
        playing: Mutex::new(false),
    }
}

#[test]
fn a_request_reaches_its_handler() {
    let request = ToolRequest::Add(MathOperands { a: 2, b: 3 });
    let response = run(studio(), request, CallContext::detached());
    assert_eq!(response, Ok(ToolResponse::Add(MathResult { result: 5 })));
}

#[test]
fn a_sync_handler_bound_by_name() {
    let request = ToolRequest::Multiply(MathOperands { a: 4, b: 5 });
    let response = run(studio(), request, CallContext::detached());
    assert_eq!(
        response,
        Ok(ToolResponse::Multiply(MathResult { result: 20 }))
    );
}

#[test]
fn a_tool_without_request() {
    let response = run(studio(), ToolRequest::GardenStatus, CallContext::detached());
    let status = GardenStatus {
        playing: false,
        tempo_bpm: 120.0,
    };
    assert_eq!(response, Ok(ToolResponse::GardenStatus(status)));
}

#[test]
fn a_tool_without_response() {
    let response = run(studio(), ToolRequest::GardenPlay, CallContext::detached());
    assert_eq!(response, Ok(ToolResponse::GardenPlay));
}

#[test]
fn a_typed_error_becomes_a_tool_error() {
    let request = ToolRequest::Add(MathOperands { a: i64::MAX, b: 1 });
    let error = run(studio(), request, CallContext::detached()).unwrap_err();
    assert_eq!(error.code, "OVERFLOW");
    assert_eq!(
        error.message,
        "The result does not fit in a signed 64-bit integer."
    );
    assert_eq!(error.details, Some(serde_json::json!({"overflow": {}})));
}

#[test]
fn a_unit_response_tool_can_fail() {
    let studio = studio();
    *studio.playing.lock().unwrap() = true;
    let error = run(studio, ToolRequest::GardenPlay, CallContext::detached()).unwrap_err();
    assert_eq!(error.code, "NO_DEVICE");
}

/// Collects what a call reports.
#[derive(Default)]
struct Chunks(Mutex<Vec<(u64, Vec<u8>)>>);

impl CallSink for Chunks {
    fn progress(&self, _fraction: f32) {}

    fn chunk(&self, seq: u64, msgpack: Vec<u8>) {
        self.0.lock().unwrap().push((seq, msgpack));
    }
}

#[test]
fn a_context_reaches_the_handler() {
    let sink = Arc::new(Chunks::default());
    let cx = CallContext::new(None, CancellationToken::new(), Some(sink.clone()));
    let request = ToolRequest::Transfer(TransferRequest { uri: "abc".into() });
    let response = run(studio(), request, cx);
    assert_eq!(
        response,
        Ok(ToolResponse::Transfer(TransferResponse { bytes: 3 }))
    );
    let chunks = sink.0.lock().unwrap();
    let seqs: Vec<u64> = chunks.iter().map(|(seq, _)| *seq).collect();
    assert_eq!(seqs, [0, 1, 2]);
    let last: TransferProgress =
        toolwright::codec::from_msgpack(&chunks[2].1, Limits::default()).unwrap();
    assert_eq!(last, TransferProgress { done: 3 });
}

#[test]
fn unbound_tools_answer_not_implemented() {
    let response = run(Partial, ToolRequest::GardenStatus, CallContext::detached());
    assert_eq!(response, Err(ToolError::not_implemented("garden_status")));
    let request = ToolRequest::Multiply(MathOperands { a: 1, b: 1 });
    let error = run(Partial, request, CallContext::detached()).unwrap_err();
    assert_eq!(error.code, codes::NOT_IMPLEMENTED);
    let request = ToolRequest::Add(MathOperands { a: 1, b: 1 });
    let response = run(Partial, request, CallContext::detached());
    assert_eq!(response, Ok(ToolResponse::Add(MathResult { result: 2 })));
}

#[test]
fn the_service_names_the_tools_it_does_not_serve() {
    assert_eq!(<Listed as Service>::NOT_SERVED, ["garden_play", "transfer"]);
    // `not_implemented` for every tool without a handler; `multiply`'s is
    // compiled in, `add`'s out.
    assert!(<Gated as Service>::NOT_SERVED.contains(&"add"));
    assert!(!<Gated as Service>::NOT_SERVED.contains(&"multiply"));
    assert!(<Partial as Service>::NOT_SERVED.contains(&"multiply"));
    assert!(!<Partial as Service>::NOT_SERVED.contains(&"add"));
}

#[test]
fn listed_tools_answer_not_implemented() {
    let response = run(Listed, ToolRequest::GardenPlay, CallContext::detached());
    assert_eq!(response, Err(ToolError::not_implemented("garden_play")));
    let request = ToolRequest::Transfer(TransferRequest { uri: "abc".into() });
    let error = run(Listed, request, CallContext::detached()).unwrap_err();
    assert_eq!(error.code, codes::NOT_IMPLEMENTED);
    // The tools it does not list are bound as usual.
    let request = ToolRequest::Multiply(MathOperands { a: 3, b: 4 });
    let response = run(Listed, request, CallContext::detached());
    assert_eq!(
        response,
        Ok(ToolResponse::Multiply(MathResult { result: 12 }))
    );
    let response = run(Listed, ToolRequest::GardenStatus, CallContext::detached());
    let status = GardenStatus {
        playing: true,
        tempo_bpm: 90.0,
    };
    assert_eq!(response, Ok(ToolResponse::GardenStatus(status)));
}

#[test]
fn job_tools_are_left_to_the_dispatcher() {
    let request = ToolRequest::JobStatus(JobRef {
        job_id: "job_1".into(),
    });
    let error = run(studio(), request, CallContext::detached()).unwrap_err();
    assert_eq!(error.code, codes::INTERNAL);
    assert_eq!(error.message, "job tools are answered by the dispatcher");
}

#[test]
fn a_handler_compiled_out_answers_not_implemented() {
    let request = ToolRequest::Add(MathOperands { a: 2, b: 3 });
    let response = run(Gated, request, CallContext::detached());
    assert_eq!(response, Err(ToolError::not_implemented("add")));
    let request = ToolRequest::Multiply(MathOperands { a: 2, b: 3 });
    let response = run(Gated, request, CallContext::detached());
    assert_eq!(
        response,
        Ok(ToolResponse::Multiply(MathResult { result: 6 }))
    );
}
