// TOOL_CALL and TOOL_RESULT frames of a typed catalogue. A call's payload
// is `{"toolName": tool, "args": {...}}`, where `args` is the request
// without its `tool` key (`action` first for an action tool); a result is
// `{"success": true, "toolName", "data": {...}, "duration"}` or
// `{"success": false, "toolName", "error": {"code", "message", "details"?},
// "duration"}`.

import { formatOf, writeCanonical } from "./canonical.js";
import { TOONError, ValidationError } from "./errors.js";
import { type CatalogueShape, type EndpointShape, type FieldShape, isRecord, setOwn, typeShape } from "./shape.js";
import { type ShapeSink, presentFields, writeAny, writeFields } from "./shape_writer.js";
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

/**
 * Writes the body of a request or response as one map: `action` first for
 * an action tool, then the fields; with `tagged`, `tool` before them all
 * (the docs/wire.md form).
 */
export function writeBody(
  shape: CatalogueShape,
  value: Record<string, unknown>,
  side: "request" | "response",
): { write: (out: ShapeSink, tagged?: boolean) => void; tool: string } {
  const { tool, action, endpoint } = endpointOf(shape, value);
  const fields = fieldsOf(shape, endpoint[side]);
  const bodyValue = value[side === "request" ? "args" : "data"];
  const body: Record<string, unknown> = isRecord(bodyValue) ? bodyValue : {};
  return {
    tool,
    write: (out, tagged = false) => {
      out.map(presentFields(body, fields).length + (tagged ? 1 : 0) + (action === undefined ? 0 : 1));
      if (tagged) {
        out.key("tool");
        out.str(tool);
      }
      if (action !== undefined) {
        out.key("action");
        out.str(action);
      }
      writeFields(out, body, fields, shape.types);
      out.mapEnd();
    },
  };
}

/** Encodes a validated request as a `TOOL_CALL` frame. */
export function encodeToolCallWith<Req extends { tool: string }, Res extends { tool: string }>(
  catalogue: Catalogue<Req, Res>,
  request: Req,
  sequenceId: number,
  options: EncodeOptions = {},
): Uint8Array {
  const value = catalogue.parseRequest(request) as unknown as Record<string, unknown>;
  const body = writeBody(catalogue.shape, value, "request");
  const payload = writeCanonical(formatOf(options.version ?? 1), (out) => {
    out.map(2);
    out.key("toolName");
    out.str(body.tool);
    out.key("args");
    body.write(out);
    out.mapEnd();
  });
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
    payload = writeCanonical(formatOf(version), (out) => {
      out.map(4);
      out.key("success");
      out.bool(true);
      out.key("toolName");
      out.str(body.tool);
      out.key("data");
      body.write(out);
      out.key("duration");
      out.int(durationOf(result.duration));
      out.mapEnd();
    });
  } else {
    const { code, message, details } = result.error;
    const hasDetails = details !== undefined && details !== null;
    payload = writeCanonical(formatOf(version), (out) => {
      out.map(4);
      out.key("success");
      out.bool(false);
      out.key("toolName");
      out.str(result.toolName);
      out.key("error");
      out.map(hasDetails ? 3 : 2);
      out.key("code");
      out.str(code);
      out.key("message");
      out.str(message);
      if (hasDetails) {
        out.key("details");
        writeAny(out, details);
      }
      out.mapEnd();
      out.key("duration");
      out.int(durationOf(result.duration));
      out.mapEnd();
    });
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
      formatOf(frame.header.version),
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
      const response = readTagged(catalogue.shape, toolName, payload["data"], "response", formatOf(frame.header.version), (v) =>
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
