// TOOL_CALL and TOOL_RESULT frames of a typed catalogue. A call's payload
// is `{"toolName": tool, "args": {...}}`, where `args` is the request
// without its `tool` key (`action` first for an action tool); a result is
// `{"success": true, "toolName", "data": {...}, "duration"}` or
// `{"success": false, "toolName", "error": {"code", "message", "details"?},
// "duration"}`.

import { TOONError, ValidationError } from "./errors.js";
import { writeAnyJson, writeJsonFields } from "./json_writer.js";
import { MsgpackWriter, presentFields, writeAnyMsgpack, writeMsgpackFields } from "./msgpack_writer.js";
import { type CatalogueShape, type EndpointShape, type FieldShape, isRecord, setOwn, typeShape } from "./shape.js";
import {
  type DecodeOptions,
  type EncodeOptions,
  MessageType,
  type TOONHeader,
  type TOONVersion,
  TOONDecoder,
  TOONEncoder,
  parseBody,
} from "./toon.js";
import { type WireFormat, readAnyJson, readWireFields } from "./wire_reader.js";

/** What a catalogue gives the codec: its shapes and its validators. */
export interface Catalogue<Req extends { tool: string }, Res extends { tool: string }> {
  /** The wire layout of every tool and type. */
  readonly shape: CatalogueShape;
  /** Validates a request (with its `tool` key) and applies defaults. */
  parseRequest(value: unknown): Req;
  /** Validates a response (with its `tool` key) and applies defaults. */
  parseResponse(value: unknown): Res;
}

/** A tool's error as a `TOOL_RESULT` carries it. */
export interface ToolErrorPayload {
  /** Stable, machine-readable code (`NOT_FOUND`, `INVALID_REQUEST`, …). */
  code: string;
  /** What went wrong, for people. */
  message: string;
  /** The error value (`{"not_found": {...}}`) for a tool's own errors. */
  details?: unknown;
}

/** The outcome of a call as a `TOOL_RESULT` carries it. */
export type ToolResult<Res> =
  | { success: true; toolName: string; response: Res; duration: number }
  | { success: false; toolName: string; error: ToolErrorPayload; duration: number };

/** The endpoint a request or response value is for. */
function endpointOf(shape: CatalogueShape, value: Record<string, unknown>): { tool: string; action?: string; endpoint: EndpointShape } {
  const tool = value["tool"];
  if (typeof tool !== "string") throw new ValidationError(["tool"], "expected the tool's name");
  const toolShape = shape.tools[tool];
  if (toolShape === undefined) throw new ValidationError(["tool"], `no tool is named ${JSON.stringify(tool)}`);
  if (toolShape.kind === "single") return { tool, endpoint: toolShape.endpoint };
  const action = value["action"];
  if (typeof action !== "string") throw new ValidationError(["action"], `the tool ${tool} needs an action`);
  const endpoint = toolShape.actions[action];
  if (endpoint === undefined) {
    throw new ValidationError(["action"], `the tool ${tool} has no action ${JSON.stringify(action)}`);
  }
  return { tool, action, endpoint };
}

function fieldsOf(shape: CatalogueShape, type: string | null): readonly FieldShape[] {
  if (type === null) return [];
  const def = typeShape(shape.types, type);
  return def.kind === "struct" ? def.fields : [];
}

/** Writes the body of a request or response (`action` first, then the fields) as JSON or MsgPack. */
export function writeBody(
  shape: CatalogueShape,
  value: Record<string, unknown>,
  side: "request" | "response",
): { json: () => string; msgpack: (out: MsgpackWriter) => void; tool: string } {
  const { tool, action, endpoint } = endpointOf(shape, value);
  const fields = fieldsOf(shape, endpoint[side]);
  const bodyValue = value[side === "request" ? "args" : "data"];
  const body: Record<string, unknown> = isRecord(bodyValue) ? bodyValue : {};
  return {
    tool,
    json: () => {
      const parts = writeJsonFields(body, fields, shape.types);
      if (action !== undefined) parts.unshift(`"action":${JSON.stringify(action)}`);
      return `{${parts.join(",")}}`;
    },
    msgpack: (out) => {
      out.map(presentFields(body, fields).length + (action === undefined ? 0 : 1));
      if (action !== undefined) {
        out.str("action");
        out.str(action);
      }
      writeMsgpackFields(out, body, fields, shape.types);
    },
  };
}

const utf8 = new TextEncoder();

/** Encodes a validated request as a `TOOL_CALL` frame. */
export function encodeToolCallWith<Req extends { tool: string }, Res extends { tool: string }>(
  catalogue: Catalogue<Req, Res>,
  request: Req,
  sequenceId: number,
  options: EncodeOptions = {},
): Uint8Array {
  const value = catalogue.parseRequest(request) as unknown as Record<string, unknown>;
  const body = writeBody(catalogue.shape, value, "request");
  const version: TOONVersion = options.version ?? 1;
  let payload: Uint8Array;
  if (version === 1) {
    payload = utf8.encode(`{"toolName":${JSON.stringify(body.tool)},"args":${body.json()}}`);
  } else {
    const out = new MsgpackWriter();
    out.map(2);
    out.str("toolName");
    out.str(body.tool);
    out.str("args");
    body.msgpack(out);
    payload = out.bytes();
  }
  return new TOONEncoder(options).frame(MessageType.TOOL_CALL, payload, sequenceId);
}

/** Encodes the outcome of a call as a `TOOL_RESULT` frame. */
export function encodeToolResultWith<Req extends { tool: string }, Res extends { tool: string }>(
  catalogue: Catalogue<Req, Res>,
  result: ToolResult<Res>,
  sequenceId: number,
  options: EncodeOptions = {},
): Uint8Array {
  const version: TOONVersion = options.version ?? 1;
  let payload: Uint8Array;
  if (result.success) {
    const value = catalogue.parseResponse(result.response) as unknown as Record<string, unknown>;
    const body = writeBody(catalogue.shape, value, "response");
    if (version === 1) {
      payload = utf8.encode(
        `{"success":true,"toolName":${JSON.stringify(body.tool)},"data":${body.json()},"duration":${durationOf(result.duration)}}`,
      );
    } else {
      const out = new MsgpackWriter();
      out.map(4);
      out.str("success");
      out.bool(true);
      out.str("toolName");
      out.str(body.tool);
      out.str("data");
      body.msgpack(out);
      out.str("duration");
      out.int(durationOf(result.duration));
      payload = out.bytes();
    }
  } else {
    const { code, message, details } = result.error;
    if (version === 1) {
      const error = [`"code":${JSON.stringify(code)}`, `"message":${JSON.stringify(message)}`];
      if (details !== undefined && details !== null) error.push(`"details":${writeAnyJson(details)}`);
      payload = utf8.encode(
        `{"success":false,"toolName":${JSON.stringify(result.toolName)},"error":{${error.join(",")}},"duration":${durationOf(result.duration)}}`,
      );
    } else {
      const out = new MsgpackWriter();
      out.map(4);
      out.str("success");
      out.bool(false);
      out.str("toolName");
      out.str(result.toolName);
      out.str("error");
      const hasDetails = details !== undefined && details !== null;
      out.map(hasDetails ? 3 : 2);
      out.str("code");
      out.str(code);
      out.str("message");
      out.str(message);
      if (hasDetails) {
        out.str("details");
        writeAnyMsgpack(out, details);
      }
      out.str("duration");
      out.int(durationOf(result.duration));
      payload = out.bytes();
    }
  }
  return new TOONEncoder(options).frame(MessageType.TOOL_RESULT, payload, sequenceId);
}

function durationOf(ms: number): number {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new ValidationError(["duration"], `${ms} is not a whole number of milliseconds`);
  return ms;
}

/** Rebuilds a tagged request or response from a payload's tool name and body. */
function readTagged<T>(
  shape: CatalogueShape,
  toolName: unknown,
  body: unknown,
  side: "request" | "response",
  format: WireFormat,
  parse: (value: unknown) => T,
): T {
  if (typeof toolName !== "string") throw new ValidationError(["toolName"], "expected the tool's name");
  if (!isRecord(body)) throw new ValidationError([side === "request" ? "args" : "data"], "expected an object");
  const tagged: Record<string, unknown> = { tool: toolName };
  if (typeof body["action"] === "string") tagged["action"] = body["action"];
  const { endpoint } = endpointOf(shape, tagged);
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(body)) if (key !== "action") setOwn(rest, key, body[key]);
  tagged[side === "request" ? "args" : "data"] = readWireFields(rest, fieldsOf(shape, endpoint[side]), shape.types, format);
  return parse(tagged);
}

/** Turns a validation failure into the codec's `invalid_payload`. */
function asPayloadError(error: unknown): never {
  if (error instanceof TOONError) throw error;
  const reason = error instanceof Error ? error.message : String(error);
  throw new TOONError("invalid_payload", reason, { cause: error });
}

function decoderOf(decoder: TOONDecoder | DecodeOptions | undefined): TOONDecoder {
  return decoder instanceof TOONDecoder ? decoder : new TOONDecoder(decoder);
}

function formatOf(header: TOONHeader): WireFormat {
  return header.version === 1 ? "json" : "msgpack";
}

/**
 * Decodes a `TOOL_CALL` frame into a validated request (defaults applied).
 *
 * @throws {TOONError} of the frame's kind, or `invalid_payload` naming the field.
 */
export function decodeToolCallWith<Req extends { tool: string }, Res extends { tool: string }>(
  catalogue: Catalogue<Req, Res>,
  bytes: Uint8Array,
  decoder?: TOONDecoder | DecodeOptions,
): { header: TOONHeader; request: Req } {
  const frame = decoderOf(decoder).decodeFrame(bytes);
  if (frame.header.type !== MessageType.TOOL_CALL) {
    throw new TOONError("invalid_payload", `expected a TOOL_CALL frame, got message type ${frame.header.type}`);
  }
  const payload = parseBody(frame);
  try {
    if (!isRecord(payload)) throw new ValidationError([], "a TOOL_CALL payload is an object");
    const request = readTagged(
      catalogue.shape,
      payload["toolName"],
      payload["args"],
      "request",
      formatOf(frame.header),
      (v) => catalogue.parseRequest(v),
    );
    return { header: frame.header, request };
  } catch (error) {
    return asPayloadError(error);
  }
}

/**
 * Decodes a `TOOL_RESULT` frame into a validated outcome.
 *
 * @throws {TOONError} of the frame's kind, or `invalid_payload` naming the field.
 */
export function decodeToolResultWith<Req extends { tool: string }, Res extends { tool: string }>(
  catalogue: Catalogue<Req, Res>,
  bytes: Uint8Array,
  decoder?: TOONDecoder | DecodeOptions,
): { header: TOONHeader; result: ToolResult<Res> } {
  const frame = decoderOf(decoder).decodeFrame(bytes);
  if (frame.header.type !== MessageType.TOOL_RESULT) {
    throw new TOONError("invalid_payload", `expected a TOOL_RESULT frame, got message type ${frame.header.type}`);
  }
  const payload = parseBody(frame);
  try {
    if (!isRecord(payload)) throw new ValidationError([], "a TOOL_RESULT payload is an object");
    const { success, toolName, duration } = payload;
    if (typeof toolName !== "string") throw new ValidationError(["toolName"], "expected the tool's name");
    if (typeof duration !== "number" || !Number.isSafeInteger(duration) || duration < 0) {
      throw new ValidationError(["duration"], "expected a whole number of milliseconds");
    }
    if (success === true) {
      const response = readTagged(catalogue.shape, toolName, payload["data"], "response", formatOf(frame.header), (v) =>
        catalogue.parseResponse(v),
      );
      return { header: frame.header, result: { success: true, toolName, response, duration } };
    }
    if (success !== false) throw new ValidationError(["success"], "expected true or false");
    const error = payload["error"];
    if (!isRecord(error) || typeof error["code"] !== "string" || typeof error["message"] !== "string") {
      throw new ValidationError(["error"], 'expected {"code": string, "message": string, "details"?: any}');
    }
    const out: ToolErrorPayload = { code: error["code"], message: error["message"] };
    if (error["details"] !== undefined && error["details"] !== null) out.details = readAnyJson(error["details"]);
    return { header: frame.header, result: { success: false, toolName, error: out, duration } };
  } catch (e) {
    return asPayloadError(e);
  }
}
