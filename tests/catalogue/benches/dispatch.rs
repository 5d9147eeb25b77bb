//! `dispatch`: MsgPack bytes in → typed dispatch → MsgPack bytes out, for a
//! small, a medium and a large request, against two baselines measured in
//! the same run:
//!
//! - `bare`: rmp-serde decoding the request struct and encoding the response
//!   struct, with the same handler in between: the floor a dispatcher can
//!   approach.
//! - `json_value`: the path Toolwright replaces — MsgPack decoded into a
//!   `serde_json::Value`, dispatched on the tool name string, converted to
//!   the typed request, the response converted back to a `Value` and
//!   encoded.
//!
//! Run: `cargo bench -p toolwright-catalogue-tests --bench dispatch`.

use std::hint::black_box;
use std::task::{Context, Poll, Waker};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use toolwright::{Dispatcher, codec};
use toolwright_catalogue_tests::bench::{self, BenchService};
use toolwright_catalogue_tests::{
    AbcParseRequest, CasStoreRequest, GardenGetRegionsRequest, Region, ToolRequest,
};

/// Polls a future that is expected to finish without waiting (sync tools
/// are answered inline), so no executor overhead is measured.
fn ready<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

fn old_path(bytes: &[u8], regions: &[Region]) -> Vec<u8> {
    let mut value: Value = rmp_serde::from_slice(bytes).expect("valid request");
    let Value::Object(map) = &mut value else {
        panic!("request is a map")
    };
    let tool = map
        .remove("tool")
        .and_then(|t| t.as_str().map(str::to_owned))
        .expect("tool name");
    let response = match tool.as_str() {
        "abc_parse" => respond(value, bench::abc_parse),
        "garden_get_regions" => respond(value, |r| bench::garden_get_regions(regions, r)),
        "cas_store" => respond(value, bench::cas_store),
        other => panic!("unknown tool {other}"),
    };
    let mut envelope = serde_json::Map::new();
    envelope.insert("success".into(), response);
    rmp_serde::to_vec_named(&Value::Object(envelope)).expect("encodes")
}

fn respond<Req: DeserializeOwned, Resp: Serialize, E: std::fmt::Debug>(
    args: Value,
    handler: impl Fn(Req) -> Result<Resp, E>,
) -> Value {
    let request: Req = serde_json::from_value(args).expect("typed request");
    serde_json::to_value(handler(request).expect("handler succeeds")).expect("to value")
}

fn bare<Req: DeserializeOwned, Resp: Serialize, E: std::fmt::Debug>(
    bytes: &[u8],
    handler: impl Fn(Req) -> Result<Resp, E>,
) -> Vec<u8> {
    let request: Req = rmp_serde::from_slice(bytes).expect("valid request");
    rmp_serde::to_vec_named(&handler(request).expect("handler succeeds")).expect("encodes")
}

fn benches(c: &mut Criterion) {
    let dispatcher = Dispatcher::new(BenchService::new(100));
    let small = AbcParseRequest {
        abc: bench::TUNE.into(),
    };
    let medium = GardenGetRegionsRequest {
        start_beat: None,
        end_beat: None,
    };
    let large = CasStoreRequest {
        data: vec![0xa5; 1 << 20].into(),
        mime_type: "audio/wav".into(),
    };

    let cases: [(&str, ToolRequest, Vec<u8>, Vec<u8>); 3] = [
        (
            "small",
            ToolRequest::AbcParse(small.clone()),
            rmp_serde::to_vec_named(&small).unwrap(),
            old_bytes(&ToolRequest::AbcParse(small)),
        ),
        (
            "medium",
            ToolRequest::GardenGetRegions(medium.clone()),
            rmp_serde::to_vec_named(&medium).unwrap(),
            old_bytes(&ToolRequest::GardenGetRegions(medium)),
        ),
        (
            "large",
            ToolRequest::CasStore(large.clone()),
            rmp_serde::to_vec_named(&large).unwrap(),
            old_bytes(&ToolRequest::CasStore(large)),
        ),
    ];

    for (name, request, struct_bytes, old) in cases {
        let bytes = codec::to_msgpack(&request).unwrap();
        let mut group = c.benchmark_group(format!("dispatch/{name}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("toolwright", |b| {
            b.iter(|| ready(dispatcher.call_msgpack(black_box(&bytes))));
        });
        group.bench_function("bare", |b| {
            b.iter(|| match name {
                "small" => bare(black_box(&struct_bytes), bench::abc_parse),
                "medium" => bare(black_box(&struct_bytes), |r| {
                    bench::garden_get_regions(dispatcher.service().regions(), r)
                }),
                _ => bare(black_box(&struct_bytes), bench::cas_store),
            });
        });
        let regions = dispatcher.service().regions();
        group.bench_function("json_value", |b| {
            b.iter(|| old_path(black_box(&old), regions))
        });
        group.finish();
    }
}

/// The old path's input: the same request, with `bytes` as base64 strings
/// (a `serde_json::Value` cannot hold MsgPack `bin`).
fn old_bytes(request: &ToolRequest) -> Vec<u8> {
    let json: Value = serde_json::from_slice(&codec::to_json(request).unwrap()).unwrap();
    rmp_serde::to_vec_named(&json).unwrap()
}

criterion_group!(dispatch, benches);
criterion_main!(dispatch);
