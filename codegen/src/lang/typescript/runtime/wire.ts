// Requests and responses in their docs/wire.md form: one map whose first
// key is `tool` (then `action` for an action tool), followed by the fields.
// The typed values keep the fields apart (`args` / `data`), since a struct
// may itself have a field named `tool`; these functions convert.

import { decode as decodeMsgpack } from "@msgpack/msgpack";

import { type Catalogue, writeBody } from "./calls.js";
import { ValidationError } from "./errors.js";
import { JsonWriter } from "./json_writer.js";
import { MsgpackWriter } from "./msgpack_writer.js";
import { isRecord, typeShape } from "./shape.js";
import { type WireFormat, readWireFields } from "./wire_reader.js";

/** Which half of a call a value is. */
export type Side = "request" | "response";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Canonical JSON text of a request or response (validated first). */
export function writeWireJson<Req extends { tool: string }, Res extends { tool: string }>(
  catalogue: Catalogue<Req, Res>,
  value: Req | Res,
  side: Side,
): string {
  const checked = (side === "request" ? catalogue.parseRequest(value) : catalogue.parseResponse(value)) as unknown as Record<string, unknown>;
  const out = new JsonWriter();
  writeBody(catalogue.shape, checked, side).write(out, true);
  return out.text();
}

/** Canonical MsgPack of a request or response (validated first). */
export function writeWireMsgpack<Req extends { tool: string }, Res extends { tool: string }>(
  catalogue: Catalogue<Req, Res>,
  value: Req | Res,
  side: Side,
): Uint8Array {
  const checked = (side === "request" ? catalogue.parseRequest(value) : catalogue.parseResponse(value)) as unknown as Record<string, unknown>;
  const out = new MsgpackWriter();
  writeBody(catalogue.shape, checked, side).write(out, true);
  // A copy the size of the message, not of the buffer.
  return out.bytes().slice();
}

const TAG = /^\s*\{\s*"tool"\s*:\s*("(?:[^"\\]|\\.)*")\s*([,}])/;
const ACTION = /^\s*"action"\s*:\s*("(?:[^"\\]|\\.)*")\s*([,}])/;

/**
 * Reads a request or response from JSON text whose first key is `tool`.
 *
 * @throws {ValidationError} naming the field.
 */
export function readWireJson<Req extends { tool: string }, Res extends { tool: string }>(
  catalogue: Catalogue<Req, Res>,
  text: string,
  side: Side,
): Req | Res {
  const tag = TAG.exec(text);
  if (tag === null) throw new ValidationError([], 'expected a JSON object whose first key is "tool"');
  const tool = JSON.parse(tag[1]!) as string;
  let rest = text.slice(tag[0].length);
  let closed = tag[2] === "}";
  let action: string | undefined;
  if (catalogue.shape.tools[tool]?.kind === "actions" && !closed) {
    const m = ACTION.exec(rest);
    if (m === null) throw new ValidationError(["action"], `the tool ${tool} needs "action" as its second key`);
    action = JSON.parse(m[1]!) as string;
    rest = rest.slice(m[0].length);
    closed = m[2] === "}";
  }
  const body: unknown = closed ? (rest.trim() === "" ? {} : undefined) : JSON.parse(`{${rest}`);
  if (!isRecord(body)) throw new ValidationError([], "expected a JSON object");
  return finish(catalogue, tool, action, body, side, "json");
}

/**
 * Reads a request or response from MsgPack whose first key is `tool`.
 *
 * @throws {ValidationError} naming the field.
 */
export function readWireMsgpack<Req extends { tool: string }, Res extends { tool: string }>(
  catalogue: Catalogue<Req, Res>,
  bytes: Uint8Array,
  side: Side,
): Req | Res {
  let { count, offset } = readMapHeader(bytes, 0);
  const key = readStr(bytes, offset);
  if (count < 1 || key.value !== "tool") throw new ValidationError([], 'expected a map whose first key is "tool"');
  const tool = readStr(bytes, key.offset);
  offset = tool.offset;
  count -= 1;
  let action: string | undefined;
  if (catalogue.shape.tools[tool.value]?.kind === "actions" && count > 0) {
    const k = readStr(bytes, offset);
    if (k.value !== "action") throw new ValidationError(["action"], `the tool ${tool.value} needs "action" as its second key`);
    const a = readStr(bytes, k.offset);
    action = a.value;
    offset = a.offset;
    count -= 1;
  }
  const head = new MsgpackWriter(8);
  head.map(count);
  const rest = new Uint8Array(head.bytes().length + bytes.length - offset);
  rest.set(head.bytes());
  rest.set(bytes.subarray(offset), head.bytes().length);
  const body = decodeMsgpack(rest, { useBigInt64: true });
  if (!isRecord(body)) throw new ValidationError([], "expected a MsgPack map");
  return finish(catalogue, tool.value, action, body, side, "msgpack");
}

function finish<Req extends { tool: string }, Res extends { tool: string }>(
  catalogue: Catalogue<Req, Res>,
  tool: string,
  action: string | undefined,
  body: Record<string, unknown>,
  side: Side,
  format: WireFormat,
): Req | Res {
  const toolShape = catalogue.shape.tools[tool];
  if (toolShape === undefined) throw new ValidationError(["tool"], `no tool is named ${JSON.stringify(tool)}`);
  const endpoint = toolShape.kind === "single" ? toolShape.endpoint : action === undefined ? undefined : toolShape.actions[action];
  if (endpoint === undefined) throw new ValidationError(["action"], `the tool ${tool} has no action ${JSON.stringify(action)}`);
  const typeName = endpoint[side];
  const def = typeName === null ? undefined : typeShape(catalogue.shape.types, typeName);
  const fields = def?.kind === "struct" ? def.fields : [];
  const key = side === "request" ? "args" : "data";
  const tagged: Record<string, unknown> = action === undefined ? { tool } : { tool, action };
  tagged[key] = readWireFields(body, fields, catalogue.shape.types, format);
  return side === "request" ? catalogue.parseRequest(tagged) : catalogue.parseResponse(tagged);
}

function readMapHeader(bytes: Uint8Array, offset: number): { count: number; offset: number } {
  const b = bytes[offset];
  if (b === undefined) throw new ValidationError([], "expected a MsgPack map, got nothing");
  if (b >= 0x80 && b <= 0x8f) return { count: b & 0x0f, offset: offset + 1 };
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (b === 0xde && offset + 3 <= bytes.length) return { count: view.getUint16(offset + 1), offset: offset + 3 };
  if (b === 0xdf && offset + 5 <= bytes.length) return { count: view.getUint32(offset + 1), offset: offset + 5 };
  throw new ValidationError([], "expected a MsgPack map");
}

function readStr(bytes: Uint8Array, offset: number): { value: string; offset: number } {
  const b = bytes[offset];
  let len: number;
  let start: number;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (b !== undefined && b >= 0xa0 && b <= 0xbf) (len = b & 0x1f), (start = offset + 1);
  else if (b === 0xd9 && offset + 2 <= bytes.length) (len = bytes[offset + 1]!), (start = offset + 2);
  else if (b === 0xda && offset + 3 <= bytes.length) (len = view.getUint16(offset + 1)), (start = offset + 3);
  else if (b === 0xdb && offset + 5 <= bytes.length) (len = view.getUint32(offset + 1)), (start = offset + 5);
  else throw new ValidationError([], "expected a MsgPack string");
  if (start + len > bytes.length) throw new ValidationError([], "a MsgPack string runs past the end of the input");
  return { value: utf8.decode(bytes.subarray(start, start + len)), offset: start + len };
}
