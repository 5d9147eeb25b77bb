//! TOON throughput: RLE alone and whole frames, encode and decode, for
//! 1 KiB, 64 KiB and 1 MiB payloads of JSON text that compresses (long
//! runs of spaces and zeros) and JSON text that does not. Throughput is
//! counted in raw (uncompressed) payload bytes throughout.
//!
//! `cargo bench -p toolwright --bench toon`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use toolwright::toon::{Decoder, Encoder, MessageType, Stamp, Version, rle};

const SIZES: [(usize, &str); 3] = [(1 << 10, "1KiB"), (64 << 10, "64KiB"), (1 << 20, "1MiB")];

/// JSON text as tools answer: records of short strings and numbers,
/// without runs of four equal bytes.
fn typical(len: usize) -> Vec<u8> {
    let mut out = String::from("[");
    let mut i: u64 = 0;
    while out.len() < len {
        let n = i.wrapping_mul(2_654_435_761) % 99_991;
        out.push_str(&format!(
            r#"{{"id":{i},"name":"item-{n}","path":"src/module_{n}/lib.rs","size":{},"ok":true}},"#,
            n * 7 + 13
        ));
        i += 1;
    }
    let mut out = out.into_bytes();
    out.truncate(len - 1);
    out.push(b']');
    out
}

/// Pretty-printed JSON with long indentation and zero padding: runs of
/// 8 to 64 equal bytes.
fn compressible(len: usize) -> Vec<u8> {
    let mut out = String::from("[\n");
    let mut i: usize = 0;
    while out.len() < len {
        let indent = " ".repeat(8 + (i * 7) % 56);
        out.push_str(&format!(
            "{indent}{{\"id\": {i:016}, \"pad\": \"{}\", \"tags\": []}},\n",
            "-".repeat(16 + i % 48)
        ));
        i += 1;
    }
    let mut out = out.into_bytes();
    out.truncate(len - 1);
    out.push(b']');
    out
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (len, size) in SIZES {
        out.push((format!("typical/{size}"), typical(len)));
        out.push((format!("compressible/{size}"), compressible(len)));
    }
    out
}

fn rle_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("rle");
    for (name, raw) in inputs() {
        let encoded = rle::encode(&raw);
        group.throughput(Throughput::Bytes(raw.len() as u64));
        group.bench_with_input(BenchmarkId::new("encode", &name), &raw, |b, raw| {
            b.iter(|| rle::encode(black_box(raw)))
        });
        // What a frame encoder does: give up as soon as it cannot pay.
        group.bench_with_input(
            BenchmarkId::new("encode_if_shorter", &name),
            &raw,
            |b, raw| b.iter(|| rle::encode_shorter_than(black_box(raw), raw.len() - 1)),
        );
        group.bench_with_input(BenchmarkId::new("decode", &name), &encoded, |b, encoded| {
            b.iter(|| rle::decode(black_box(encoded), usize::MAX))
        });
    }
    group.finish();
}

fn frame_bench(c: &mut Criterion) {
    let stamp = Stamp {
        timestamp: 1_700_000_000_000,
        sequence_id: 7,
    };
    let decoder = Decoder::new();
    let mut group = c.benchmark_group("frame");
    for version in Version::ALL {
        let encoder = Encoder::new(version);
        for (name, raw) in inputs() {
            // v2 frames carry the same bytes as an opaque MsgPack payload.
            let name = format!("{version}/{name}");
            let frame = encoder
                .frame(MessageType::ContextResponse, stamp, &raw)
                .expect("the payload frames");
            group.throughput(Throughput::Bytes(raw.len() as u64));
            group.bench_with_input(BenchmarkId::new("encode", &name), &raw, |b, raw| {
                b.iter(|| encoder.frame(MessageType::ContextResponse, stamp, black_box(raw)))
            });
            group.bench_with_input(BenchmarkId::new("decode", &name), &frame, |b, frame| {
                b.iter(|| {
                    decoder
                        .decode_frame(black_box(frame))
                        .map(|f| f.payload().len())
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, rle_bench, frame_bench);
criterion_main!(benches);
