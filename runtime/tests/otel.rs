//! One trace per call inside the runtime: a caller's span crosses HOOT01
//! in frame 5, the worker's span is its child, and the handler's span (a
//! job's, for a call that runs as one) is the worker's.
#![cfg(all(feature = "otel", feature = "hoot"))]

mod support;

use opentelemetry::trace::{SpanId, TraceContextExt, TraceId, TracerProvider as _};
use opentelemetry_sdk::trace::{InMemorySpanExporter, SdkTracerProvider, SpanData};
use support::*;
use toolwright::DispatcherConfig;
use toolwright::hoot::{Client, ClientConfig, Server, ServerConfig};
use toolwright::port::{CallOptions, CallPort};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::layer::SubscriberExt;

fn named<'a>(spans: &'a [SpanData], name: &str) -> &'a SpanData {
    let found: Vec<_> = spans.iter().filter(|s| s.name == name).collect();
    assert_eq!(
        found.len(),
        1,
        "{name} in {:?}",
        spans.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    found[0]
}

// The whole test binary's subscriber: one test, so nothing else records.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_through_hoot01_is_one_trace_under_its_callers_span() {
    let exporter = InMemorySpanExporter::default();
    let provider = SdkTracerProvider::builder()
        .with_simple_exporter(exporter.clone())
        .build();
    let layer = tracing_opentelemetry::layer().with_tracer(provider.tracer("test"));
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer))
        .expect("the only subscriber");

    let server = Server::serve(
        dispatcher(DispatcherConfig::default()),
        ServerConfig::new("tcp://127.0.0.1:0"),
    )
    .expect("the server binds");
    let client = Client::<ToolCatalogue>::connect(&[server.endpoint()], ClientConfig::default())
        .expect("connect");
    assert!(client.ready(SOON).await);

    let caller = tracing::info_span!("caller");
    let caller_context = caller.context();
    let caller_ids = caller_context.span().span_context().clone();
    let add = ToolRequest::Add(MathOperands { a: 2, b: 40 });
    let options = CallOptions::default().in_span(caller.clone());
    assert!(matches!(
        client.call(encode(&add), options).await,
        Envelope::Success(_)
    ));
    // A call that runs as a job, waited for.
    let sleep = ToolRequest::Sleep(DelayRequest { ms: 1 });
    let options = CallOptions::default()
        .in_span(caller.clone())
        .wait_until_done();
    assert!(matches!(
        client.call(encode(&sleep), options).await,
        Envelope::Success(_)
    ));
    drop(caller);
    server.shutdown(SOON).await;
    provider.force_flush().expect("flushed");

    let spans = exporter.get_finished_spans().expect("the spans");
    let trace = caller_ids.trace_id();
    assert_ne!(trace, TraceId::INVALID);
    assert!(
        spans.iter().all(|s| s.span_context.trace_id() == trace),
        "{spans:#?}"
    );
    let workers: Vec<_> = spans
        .iter()
        .filter(|s| s.name.starts_with("worker "))
        .collect();
    assert_eq!(workers.len(), 2, "{spans:#?}");
    for worker in &workers {
        assert_eq!(worker.parent_span_id, caller_ids.span_id(), "{worker:#?}");
        assert!(worker.parent_span_is_remote, "{worker:#?}");
    }
    let add_worker = named(&spans, "worker add");
    let add_handler = named(&spans, "handler add");
    assert_eq!(
        add_handler.parent_span_id,
        add_worker.span_context.span_id()
    );
    let sleep_worker = named(&spans, "worker sleep");
    let job = named(&spans, "job sleep");
    assert_eq!(job.parent_span_id, sleep_worker.span_context.span_id());
    let sleep_handler = named(&spans, "handler sleep");
    assert_eq!(sleep_handler.parent_span_id, job.span_context.span_id());
    assert_ne!(sleep_handler.parent_span_id, SpanId::INVALID);
}
