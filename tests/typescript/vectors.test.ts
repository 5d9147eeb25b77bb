// The shared vectors written by the Rust implementation: every value and
// frame must decode, validate and re-encode to the same bytes. Also writes
// `from-typescript.json`, the frames this implementation encodes, for the
// Rust side to read back.

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";

import {
  MessageType,
  TOONDecoder,
  TOONEncoder,
  TOONError,
  decodeToolCall,
  decodeToolResult,
  encodeToolCall,
  encodeToolResult,
  requestFromJson,
  requestFromMsgpack,
  requestToJson,
  requestToMsgpack,
  responseFromJson,
  responseFromMsgpack,
  responseToJson,
  responseToMsgpack,
} from "../../generated/typescript/src/index.js";
import { ROOT, hex, readJson, unhex } from "./support.js";

interface ValueCase {
  name: string;
  tool: string;
  action: string | null;
  kind: "request" | "response";
  json: string;
  msgpack: string;
}

interface FrameCase {
  name: string;
  version: 1 | 2;
  message_type: number;
  timestamp: number;
  sequence_id: number;
  compressed: boolean;
  payload_json: string;
  frame: string;
}

interface InvalidCase {
  name: string;
  frame: string;
  max_payload: number | null;
  error: string;
}

const values = readJson("tests", "vectors", "values.json") as { format: number; cases: ValueCase[] };
const toon = readJson("tests", "vectors", "toon.json") as { format: number; frames: FrameCase[]; invalid: InvalidCase[] };

describe("values.json", () => {
  it("has cases in format 1", () => {
    assert.equal(values.format, 1);
    assert.ok(values.cases.length > 0);
  });

  for (const c of values.cases) {
    it(c.name, () => {
      if (c.kind === "request") {
        const fromJson = requestFromJson(c.json);
        const fromMsgpack = requestFromMsgpack(unhex(c.msgpack));
        assert.equal(fromJson.tool, c.tool);
        assert.equal("action" in fromJson ? fromJson.action : null, c.action);
        assert.deepEqual(fromMsgpack, fromJson);
        assert.equal(requestToJson(fromJson), c.json);
        assert.equal(hex(requestToMsgpack(fromMsgpack)), c.msgpack);
      } else {
        const fromJson = responseFromJson(c.json);
        const fromMsgpack = responseFromMsgpack(unhex(c.msgpack));
        assert.equal(fromJson.tool, c.tool);
        assert.equal("action" in fromJson ? fromJson.action : null, c.action);
        assert.deepEqual(fromMsgpack, fromJson);
        assert.equal(responseToJson(fromJson), c.json);
        assert.equal(hex(responseToMsgpack(fromMsgpack)), c.msgpack);
      }
    });
  }
});

/** Re-encodes a decoded frame the way its type calls for. */
function reencode(frame: Uint8Array, c: FrameCase): Uint8Array {
  const options = { version: c.version, timestamp: c.timestamp };
  if (c.message_type === MessageType.TOOL_CALL) {
    return encodeToolCall(decodeToolCall(frame).request, c.sequence_id, options);
  }
  if (c.message_type === MessageType.TOOL_RESULT) {
    return encodeToolResult(decodeToolResult(frame).result, c.sequence_id, options);
  }
  const message = new TOONDecoder().decode(frame);
  return new TOONEncoder(options).encode(message.header.type, message.payload, c.sequence_id);
}

const produced: FrameCase[] = [];

describe("toon.json frames", () => {
  it("has frames in format 1", () => {
    assert.equal(toon.format, 1);
    assert.ok(toon.frames.length > 0);
  });

  for (const c of toon.frames) {
    it(c.name, () => {
      const frame = unhex(c.frame);
      const message = new TOONDecoder().decode(frame);
      assert.equal(message.header.version, c.version);
      assert.equal(message.header.type, c.message_type);
      assert.equal(message.header.timestamp, c.timestamp);
      assert.equal(message.header.sequenceId, c.sequence_id);
      assert.equal(message.header.payloadLength, frame.length - 18);
      assert.equal(message.compressed, c.compressed);
      if (c.version === 1) assert.deepEqual(message.payload, JSON.parse(c.payload_json));
      const again = reencode(frame, c);
      assert.equal(hex(again), c.frame);
      produced.push({ ...c, frame: hex(again) });
    });
  }
});

describe("toon.json invalid frames", () => {
  for (const c of toon.invalid) {
    it(`${c.name} → ${c.error}`, () => {
      const decoder = new TOONDecoder(c.max_payload === null ? {} : { maxPayload: c.max_payload });
      const frame = unhex(c.frame);
      assert.throws(
        () => {
          const message = decoder.decode(frame);
          // Typed payloads are checked against the catalogue too.
          if (message.header.type === MessageType.TOOL_CALL) decodeToolCall(frame, decoder);
          if (message.header.type === MessageType.TOOL_RESULT) decodeToolResult(frame, decoder);
        },
        (error: unknown) => error instanceof TOONError && error.kind === c.error,
      );
    });
  }
});

after(() => {
  const dir = process.env["TOOLWRIGHT_VECTORS_OUT"] ?? join(ROOT, "tests", "vectors");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "from-typescript.json"), `${JSON.stringify({ format: 1, frames: produced }, null, 2)}\n`);
});
