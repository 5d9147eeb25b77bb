// The TOON codec: headers, compression corner cases, limits and typed errors.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  HEADER_SIZE,
  MessageType,
  TOONDecoder,
  TOONEncoder,
  TOONError,
  type TOONErrorKind,
  decodeToolResult,
  rleDecode,
  rleEncode,
} from "../../generated/typescript/src/index.js";
import { concat, header, hex, unhex } from "./support.js";

const utf8 = new TextEncoder();

function kindOf(f: () => unknown): TOONErrorKind {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof TOONError, `expected a TOONError, got ${String(error)}`);
    return error.kind;
  }
  assert.fail("expected a TOONError, got a value");
}

function repeat(byte: number, n: number): Uint8Array {
  return new Uint8Array(n).fill(byte);
}

/** Text without any run of 4 (nor 0xFF, nor a leading 'Z'). */
function noRuns(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = 0x61 + (i % 23);
  return out;
}

describe("RLE", () => {
  it("writes runs of 4 and more as FF <byte> <count>, shorter runs verbatim", () => {
    assert.equal(hex(rleEncode(repeat(0x61, 3))), "616161");
    assert.equal(hex(rleEncode(repeat(0x61, 4))), "ff6104");
    assert.equal(hex(rleEncode(repeat(0x61, 255))), "ff61ff");
    assert.equal(hex(rleEncode(repeat(0x61, 256))), "ff61ff61");
    assert.equal(hex(rleEncode(repeat(0x61, 257))), "ff61ff6161");
    assert.equal(hex(rleEncode(repeat(0x61, 258))), "ff61ff616161");
    assert.equal(hex(rleEncode(repeat(0x61, 1000))), "ff61ffff61ffff61ffff61eb");
  });

  it("escapes every 0xFF, even alone", () => {
    assert.equal(hex(rleEncode(unhex("ff"))), "ffff01");
    assert.equal(hex(rleEncode(unhex("41ff42ffff"))), "41ffff0142ffff02");
  });

  it("decodes what it encodes", () => {
    const inputs = [repeat(0x61, 1000), unhex("00ff00ffff01"), noRuns(3000), concat(noRuns(10), repeat(0xff, 600), noRuns(5))];
    for (const input of inputs) assert.deepEqual(rleDecode(rleEncode(input), 1 << 20), input);
  });

  it("refuses an escape without its two bytes or with a count of 0", () => {
    assert.equal(kindOf(() => rleDecode(unhex("61ff61"), 100)), "bad_compression");
    assert.equal(kindOf(() => rleDecode(unhex("ff"), 100)), "bad_compression");
    assert.equal(kindOf(() => rleDecode(unhex("ff6100"), 100)), "bad_compression");
  });

  it("stops before the output passes its limit", () => {
    assert.equal(kindOf(() => rleDecode(unhex("ff61ff ff61ff"), 509)), "decompressed_too_large");
    assert.equal(rleDecode(unhex("ff61ff ff61ff"), 510).length, 510);
  });
});

describe("frames", () => {
  it("writes the seed's header and JSON payload, byte for byte", () => {
    const frame = TOONEncoder.encodeInstruction("hi", 1, { timestamp: 0x0102030405 });
    const text = '{"instruction":"hi"}';
    assert.equal(
      hex(frame),
      "0101" + "14000000" + "0504030201000000" + "01000000" + Buffer.from(text).toString("hex"),
    );
    const message = new TOONDecoder().decode(frame);
    assert.deepEqual(message.header, {
      version: 1,
      type: MessageType.INSTRUCTION,
      payloadLength: 20,
      timestamp: 0x0102030405,
      timestampBig: BigInt(0x0102030405),
      sequenceId: 1,
    });
    assert.deepEqual(message.payload, { instruction: "hi" });
    assert.equal(HEADER_SIZE, 18);
  });

  it("reads every uint64 timestamp exactly, and writes one given as a bigint", () => {
    const max = BigInt("18446744073709551615");
    for (const stamp of [BigInt(2) ** BigInt(53), BigInt(2) ** BigInt(53) + BigInt(1), max]) {
      const frame = TOONEncoder.encodeHeartbeat(3, { timestamp: stamp });
      const header = new TOONDecoder().decode(frame).header;
      assert.equal(header.timestampBig, stamp);
      // The number is the nearest double, as documented.
      assert.equal(header.timestamp, Number(stamp));
    }
    // The same bytes written by hand: little-endian, all ones.
    const byHand = concat(header(1, 6, 2, 0, 9), utf8.encode("{}"));
    byHand.fill(0xff, 6, 14);
    assert.equal(new TOONDecoder().decode(byHand).header.timestampBig, max);
    assert.throws(() => TOONEncoder.encodeHeartbeat(1, { timestamp: max + BigInt(1) }), RangeError);
    assert.throws(() => TOONEncoder.encodeHeartbeat(1, { timestamp: BigInt(-1) }), RangeError);
    assert.throws(() => TOONEncoder.encodeHeartbeat(1, { timestamp: 2 ** 53 }), RangeError);
  });

  it("decodes the seed's own TOOL_RESULT example, which has no toolName", () => {
    const text = '{"success": true, "data": "export class UserService { ... }", "duration": 12}';
    const frame = new TOONEncoder({ timestamp: 0 }).frame(MessageType.TOOL_RESULT, utf8.encode(text), 5);
    assert.deepEqual(new TOONDecoder().decode(frame).payload, JSON.parse(text));
    // The typed reader needs the tool's name to know the response type, and says so.
    assert.throws(
      () => decodeToolResult(frame),
      (e: unknown) => e instanceof TOONError && e.kind === "invalid_payload" && e.message.includes("toolName"),
    );
  });

  it("writes version 2 as a coding byte and MsgPack, floats as float 64", () => {
    const frame = TOONEncoder.encodeStatus("x", 0.5, 7, { version: 2, timestamp: 0 });
    assert.equal(
      hex(frame.subarray(HEADER_SIZE)),
      "00" + "82" + "a6737461747573" + "a178" + "a870726f6772657373" + "cb3fe0000000000000",
    );
    assert.deepEqual(new TOONDecoder().decode(frame).payload, { status: "x", progress: 0.5 });
  });

  it("writes a whole-number progress as 1.0 in JSON", () => {
    const frame = TOONEncoder.encodeStatus("done", 1, 2, { timestamp: 0 });
    assert.equal(Buffer.from(frame.subarray(HEADER_SIZE)).toString(), '{"status":"done","progress":1.0}');
  });

  it("round-trips every message type in both versions", () => {
    const payloads: [MessageType, unknown][] = [
      [MessageType.INSTRUCTION, { instruction: "Write tests ✓" }],
      [MessageType.TOOL_CALL, { toolName: "file_read", args: { path: "a.ts" } }],
      [MessageType.TOOL_RESULT, { success: true, toolName: "file_read", data: { text: "x" }, duration: 12 }],
      [MessageType.STATUS, { status: "analyzing", progress: 0.45 }],
      [MessageType.ERROR, { code: "TOOL_FAILED", message: "File not found" }],
      [MessageType.HEARTBEAT, {}],
      [MessageType.CONTEXT_REQUEST, { type: "file", path: "src/config.ts" }],
      [MessageType.CONTEXT_RESPONSE, { content: "x".repeat(5000) }],
    ];
    for (const version of [1, 2] as const) {
      const encoder = new TOONEncoder({ version, timestamp: 42 });
      payloads.forEach(([type, payload], i) => {
        const frame = encoder.encode(type, payload, i);
        const message = new TOONDecoder().decode(frame);
        assert.equal(message.header.type, type);
        assert.equal(message.header.version, version);
        assert.equal(message.header.sequenceId, i);
        assert.equal(message.header.payloadLength, frame.length - HEADER_SIZE);
        assert.deepEqual(message.payload, payload);
      });
    }
  });
});

describe("compression", () => {
  const body = (n: number) => utf8.encode(`{"instruction":"${"a".repeat(n - 18)}"}`);

  it("never compresses a payload of exactly 1,024 bytes", () => {
    const frame = new TOONEncoder({ timestamp: 0 }).frame(MessageType.INSTRUCTION, body(1024), 1);
    assert.equal(frame.length, HEADER_SIZE + 1024);
    assert.equal(frame[HEADER_SIZE], 0x7b);
  });

  it("compresses a payload of 1,025 bytes that shrinks", () => {
    const frame = new TOONEncoder({ timestamp: 0 }).frame(MessageType.INSTRUCTION, body(1025), 1);
    assert.equal(frame[HEADER_SIZE], 0x5a);
    const message = new TOONDecoder().decode(frame);
    assert.equal(message.compressed, true);
    assert.deepEqual(message.payload, { instruction: "a".repeat(1007) });
  });

  it("uses compression only when 1 + its length is below the raw length", () => {
    // 1,021 bytes without runs and a run of 4: the encoding is 1,024 bytes, + 1 = 1,025: not shorter.
    const even = concat(noRuns(1021), repeat(0x61, 4));
    const plain = new TOONEncoder({ timestamp: 0 }).frame(MessageType.CONTEXT_REQUEST, even, 1);
    assert.equal(plain.length, HEADER_SIZE + 1025);
    // A run of 5 saves one more byte: 1 + 1,023 < 1,025.
    const shorter = concat(noRuns(1020), repeat(0x61, 5));
    const packed = new TOONEncoder({ timestamp: 0 }).frame(MessageType.CONTEXT_REQUEST, shorter, 1);
    assert.equal(packed.length, HEADER_SIZE + 1024);
    assert.equal(packed[HEADER_SIZE], 0x5a);
  });

  it("leaves payloads that do not shrink as they are", () => {
    const text = JSON.stringify({ text: Buffer.from(noRuns(3000)).toString() });
    const frame = new TOONEncoder({ timestamp: 0 }).encode(MessageType.CONTEXT_RESPONSE, JSON.parse(text), 1);
    assert.equal(frame.length, HEADER_SIZE + text.length);
  });

  it("escapes literal 0xFF bytes in a compressed version 2 payload", () => {
    const bin = concat(repeat(0xff, 300), noRuns(900), repeat(0x00, 10));
    const frame = new TOONEncoder({ version: 2, timestamp: 0 }).encode(MessageType.CONTEXT_RESPONSE, { bin }, 3);
    assert.equal(frame[HEADER_SIZE], 0x5a);
    const payload = new TOONDecoder().decode(frame).payload as { bin: Uint8Array };
    assert.deepEqual(payload.bin, bin);
  });
});

describe("decoder errors", () => {
  const good = TOONEncoder.encodeHeartbeat(1, { timestamp: 0 });

  it("truncated header", () => {
    assert.equal(kindOf(() => new TOONDecoder().decode(new Uint8Array(0))), "truncated_header");
    assert.equal(kindOf(() => new TOONDecoder().decode(good.subarray(0, 17))), "truncated_header");
    assert.equal(new TOONDecoder().validate(good.subarray(0, 17)), false);
    assert.equal(new TOONDecoder().validate(good), true);
  });

  it("truncated payload", () => {
    assert.equal(kindOf(() => new TOONDecoder().decode(good.subarray(0, good.length - 1))), "truncated_payload");
  });

  it("unsupported version, and version 2 to a version 1 decoder", () => {
    assert.equal(kindOf(() => new TOONDecoder().decode(concat(header(3, 6, 2, 0, 1), utf8.encode("{}")))), "unsupported_version");
    assert.equal(kindOf(() => new TOONDecoder().decode(concat(header(0, 6, 2, 0, 1), utf8.encode("{}")))), "unsupported_version");
    const v2 = TOONEncoder.encodeHeartbeat(1, { version: 2 });
    assert.equal(kindOf(() => new TOONDecoder({ versions: [1] }).decode(v2)), "unsupported_version");
    assert.deepEqual(new TOONDecoder().decode(v2).payload, {});
  });

  it("unknown message type", () => {
    for (const type of [0, 9, 255]) {
      assert.equal(kindOf(() => new TOONDecoder().decode(concat(header(1, type, 2, 0, 1), utf8.encode("{}")))), "unknown_type");
    }
  });

  it("payloadLength 4 GiB − 1 is refused without allocating", () => {
    const frame = header(1, 1, 0xffffffff, 0, 1);
    assert.equal(kindOf(() => new TOONDecoder().decode(frame)), "payload_too_large");
    assert.equal(kindOf(() => new TOONDecoder({ maxPayload: 0xffffffff }).decode(frame)), "truncated_payload");
  });

  it("bad compression and decompressed size", () => {
    const bad = concat(header(1, 8, 3, 0, 1), unhex("5aff61"));
    assert.equal(kindOf(() => new TOONDecoder().decode(bad)), "bad_compression");
    const zero = concat(header(1, 8, 4, 0, 1), unhex("5aff6100"));
    assert.equal(kindOf(() => new TOONDecoder().decode(zero)), "bad_compression");
    const bomb = concat(header(1, 8, 1 + 3 * 100, 0, 1), unhex("5a"), unhex("ff20ff".repeat(100)));
    assert.equal(kindOf(() => new TOONDecoder({ maxDecompressed: 25_000 }).decode(bomb)), "decompressed_too_large");
  });

  it("invalid payloads: garbage, bad UTF-8, invalid JSON, unknown coding byte, bad MsgPack", () => {
    const v1 = (bytes: Uint8Array) => concat(header(1, 8, bytes.length, 0, 1), bytes);
    const v2 = (bytes: Uint8Array) => concat(header(2, 8, bytes.length, 0, 1), bytes);
    assert.equal(kindOf(() => new TOONDecoder().decode(v1(utf8.encode("{not json")))), "invalid_payload");
    assert.equal(kindOf(() => new TOONDecoder().decode(v1(unhex("7b22c3283a317d")))), "invalid_payload");
    assert.equal(kindOf(() => new TOONDecoder().decode(v1(new Uint8Array(0)))), "invalid_payload");
    assert.equal(kindOf(() => new TOONDecoder().decode(v2(unhex("07 80")))), "invalid_payload");
    assert.equal(kindOf(() => new TOONDecoder().decode(v2(new Uint8Array(0)))), "invalid_payload");
    assert.equal(kindOf(() => new TOONDecoder().decode(v2(unhex("00 c1")))), "invalid_payload");
    assert.equal(kindOf(() => new TOONDecoder().decode(v2(unhex("00 85 a1")))), "invalid_payload");
    // A uint64 beyond 2^53 − 1 is refused, not rounded.
    assert.equal(kindOf(() => new TOONDecoder().decode(v2(unhex("00 cf 0020000000000001")))), "invalid_payload");
    // Nesting far beyond any real payload: a typed error or a value, never a crash.
    const deep = (frame: Uint8Array) => {
      try {
        new TOONDecoder().decode(frame);
      } catch (error) {
        assert.ok(error instanceof TOONError && error.kind === "invalid_payload", String(error));
      }
    };
    deep(v1(utf8.encode("[".repeat(200_000) + "]".repeat(200_000))));
    deep(v2(concat(unhex("00"), new Uint8Array(200_000).fill(0x91), unhex("c0"))));
    for (let seed = 1; seed < 200; seed++) {
      const garbage = new Uint8Array(40).map((_, i) => (seed * 31 + i * 17) & 0xff);
      try {
        new TOONDecoder().decode(garbage);
      } catch (error) {
        assert.ok(error instanceof TOONError, `garbage ${seed} gave ${String(error)}`);
      }
    }
  });
});
