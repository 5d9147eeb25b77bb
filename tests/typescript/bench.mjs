#!/usr/bin/env node
// TOON encode/decode throughput of the TypeScript codec, for 1 KiB, 64 KiB
// and 1 MiB payloads, compressible (long runs) and not (typical JSON text).
// Prints one line per case: `lang case size MB/s-encode MB/s-decode`.
// `frame` cases time the codec proper (header, RLE, limits) on a written
// payload; `value` cases add writing the value canonically (JSON or
// MsgPack, keys sorted) and parsing it back; `baseline` lines time the
// engine's JSON.stringify / JSON.parse on the same value, for scale. Sizes
// are of the raw payload. A plain frame decodes without copying its payload.
// Needs the compiled tests (tests/typescript/run builds them into out/).
//
//   node tests/typescript/bench.mjs

import { performance } from "node:perf_hooks";

const lib = await import(new URL("./out/generated/typescript/src/index.js", import.meta.url).href);
const { MessageType, TOONDecoder, TOONEncoder } = lib;

const SIZES = [
  ["1KiB", 1024],
  ["64KiB", 64 * 1024],
  ["1MiB", 1024 * 1024],
];

/** A JSON object whose text is about `size` bytes. */
function payload(kind, size) {
  if (kind === "runs") {
    // Long runs: padding and repeated blocks, as in logs or sparse data.
    const block = " ".repeat(200) + "0".repeat(50) + "\n";
    return { text: block.repeat(Math.ceil(size / block.length)).slice(0, size - 12) };
  }
  // Typical JSON text: records with varied words and numbers, few runs.
  const items = [];
  let length = 0;
  for (let i = 0; length < size - 64; i++) {
    const item = { id: i, name: `item-${i * 7919 % 10007}`, score: (i * 31) % 997, tags: ["alpha", "beta", `t${i % 13}`] };
    items.push(item);
    length += JSON.stringify(item).length + 1;
  }
  return { items };
}

function measure(fn, bytes) {
  // Warm up, then run for at least 300 ms.
  for (let i = 0; i < 5; i++) fn();
  let runs = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < 300) {
    fn();
    runs++;
    elapsed = performance.now() - start;
  }
  return (bytes * runs) / (elapsed / 1000) / 1e6;
}

for (const version of [1, 2]) {
  const encoder = new TOONEncoder({ version, timestamp: 0 });
  const decoder = new TOONDecoder();
  for (const kind of ["runs", "json"]) {
    for (const [label, size] of SIZES) {
      const value = payload(kind, size);
      const frame = encoder.encode(MessageType.CONTEXT_RESPONSE, value, 1);
      const body = decoder.decodeFrame(frame).body.slice();
      const raw = body.length;
      const compressed = decoder.decode(frame).compressed ? "rle" : "plain";
      const name = `v${version}-${kind}-${compressed}`;
      const frameEncode = measure(() => encoder.frame(MessageType.CONTEXT_RESPONSE, body, 1), raw);
      const frameDecode = measure(() => decoder.decodeFrame(frame), raw);
      console.log(`typescript frame-${name} ${label} ${frameEncode.toFixed(1)} ${frameDecode.toFixed(1)}`);
      const encode = measure(() => encoder.encode(MessageType.CONTEXT_RESPONSE, value, 1), raw);
      const decode = measure(() => decoder.decode(frame), raw);
      console.log(`typescript value-${name} ${label} ${encode.toFixed(1)} ${decode.toFixed(1)}`);
      if (version === 1) {
        // What the engine's own JSON does with the same value, for scale
        // (no key sorting, no float formatting, no framing).
        const text = JSON.stringify(value);
        const stringify = measure(() => JSON.stringify(value), raw);
        const parse = measure(() => JSON.parse(text), raw);
        console.log(`typescript baseline-JSON-${kind} ${label} ${stringify.toFixed(1)} ${parse.toFixed(1)}`);
      }
    }
  }
}
