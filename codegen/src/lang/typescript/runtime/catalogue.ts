// The catalogue's typed TOON calls: requests and results checked by the
// generated schemas and written in the generated shapes' canonical form.

import {
  type Catalogue,
  type ToolResult,
  decodeToolCallWith,
  decodeToolResultWith,
  encodeToolCallWith,
  encodeToolResultWith,
} from "./calls.js";
import { type ClientOptions, TOONClient, type TOONTransport } from "./client.js";
import { ValidationError } from "./errors.js";
import { ToolRequestSchema, ToolResponseSchema } from "./schemas.js";
import { SHAPES } from "./shapes.js";
import type { DecodeOptions, EncodeOptions, TOONDecoder, TOONHeader } from "./toon.js";
import type { ToolArgs, ToolData, ToolName, ToolRequest, ToolResponse } from "./types.js";
import { describeIssues } from "./validate.js";
import { HttpCaller, type HttpCallOptions, type ToolCaller } from "./web.js";
import { readWireJson, readWireMsgpack, writeWireJson, writeWireMsgpack } from "./wire.js";
import type { z } from "zod";

function parseWith<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new ValidationError([], describeIssues(result.error));
  return result.data;
}

/** This catalogue, as the codec needs it. */
export const CATALOGUE: Catalogue<ToolRequest, ToolResponse> = {
  shape: SHAPES,
  parseRequest: (value) => parseWith(ToolRequestSchema, value),
  parseResponse: (value) => parseWith(ToolResponseSchema, value),
};

/**
 * Validates a request (applying defaults) and returns it typed.
 *
 * @throws {ValidationError} naming the field.
 */
export function parseToolRequest(value: unknown): ToolRequest {
  return CATALOGUE.parseRequest(value);
}

/**
 * Validates a response (applying defaults) and returns it typed.
 *
 * @throws {ValidationError} naming the field.
 */
export function parseToolResponse(value: unknown): ToolResponse {
  return CATALOGUE.parseResponse(value);
}

/** A request as docs/wire.md writes it in JSON: `{"tool": "add", "a": 1, "b": 2}`. */
export function requestToJson(request: ToolRequest): string {
  return writeWireJson(CATALOGUE, request, "request");
}

/** A request as docs/wire.md writes it in MsgPack (canonical). */
export function requestToMsgpack(request: ToolRequest): Uint8Array {
  return writeWireMsgpack(CATALOGUE, request, "request");
}

/** Reads and validates a request from its JSON wire form (first key `tool`). */
export function requestFromJson(text: string): ToolRequest {
  return readWireJson(CATALOGUE, text, "request") as ToolRequest;
}

/** Reads and validates a request from its MsgPack wire form (first key `tool`). */
export function requestFromMsgpack(bytes: Uint8Array): ToolRequest {
  return readWireMsgpack(CATALOGUE, bytes, "request") as ToolRequest;
}

/** A response as docs/wire.md writes it in JSON: `{"tool": "add", "result": 3}`. */
export function responseToJson(response: ToolResponse): string {
  return writeWireJson(CATALOGUE, response, "response");
}

/** A response as docs/wire.md writes it in MsgPack (canonical). */
export function responseToMsgpack(response: ToolResponse): Uint8Array {
  return writeWireMsgpack(CATALOGUE, response, "response");
}

/** Reads and validates a response from its JSON wire form (first key `tool`). */
export function responseFromJson(text: string): ToolResponse {
  return readWireJson(CATALOGUE, text, "response") as ToolResponse;
}

/** Reads and validates a response from its MsgPack wire form (first key `tool`). */
export function responseFromMsgpack(bytes: Uint8Array): ToolResponse {
  return readWireMsgpack(CATALOGUE, bytes, "response") as ToolResponse;
}

/** Encodes a request as a `TOOL_CALL` frame (validated first). */
export function encodeToolCall(request: ToolRequest, sequenceId: number, options?: EncodeOptions): Uint8Array {
  return encodeToolCallWith(CATALOGUE, request, sequenceId, options);
}

/** Decodes a `TOOL_CALL` frame into a validated request. */
export function decodeToolCall(
  bytes: Uint8Array,
  decoder?: TOONDecoder | DecodeOptions,
): { header: TOONHeader; request: ToolRequest } {
  return decodeToolCallWith(CATALOGUE, bytes, decoder);
}

/** Encodes a call's outcome as a `TOOL_RESULT` frame (a response is validated first). */
export function encodeToolResult(result: ToolResult<ToolResponse>, sequenceId: number, options?: EncodeOptions): Uint8Array {
  return encodeToolResultWith(CATALOGUE, result, sequenceId, options);
}

/** Decodes a `TOOL_RESULT` frame into a validated outcome. */
export function decodeToolResult(
  bytes: Uint8Array,
  decoder?: TOONDecoder | DecodeOptions,
): { header: TOONHeader; result: ToolResult<ToolResponse> } {
  return decodeToolResultWith(CATALOGUE, bytes, decoder);
}

/** Calls the catalogue's tools through a transport, with typed arguments and results. */
export class ToolClient {
  private readonly client: ToolCaller<ToolRequest, ToolResponse>;

  /**
   * @param transport how calls travel: a {@link TOONTransport} for TOON
   * frames (HTTP, a WebSocket from {@link connectToon}, your own), or a
   * {@link ToolCaller} such as {@link HttpCaller}.
   * @param options TOON version and decode limits (TOON transports only).
   */
  constructor(transport: TOONTransport | ToolCaller<ToolRequest, ToolResponse>, options?: ClientOptions) {
    this.client = "exchange" in transport ? new TOONClient(CATALOGUE, transport, options) : transport;
  }

  /** A client that calls a server's `POST /api/tools/{name}` with JSON (docs/web.md). */
  static overHttp(base: string | URL, options?: HttpCallOptions): ToolClient {
    return new ToolClient(new HttpCaller(CATALOGUE, base, options));
  }

  /**
   * Calls `tool` with `args`; resolves with its response's fields (an empty
   * object for an acknowledgement), or rejects with a `ToolCallError`.
   */
  async callTool<T extends ToolName, A extends ToolArgs<T>>(tool: T, args: A): Promise<ToolData<T, A>> {
    let request: unknown = { tool, args };
    if (SHAPES.tools[tool]?.kind === "actions") {
      // An action tool's `action` is a tag beside the arguments.
      const { action, ...rest } = args as { action?: unknown };
      request = { tool, action, args: rest };
    }
    const response = await this.client.call(request as ToolRequest);
    return (response.data ?? {}) as unknown as ToolData<T, A>;
  }
}
