//! What telling an entry's request from a tool call costs each HOOT01
//! Request: the worker reads the first key of every request body before it
//! hands the body to the port (`EntryKind::of_request`). Measured on the
//! request of the `add` benchmark (a call, the common case) and on a
//! resource read, beside the worker's other per-Request read of the body
//! (its tool's name, for IOPub).
//!
//! `cargo bench -p toolwright --bench entry_head`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use toolwright::codec::{self, Limits};
use toolwright::entry::EntryKind;

fn request(json: &str) -> Vec<u8> {
    codec::json_to_msgpack(json.as_bytes(), Limits::default()).expect("JSON")
}

fn bench(c: &mut Criterion) {
    let add = request(r#"{"tool":"add","a":2,"b":3}"#);
    let read = request(
        r#"{"resource":"cas_object","hash":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"}"#,
    );
    let mut group = c.benchmark_group("entry_head");
    group.bench_function("of_request(tool call)", |b| {
        b.iter(|| EntryKind::of_request(black_box(&add)))
    });
    group.bench_function("of_request(resource read)", |b| {
        b.iter(|| EntryKind::of_request(black_box(&read)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
