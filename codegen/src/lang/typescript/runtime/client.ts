// A client that sends TOON frames through a transport of the caller's
// choosing and answers with validated, typed results.

import {
  type Catalogue,
  type ToolErrorPayload,
  type ToolResult,
  decodeToolResultWith,
  encodeToolCallWith,
} from "./calls.js";
import { type DecodeOptions, type TOONVersion, TOONDecoder } from "./toon.js";

/** Carries one TOON frame to a server and brings its answer back. */
export interface TOONTransport {
  /** Sends a `TOOL_CALL` frame; resolves with the `TOOL_RESULT` frame that answers it. */
  exchange(frame: Uint8Array): Promise<Uint8Array>;
}

/** A call that reached the server and failed there. */
export class ToolCallError extends Error {
  /** Stable, machine-readable code. */
  readonly code: string;
  /** The tool's error value, for its own error codes. */
  readonly details: unknown;
  /** The tool called. */
  readonly toolName: string;

  /** @param toolName the tool; @param error what the server answered. */
  constructor(toolName: string, error: ToolErrorPayload) {
    super(`${toolName} failed with ${error.code}: ${error.message}`);
    this.name = "ToolCallError";
    this.code = error.code;
    this.details = error.details;
    this.toolName = toolName;
  }
}

/** How a client frames its calls. */
export interface ClientOptions {
  /** TOON version of the frames sent (default 1). */
  version?: TOONVersion;
  /** Limits on the frames received. */
  decode?: DecodeOptions;
}

/** Sends typed requests as `TOOL_CALL` frames and reads typed `TOOL_RESULT`s. */
export class TOONClient<Req extends { tool: string }, Res extends { tool: string }> {
  private sequence = 0;
  private readonly decoder: TOONDecoder;

  /** @param catalogue the generated catalogue; @param transport how frames travel. */
  constructor(
    private readonly catalogue: Catalogue<Req, Res>,
    private readonly transport: TOONTransport,
    private readonly options: ClientOptions = {},
  ) {
    this.decoder = new TOONDecoder(options.decode);
  }

  /** Sends `request`; resolves with the outcome as the server reported it. */
  async send(request: Req): Promise<ToolResult<Res>> {
    this.sequence = (this.sequence + 1) >>> 0;
    const version = this.options.version ?? 1;
    const frame = encodeToolCallWith(this.catalogue, request, this.sequence, { version });
    const answer = await this.transport.exchange(frame);
    return decodeToolResultWith(this.catalogue, answer, this.decoder).result;
  }

  /** Sends `request`; resolves with the response, or rejects with a {@link ToolCallError}. */
  async call(request: Req): Promise<Res> {
    const result = await this.send(request);
    if (!result.success) throw new ToolCallError(result.toolName, result.error);
    return result.response;
  }
}

/**
 * A transport that POSTs each frame to `url` (content type
 * `application/x-toon`) and reads the answer's body as the result frame.
 */
export function httpTransport(url: string | URL, init: Omit<RequestInit, "body" | "method"> = {}): TOONTransport {
  return {
    async exchange(frame: Uint8Array): Promise<Uint8Array> {
      const headers = new Headers(init.headers);
      headers.set("content-type", "application/x-toon");
      const response = await fetch(url, { ...init, method: "POST", headers, body: frame.slice() });
      if (!response.ok) throw new Error(`POST ${String(url)} answered ${response.status} ${response.statusText}`);
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}
