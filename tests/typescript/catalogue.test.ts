// Typed calls of the reference catalogue: canonical payloads, defaults,
// validation errors, the client and the registry.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  HEADER_SIZE,
  MathOperandsSchema,
  MessageType,
  TOOLS,
  TOONDecoder,
  TOONEncoder,
  TOONError,
  type TOONTransport,
  ToolCallError,
  ToolClient,
  type ToolRequest,
  catalogueRegistry,
  decodeToolCall,
  decodeToolResult,
  encodeToolCall,
  encodeToolResult,
  requestFromJson,
  requestFromMsgpack,
  requestToJson,
  requestToMsgpack,
} from "../../generated/typescript/src/index.js";
import { formatF32, formatF64 } from "../../generated/typescript/src/floats.js";
import { hex } from "./support.js";

const text = (frame: Uint8Array) => Buffer.from(frame.subarray(HEADER_SIZE)).toString();

function payloadError(f: () => unknown): TOONError {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof TOONError, `expected a TOONError, got ${String(error)}`);
    assert.equal(error.kind, "invalid_payload");
    return error;
  }
  assert.fail("expected an invalid_payload error");
}

describe("floats as Rust writes them", () => {
  it("f64", () => {
    const cases: [number, string][] = [
      [2, "2.0"], [0, "0.0"], [-0, "-0.0"], [0.1, "0.1"], [-1.5, "-1.5"], [1e15, "1000000000000000.0"],
      [1e16, "1e+16"], [1.5e16, "1.5e+16"], [0.00001, "0.00001"], [0.000001, "1e-6"], [1.2345e-7, "1.2345e-7"],
      [123456.789, "123456.789"], [5e-324, "5e-324"], [1.7976931348623157e308, "1.7976931348623157e+308"],
    ];
    for (const [value, expected] of cases) assert.equal(formatF64(value), expected, String(value));
  });

  it("f32: shortest digits of the f32 value", () => {
    const cases: [number, string][] = [
      [0.1, "0.1"], [2, "2.0"], [16777216, "16777216.0"], [1e12, "1000000000000.0"], [1e13, "1e+13"],
      [0.000001, "0.000001"], [1e-7, "1e-7"], [3.4028234663852886e38, "3.4028235e+38"], [0.95, "0.95"], [-60, "-60.0"],
    ];
    for (const [value, expected] of cases) assert.equal(formatF32(value), expected, String(value));
  });
});

describe("typed TOOL_CALL frames", () => {
  it("writes args in field order, action first", () => {
    const add = encodeToolCall({ tool: "add", args: { b: 3, a: 2 } }, 1, { timestamp: 0 });
    assert.equal(text(add), '{"toolName":"add","args":{"a":2,"b":3}}');
    const read = encodeToolCall({ tool: "fs", action: "read", args: { uri: "file:///a" } }, 2, { timestamp: 0 });
    // Defaults are written, as Rust writes them.
    assert.equal(text(read), '{"toolName":"fs","args":{"action":"read","uri":"file:///a","encoding":"utf8"}}');
    const play = encodeToolCall({ tool: "garden_play" }, 3, { timestamp: 0 });
    assert.equal(text(play), '{"toolName":"garden_play","args":{}}');
  });

  it("round-trips in both versions, defaults applied on decode", () => {
    for (const version of [1, 2] as const) {
      const frame = encodeToolCall({ tool: "job_list", args: {} }, 9, { version, timestamp: 5 });
      const { header, request } = decodeToolCall(frame);
      assert.equal(header.type, MessageType.TOOL_CALL);
      assert.equal(header.sequenceId, 9);
      assert.deepEqual(request, { tool: "job_list", args: { limit: 100 } });
      assert.deepEqual(decodeToolCall(encodeToolCall(request, 9, { version, timestamp: 5 })).request, request);
    }
  });

  it("writes the canonical MsgPack of docs/wire.md", () => {
    const frame = encodeToolCall({ tool: "add", args: { a: 1, b: 2 } }, 1, { version: 2, timestamp: 0 });
    assert.equal(hex(frame.subarray(HEADER_SIZE)), "00" + "82" + "a8746f6f6c4e616d65" + "a3616464" + "a461726773" + "82a16101a16202");
    assert.equal(hex(requestToMsgpack({ tool: "add", args: { a: 1, b: 2 } })), "83a4746f6f6ca3616464a16101a16202");
    assert.equal(requestToJson({ tool: "add", args: { a: 1, b: 2 } }), '{"tool":"add","a":1,"b":2}');
    assert.deepEqual(requestFromJson('{"tool":"add","a":1,"b":2}'), { tool: "add", args: { a: 1, b: 2 } });
    assert.deepEqual(requestFromMsgpack(requestToMsgpack({ tool: "fs", action: "read", args: { uri: "file:///u" } })), {
      tool: "fs",
      action: "read",
      args: { uri: "file:///u", encoding: "utf8" },
    });
  });

  it("refuses wrong types, unknown keys, unknown tools and out-of-range integers, naming the field", () => {
    const call = (toolName: string, args: unknown, version: 1 | 2 = 1) =>
      new TOONEncoder({ version }).encode(MessageType.TOOL_CALL, { toolName, args }, 1);
    assert.match(payloadError(() => decodeToolCall(call("add", { a: "2", b: 3 }))).message, /args\.a/);
    assert.match(payloadError(() => decodeToolCall(call("add", { a: 2, b: 3, c: 4 }))).message, /c/);
    assert.match(payloadError(() => decodeToolCall(call("no_such_tool", {}))).message, /no_such_tool/);
    assert.match(payloadError(() => decodeToolCall(call("fs", { action: "fly" }))).message, /fly/);
    assert.match(payloadError(() => decodeToolCall(call("job_list", { limit: 1001 }))).message, /limit/);
    assert.match(payloadError(() => decodeToolCall(call("add", { a: 2 ** 53, b: 0 }))).message, /2\^53/);
    payloadError(() => decodeToolCall(new TOONEncoder().encode(MessageType.TOOL_CALL, [1, 2], 1)));
    payloadError(() => decodeToolCall(TOONEncoder.encodeHeartbeat(1)));
  });

  it("validates before encoding", () => {
    const bad = { tool: "add", args: { a: 1.5, b: 2 } } as ToolRequest;
    assert.throws(() => encodeToolCall(bad, 1), /a/);
    assert.equal(MathOperandsSchema.safeParse({ a: 1, b: 2 }).success, true);
  });
});

describe("typed TOOL_RESULT frames", () => {
  it("writes success and failure payloads in the pinned shapes", () => {
    const ok = encodeToolResult(
      { success: true, toolName: "add", response: { tool: "add", data: { result: 5 } }, duration: 3 },
      1,
      { timestamp: 0 },
    );
    assert.equal(text(ok), '{"success":true,"toolName":"add","data":{"result":5},"duration":3}');
    const failed = encodeToolResult(
      { success: false, toolName: "add", error: { code: "OVERFLOW", message: "too big", details: { overflow: {} } }, duration: 1 },
      2,
      { timestamp: 0 },
    );
    assert.equal(
      text(failed),
      '{"success":false,"toolName":"add","error":{"code":"OVERFLOW","message":"too big","details":{"overflow":{}}},"duration":1}',
    );
    for (const frame of [ok, failed]) {
      const again = decodeToolResult(frame).result;
      assert.deepEqual(decodeToolResult(encodeToolResult(again, frame[14]!, { timestamp: 0 })).result, again);
    }
  });
});

describe("ToolClient", () => {
  // A server in memory: answers add and fails divide-by-zero style calls.
  const transport: TOONTransport = {
    async exchange(frame) {
      const { header, request } = decodeToolCall(frame, new TOONDecoder());
      if (request.tool === "add") {
        const { a, b } = request.args;
        if (a + b > 100) {
          return encodeToolResult({ success: false, toolName: "add", error: { code: "OVERFLOW", message: "too big" }, duration: 0 }, header.sequenceId);
        }
        return encodeToolResult({ success: true, toolName: "add", response: { tool: "add", data: { result: a + b } }, duration: 1 }, header.sequenceId);
      }
      if (request.tool === "fs" && request.action === "read") {
        const data = { text: `contents of ${request.args.uri}`, hash: "h", total_lines: 1, truncated: false, encoding: "utf8" as const };
        return encodeToolResult({ success: true, toolName: "fs", response: { tool: "fs", action: "read", data } as never, duration: 1 }, header.sequenceId);
      }
      return encodeToolResult({ success: true, toolName: request.tool, response: { tool: request.tool } as never, duration: 0 }, header.sequenceId);
    },
  };

  it("calls tools with typed arguments and results", async () => {
    for (const version of [1, 2] as const) {
      const client = new ToolClient(transport, { version });
      const sum = await client.callTool("add", { a: 2, b: 3 });
      assert.equal(sum.result, 5);
      await assert.rejects(client.callTool("add", { a: 99, b: 3 }), (e: unknown) => e instanceof ToolCallError && e.code === "OVERFLOW");
    }
  });
});

describe("registry", () => {
  it("describes every tool with seed 004's metadata", () => {
    const registry = catalogueRegistry();
    const parse = registry.get("abc_parse");
    assert.ok(parse);
    assert.equal(parse.source, "local");
    assert.equal(parse.timing, "sync");
    assert.equal(parse.title, "Parse ABC");
    assert.equal(parse.annotations.readOnlyHint, true);
    assert.deepEqual(parse.parameters.map((p) => [p.name, p.type, p.required]), [["abc", "string", true]]);
    const fs = registry.get("fs");
    assert.ok(fs?.actions?.some((a) => a.name === "read"));
    assert.equal(registry.sourceOf("job_status"), "local");
    registry.register({ ...parse, name: "remote_search", source: "mcp" });
    assert.equal(registry.sourceOf("remote_search"), "mcp");
    assert.equal(new Set(TOOLS.map((t) => t.name)).size, TOOLS.length);
  });
});
