// A Toolwright server's routes for web frontends (docs/web.md): calls as
// JSON over HTTP, TOON frames over a WebSocket, the tool metadata, and the
// live tool events. Generic over the catalogue, like client.ts.

import type { Catalogue, ToolResult } from "./calls.js";
import { ToolCallError, type TOONTransport } from "./client.js";
import type {
  CallErrorEvent,
  PromptMetadata,
  ResourceMetadata,
  ToolCompleteEvent,
  ToolEvent,
  ToolMetadata,
  ToolStartEvent,
} from "./metadata.js";
import { MessageType } from "./toon.js";
import { readWireJson, writeWireJson } from "./wire.js";

/** How requests reach a server. */
export interface WebOptions {
  /** The bearer token, when the server needs one. */
  token?: string;
  /** The `fetch` to use (default the global one). */
  fetch?: typeof fetch;
}

/** How {@link HttpCaller} calls. */
export interface HttpCallOptions extends WebOptions {
  /**
   * How long the server waits for a call that runs as a job: `"done"` (the
   * default) until it ends, a number of milliseconds, or `"default"` for
   * the tool's own timing. A call still running then answers `JOB_STARTED`.
   */
  wait?: "done" | "default" | number;
}

/** Sends typed requests somewhere and resolves with their typed outcome. */
export interface ToolCaller<Req extends { tool: string }, Res extends { tool: string }> {
  /** Sends `request`; resolves with the outcome as the server reported it. */
  send(request: Req): Promise<ToolResult<Res>>;
  /** Sends `request`; resolves with the response, or rejects with a {@link ToolCallError}. */
  call(request: Req): Promise<Res>;
}

/** The server's URL for `path`, below `base` (which may carry a path prefix). */
function route(base: string | URL, path: string): URL {
  const url = new URL(String(base));
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return new URL(path, url);
}

function headersFor(options: WebOptions, extra: Record<string, string> = {}): Headers {
  const headers = new Headers(extra);
  if (options.token !== undefined) headers.set("authorization", `Bearer ${options.token}`);
  return headers;
}

/** A failed answer that is not an envelope (`401`, `403`, `413`). */
async function httpError(response: Response, what: string): Promise<Error> {
  const text = await response.text().catch(() => "");
  return new Error(`${what} answered ${response.status}${text ? `: ${text}` : ""}`);
}

/**
 * Calls tools as JSON: `POST {base}/api/tools/{name}` with the request's
 * arguments, validated before sending; the answer's envelope is validated
 * into a typed outcome.
 */
export class HttpCaller<Req extends { tool: string }, Res extends { tool: string }> implements ToolCaller<Req, Res> {
  private readonly doFetch: typeof fetch;

  /** @param catalogue the generated catalogue; @param base the server's URL. */
  constructor(
    private readonly catalogue: Catalogue<Req, Res>,
    private readonly base: string | URL,
    private readonly options: HttpCallOptions = {},
  ) {
    this.doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  async send(request: Req): Promise<ToolResult<Res>> {
    // The canonical wire form: validated, defaults applied, bytes as base64.
    const { tool, ...args } = JSON.parse(writeWireJson(this.catalogue, request, "request")) as Record<string, unknown>;
    const name = String(tool);
    const url = route(this.base, `api/tools/${encodeURIComponent(name)}`);
    const wait = this.options.wait ?? "done";
    if (wait !== "default") url.searchParams.set("wait", String(wait));
    const started = Date.now();
    const response = await this.doFetch(url, {
      method: "POST",
      headers: headersFor(this.options, { "content-type": "application/json" }),
      body: JSON.stringify(args),
    });
    if (!(response.headers.get("content-type") ?? "").startsWith("application/json")) {
      throw await httpError(response, `POST ${url.pathname}`);
    }
    const envelope = (await response.json()) as Record<string, unknown>;
    const duration = Date.now() - started;
    if ("success" in envelope) {
      const value = readWireJson(this.catalogue, JSON.stringify(envelope["success"]), "response") as Res;
      return { success: true, toolName: name, response: value, duration };
    }
    if ("error" in envelope) {
      const error = envelope["error"] as { code: string; message: string; details?: unknown };
      return { success: false, toolName: name, error, duration };
    }
    const job = (envelope["job_started"] ?? {}) as { job_id?: string };
    return {
      success: false,
      toolName: name,
      error: {
        code: "JOB_STARTED",
        message: `the call runs on as job ${job.job_id ?? "?"}; follow it with the job tools`,
        details: envelope["job_started"],
      },
      duration,
    };
  }

  async call(request: Req): Promise<Res> {
    const result = await this.send(request);
    if (!result.success) throw new ToolCallError(result.toolName, result.error);
    return result.response;
  }
}

/** How {@link connectToon} connects. */
export interface ToonSocketOptions {
  /**
   * The bearer token. A browser's WebSocket cannot send headers, so it
   * goes in the URL as `access_token` (RFC 6750 § 2.3), which the server
   * accepts on this route only.
   */
  token?: string;
  /** Called with each `STATUS` frame's progress (0 to 1) and its call's sequence id. */
  onProgress?: (sequenceId: number, progress: number) => void;
  /** The WebSocket class (default the global one; Node 20 needs `--experimental-websocket`). */
  webSocket?: typeof WebSocket;
}

/** A {@link TOONTransport} over one WebSocket; close it when done. */
export interface ToonSocket extends TOONTransport {
  /** Closes the socket; calls still waiting reject. */
  close(): void;
}

/** The sequence id of a frame (header bytes 14..18, little-endian). */
function sequenceOf(frame: Uint8Array): number {
  return new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getUint32(14, true);
}

/**
 * Opens a WebSocket to `{base}/api/toon` and resolves once it is open.
 * Each `exchange` sends a `TOOL_CALL` frame and resolves with the
 * `TOOL_RESULT` (or `ERROR`) frame of the same sequence id; calls on one
 * socket run concurrently.
 */
export function connectToon(base: string | URL, options: ToonSocketOptions = {}): Promise<ToonSocket> {
  const url = route(base, "api/toon");
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const Socket = options.webSocket ?? globalThis.WebSocket;
  if (options.token !== undefined) url.searchParams.set("access_token", options.token);
  const socket = new Socket(url);
  socket.binaryType = "arraybuffer";
  const waiting = new Map<number, { resolve: (frame: Uint8Array) => void; reject: (e: Error) => void }>();
  const failAll = (error: Error): void => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  socket.addEventListener("message", (event: MessageEvent) => {
    if (!(event.data instanceof ArrayBuffer)) return;
    const frame = new Uint8Array(event.data);
    if (frame.length < 18) return;
    const seq = sequenceOf(frame);
    const type = frame[1];
    if (type === MessageType.STATUS) {
      if (options.onProgress) {
        try {
          const status = JSON.parse(new TextDecoder().decode(frame.subarray(18))) as { progress?: number };
          if (typeof status.progress === "number") options.onProgress(seq, status.progress);
        } catch {
          // A version 2 status (MsgPack) carries nothing a progress bar needs to parse here.
        }
      }
      return;
    }
    if (type !== MessageType.TOOL_RESULT && type !== MessageType.ERROR) return;
    const entry = waiting.get(seq);
    if (entry === undefined) return;
    waiting.delete(seq);
    entry.resolve(frame);
  });
  socket.addEventListener("close", () => failAll(new Error("the TOON socket closed")));
  return new Promise((resolve, reject) => {
    socket.addEventListener("open", () =>
      resolve({
        exchange(frame: Uint8Array): Promise<Uint8Array> {
          return new Promise((resolveFrame, rejectFrame) => {
            if (socket.readyState !== Socket.OPEN) {
              rejectFrame(new Error("the TOON socket is not open"));
              return;
            }
            waiting.set(sequenceOf(frame), { resolve: resolveFrame, reject: rejectFrame });
            socket.send(frame.slice());
          });
        },
        close(): void {
          socket.close(1000);
        },
      }),
    );
    socket.addEventListener("error", () => reject(new Error(`cannot open ${url.origin}${url.pathname}`)), { once: true });
  });
}

/** The `GET /api/tools` document, with its ETag for revalidation. */
export interface ToolDocument {
  /** Every tool's metadata. */
  readonly tools: readonly ToolMetadata[];
  /** Every resource's metadata (empty from a server that serves none, or predates them). */
  readonly resources: readonly ResourceMetadata[];
  /** Every prompt's metadata, likewise. */
  readonly prompts: readonly PromptMetadata[];
  /** The ETag to send as `If-None-Match` next time. */
  readonly etag?: string;
}

/**
 * Fetches the tools a server offers. With `etag` (from an earlier answer),
 * resolves with `undefined` when nothing changed.
 */
export async function fetchTools(
  base: string | URL,
  options: WebOptions & { etag?: string } = {},
): Promise<ToolDocument | undefined> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const extra: Record<string, string> = options.etag === undefined ? {} : { "if-none-match": options.etag };
  const response = await doFetch(route(base, "api/tools"), { headers: headersFor(options, extra) });
  if (response.status === 304) return undefined;
  if (!response.ok) throw await httpError(response, "GET /api/tools");
  const document = (await response.json()) as {
    tools: ToolMetadata[];
    resources?: ResourceMetadata[];
    prompts?: PromptMetadata[];
  };
  const entries = { tools: document.tools, resources: document.resources ?? [], prompts: document.prompts ?? [] };
  const etag = response.headers.get("etag") ?? undefined;
  return etag === undefined ? entries : { ...entries, etag };
}

/** What {@link subscribeToolEvents} calls. */
export interface ToolEventHandlers {
  /** Each `tool_start`. */
  onStart?: (event: ToolStartEvent) => void;
  /** Each `tool_complete`. */
  onComplete?: (event: ToolCompleteEvent) => void;
  /** Each `error`: a call that failed before it started. */
  onError?: (event: CallErrorEvent) => void;
  /** Every event, both kinds. */
  onEvent?: (event: ToolEvent) => void;
  /** When this subscriber fell behind and the server dropped `missed` events. */
  onLagged?: (missed: number) => void;
}

/** How {@link subscribeToolEvents} subscribes. */
export interface SubscribeOptions extends WebOptions {
  /** Only these tools' events. */
  tools?: readonly string[];
  /** Aborting it ends the subscription. */
  signal?: AbortSignal;
}

/**
 * Follows `GET {base}/api/events` (Server-Sent Events, read with `fetch` so
 * the token can be sent) and calls `handlers` for each event. Resolves when
 * the stream ends or `options.signal` aborts; rejects when the server
 * refuses it.
 */
export async function subscribeToolEvents(
  base: string | URL,
  handlers: ToolEventHandlers,
  options: SubscribeOptions = {},
): Promise<void> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const url = route(base, "api/events");
  for (const tool of options.tools ?? []) url.searchParams.append("tool", tool);
  const init: RequestInit = { headers: headersFor(options, { accept: "text/event-stream" }) };
  if (options.signal !== undefined) init.signal = options.signal;
  let response: Response;
  try {
    response = await doFetch(url, init);
  } catch (error) {
    if (options.signal?.aborted) return;
    throw error;
  }
  if (!response.ok || response.body === null) throw await httpError(response, "GET /api/events");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n?/g, "\n");
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        dispatch(buffer.slice(0, end), handlers);
        buffer = buffer.slice(end + 2);
      }
    }
  } catch (error) {
    if (options.signal?.aborted) return;
    throw error;
  }
}

/** Hands one SSE block (`event:`, `data:`, `id:` lines) to the handlers. */
function dispatch(block: string, handlers: ToolEventHandlers): void {
  let name = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  if (data.length === 0) return;
  const payload = JSON.parse(data.join("\n")) as Record<string, unknown>;
  if (name === "lagged") {
    handlers.onLagged?.(Number(payload["missed"] ?? 0));
    return;
  }
  const event = payload as unknown as ToolEvent;
  if (event.type === "tool_start") handlers.onStart?.(event);
  else if (event.type === "tool_complete") handlers.onComplete?.(event);
  else if (event.type === "error") handlers.onError?.(event);
  else return;
  handlers.onEvent?.(event);
}
