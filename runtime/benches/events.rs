//! What tracing a call for the event feed costs the call: `add` through
//! the dispatcher as a port answers it (MsgPack in, envelope out), with
//! nobody listening; with one subscriber that reads nothing (every send
//! evicts the oldest event); and with the web feed's windowed follower
//! whose window is full (as it is between its takes on a busy server: the
//! call is counted, not traced). The differences are the hub's work per
//! call.
//!
//! `cargo bench -p toolwright --bench events`

#[path = "../tests/support/catalogue.rs"]
#[allow(dead_code, clippy::all, clippy::pedantic)]
mod catalogue;
#[path = "../tests/support/service.rs"]
#[allow(dead_code)]
mod service;

use std::hint::black_box;

use catalogue::{MathOperands, ToolRequest};
use criterion::{Criterion, criterion_group, criterion_main};
use service::Studio;
use toolwright::port::{CallOptions, CallPort};
use toolwright::{Dispatcher, DispatcherConfig, ResponseEnvelope, codec};

fn calls(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let dispatcher = Dispatcher::with_config(Studio::default(), DispatcherConfig::default());
    let request = codec::to_msgpack(&ToolRequest::Add(MathOperands { a: 2, b: 40 }))
        .expect("the request encodes");
    let call = || async {
        let answer = CallPort::call(&dispatcher, request.clone(), CallOptions::default()).await;
        assert!(matches!(answer, ResponseEnvelope::Success(_)));
        black_box(answer);
    };
    let mut group = c.benchmark_group("events");
    group.bench_function("call add, nobody listening", |b| {
        b.iter(|| runtime.block_on(call()));
    });
    let subscriber = dispatcher.events().subscribe();
    group.bench_function("call add, one subscriber", |b| {
        b.iter(|| runtime.block_on(call()));
    });
    drop(subscriber);
    let follower = dispatcher.events().windowed(0);
    group.bench_function("call add, a windowed follower's window full", |b| {
        b.iter(|| runtime.block_on(call()));
    });
    assert!(follower.take().skipped > 0, "the calls were not counted");
    group.finish();
}

criterion_group!(benches, calls);
criterion_main!(benches);
