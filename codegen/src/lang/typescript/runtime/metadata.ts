// Tool metadata for frontends (discovery, badges, forms) and the events a
// server emits while tools run.

import type { JsonValue } from "./validate.js";

/** Where a tool is served from: the catalogue itself, or an MCP server. */
export type ToolSource = "local" | "mcp";

/** How a tool's result reaches its caller. */
export type ToolTiming = "sync" | "async_short" | "async_medium" | "async_long" | "fire_and_forget";

/** MCP tool annotations. */
export interface ToolAnnotations {
  /** The tool does not modify its environment. */
  readonly readOnlyHint: boolean;
  /** The tool may perform destructive updates. */
  readonly destructiveHint: boolean;
  /** Calling again with the same arguments has no further effect. */
  readonly idempotentHint: boolean;
  /** The tool interacts with an open world of external entities. */
  readonly openWorldHint: boolean;
}

/** A JSON Schema (2020-12): `GET /api/tools` carries each tool's, action's, resource's and prompt's. */
export type JsonSchema = { readonly [keyword: string]: JsonValue };

/** One argument of a tool or action. */
export interface ToolParameter {
  /** Wire name. */
  readonly name: string;
  /**
   * JSON Schema type: `string`, `integer`, `number`, `boolean`, `array` or `object`.
   * Absent for a `json` parameter, whose value may be any JSON value.
   */
  readonly type?: string;
  /** The IDL type, e.g. `u32`, `list<string>`, `AudioFormat?`. */
  readonly idlType: string;
  /** What it means. */
  readonly description?: string;
  /** True when a caller must send it. */
  readonly required: boolean;
  /** The value used when it is left out. */
  readonly default?: JsonValue;
  /** `@range` (`[min, max]`), `@length` (`[min, max]`) and `@pattern`, when declared. */
  readonly constraints?: ParameterConstraints;
  /** Set when deprecated: why, and what to use instead (may be empty). */
  readonly deprecated?: string;
  /**
   * In an action tool's own `parameters`: the actions that take it, in
   * declaration order (absent for `action` and everywhere else). A call of
   * one action sends `action` and the parameters that list it.
   */
  readonly actions?: readonly string[];
}

/** A parameter's declared constraints. */
export interface ParameterConstraints {
  /** Inclusive numeric bounds. */
  readonly range?: readonly [number, number];
  /** Inclusive length bounds: characters, bytes, or entries. */
  readonly length?: readonly [number, number];
  /** A regular expression strings must match. */
  readonly pattern?: string;
}

/** One of a tool's own errors. */
export interface ToolErrorMetadata {
  /** Stable code, as in `ToolCallError.code`. */
  readonly code: string;
  /** The error variant's IDL name. */
  readonly name: string;
  /** When it happens. */
  readonly description?: string;
}

/** What a streaming tool sends while it runs. */
export interface ToolStreamMetadata {
  /** The IDL type of each chunk. */
  readonly idlType: string;
  /** What the chunks are. */
  readonly description?: string;
}

/**
 * A sample call made from the types, each argument within its field's
 * constraints: what a form starts from when no example is declared. It has
 * no response: only a declared example says what a tool answers.
 */
export interface ToolSample {
  /** The arguments (with `action` for an action). */
  readonly request: JsonValue;
}

/** The error a declared example fails with. */
export interface ToolExampleError {
  /** Its stable code, such as `OVERFLOW`. */
  readonly code: string;
  /** The error's details as the wire carries them (`{"variant": {fields}}`), when the example states them. */
  readonly details?: JsonValue;
}

/**
 * A declared example, checked against the types by `toolwright check` and
 * run against the handlers by the server's tests: a call, and the response
 * it answers or the error it fails with (neither: the call succeeds).
 */
export interface ToolExample {
  /** What it shows, unique within its tool or action. */
  readonly title: string;
  /** The arguments (with `action` for an action). */
  readonly request: JsonValue;
  /** The response it answers. */
  readonly response?: JsonValue;
  /** The error it fails with. */
  readonly error?: ToolExampleError;
}

/** One action of an action tool. */
export interface ActionMetadata {
  /** Wire name (the `action` argument). */
  readonly name: string;
  /** Human-readable title. */
  readonly title?: string;
  /** What it does. */
  readonly description?: string;
  /** How its result reaches the caller. */
  readonly timing: ToolTiming;
  /** True when it answers a page at a time (`cursor` in, `paging` out). */
  readonly paged?: boolean;
  /** Its arguments. */
  readonly parameters: readonly ToolParameter[];
  /** The fields of its response; absent for an acknowledgement. */
  readonly response?: readonly ToolParameter[];
  /** A sample call made from the types. */
  readonly example: ToolSample;
  /** Its declared examples. */
  readonly examples?: readonly ToolExample[];
  /** Set when deprecated: why, and what to use instead (may be empty). */
  readonly deprecated?: string;
  /** The schema its arguments (with `action`) are checked against (`GET /api/tools`; not in `TOOLS`). */
  readonly inputSchema?: JsonSchema;
  /** The schema of its response (`GET /api/tools`; not in `TOOLS`). */
  readonly outputSchema?: JsonSchema;
}

/** What a frontend knows about a tool. */
export interface ToolMetadata {
  /** Wire name. */
  readonly name: string;
  /** Human-readable title. */
  readonly title?: string;
  /** What it does. */
  readonly description?: string;
  /** The category of the file that declares it. */
  readonly category: string;
  /** Where it is served from. */
  readonly source: ToolSource;
  /**
   * Whether the server has a handler for it (`false`: calls answer
   * `NOT_IMPLEMENTED`); absent where the server does not say, as in the
   * generated registry (`GET /api/tools`; docs/web.md).
   */
  readonly served?: boolean;
  /** How its result reaches the caller (absent for action tools: see each action). */
  readonly timing?: ToolTiming;
  /** MCP annotations. */
  readonly annotations: ToolAnnotations;
  /** The OAuth scopes a call needs, all of them; empty when it needs none. */
  readonly scopes: readonly string[];
  /** Its arguments (for an action tool, just `action`). */
  readonly parameters: readonly ToolParameter[];
  /** The actions of an action tool. */
  readonly actions?: readonly ActionMetadata[];
  /** The codes of the tool's own errors. */
  readonly errorCodes: readonly string[];
  /** The tool's own errors, with what they mean. */
  readonly errors?: readonly ToolErrorMetadata[];
  /** The fields of its response (single tools; absent for an acknowledgement). */
  readonly response?: readonly ToolParameter[];
  /** True when it streams chunks while it runs. */
  readonly streams: boolean;
  /** True when it answers a page at a time (`cursor` in, `paging` out). */
  readonly paged?: boolean;
  /** What it streams. */
  readonly stream?: ToolStreamMetadata;
  /** A sample call made from the types (single tools; see each action). */
  readonly example?: ToolSample;
  /** Its declared examples (single tools; see each action). */
  readonly examples?: readonly ToolExample[];
  /** Set when deprecated: why, and what to use instead (may be empty). */
  readonly deprecated?: string;
  /** MCP's `inputSchema`: what its arguments are checked against (`GET /api/tools`; not in `TOOLS`). */
  readonly inputSchema?: JsonSchema;
  /** MCP's `outputSchema`: its result's shape, when it has one (`GET /api/tools`; not in `TOOLS`). */
  readonly outputSchema?: JsonSchema;
  /** The schema of its typed errors' `details`, when it has some (`GET /api/tools`; not in `TOOLS`). */
  readonly errorSchema?: JsonSchema;
}

/** What reading a resource returns. */
export interface ResourceContentsMetadata {
  /** `text`, `bytes` (base64 in JSON), or `typed` (a declared type's JSON). */
  readonly kind: "text" | "bytes" | "typed";
  /** The IDL type: `string`, `bytes`, or the declared type's name. */
  readonly idlType: string;
}

/** MCP's resource annotations. */
export interface ResourceAnnotations {
  /** Who it is for. */
  readonly audience?: readonly ("user" | "assistant")[];
  /** How important it is, from 0 (least) to 1 (most). */
  readonly priority?: number;
}

/** `@cache`: how long a read may be kept, and by whom. */
export interface ResourceCache {
  /** How long, in milliseconds. */
  readonly ttlMs: number;
  /** `public`: any cache; `private`: only the client that read it. */
  readonly scope: "public" | "private";
}

/** An argument of a resource or prompt that completes, and how. */
export interface CompletionMetadata {
  /** The argument (a template's variable, a prompt's argument). */
  readonly argument: string;
  /** `enum`: from `values`, with no call; `handler`: through `POST /api/complete`'s handler. */
  readonly by: "enum" | "handler";
  /** The enum's values (`by: "enum"`). */
  readonly values?: readonly string[];
}

/** What a frontend knows about a resource. */
export interface ResourceMetadata {
  /** Its name. */
  readonly name: string;
  /** Human-readable title. */
  readonly title?: string;
  /** What it is. */
  readonly description?: string;
  /** The category of the file that declares it. */
  readonly category: string;
  /** Where it is served from. */
  readonly source: ToolSource;
  /** The fixed URI, or the RFC 6570 template as written. */
  readonly uri: string;
  /** True when `uri` is a template (its variables are `arguments`). */
  readonly template: boolean;
  /** The MIME type a read returns (one read may say its own). */
  readonly mimeType: string;
  /** What a read returns. */
  readonly contents: ResourceContentsMetadata;
  /** Its size in bytes, when known in advance. */
  readonly size?: number;
  /** MCP annotations, when declared. */
  readonly annotations?: ResourceAnnotations;
  /** True when clients may subscribe to its updates. */
  readonly subscribable: boolean;
  /** How long a read may be kept, when declared. */
  readonly cache?: ResourceCache;
  /** The OAuth scopes a read needs, all of them; empty when it needs none. */
  readonly scopes: readonly string[];
  /** The template's variables; empty for a fixed URI. */
  readonly arguments: readonly ToolParameter[];
  /** The arguments that complete, and how. */
  readonly completions: readonly CompletionMetadata[];
  /** Its own errors, with what they mean. */
  readonly errors: readonly ToolErrorMetadata[];
  /** Set when deprecated: why, and what to use instead (may be empty). */
  readonly deprecated?: string;
  /** The schema its URI variables are checked against (`GET /api/tools`; not in `RESOURCES`). */
  readonly inputSchema?: JsonSchema;
}

/** What a frontend knows about a prompt. */
export interface PromptMetadata {
  /** Its name. */
  readonly name: string;
  /** Human-readable title. */
  readonly title?: string;
  /** What it is for. */
  readonly description?: string;
  /** The category of the file that declares it. */
  readonly category: string;
  /** Where it is served from. */
  readonly source: ToolSource;
  /** The OAuth scopes getting it needs, all of them; empty when it needs none. */
  readonly scopes: readonly string[];
  /** Its arguments. */
  readonly arguments: readonly ToolParameter[];
  /** The arguments that complete, and how. */
  readonly completions: readonly CompletionMetadata[];
  /** Its own errors, with what they mean. */
  readonly errors: readonly ToolErrorMetadata[];
  /** Set when deprecated: why, and what to use instead (may be empty). */
  readonly deprecated?: string;
  /** The schema its arguments are checked against (`GET /api/tools`; not in `PROMPTS`). */
  readonly inputSchema?: JsonSchema;
}

/** Sent when a tool starts running. */
export interface ToolStartEvent {
  /** The event's tag. */
  type: "tool_start";
  /** The call; its `tool_complete` carries the same id. */
  call_id?: string;
  /** The tool. */
  tool_name: string;
  /** The action, for an action tool. */
  action?: string;
  /** Its arguments, as JSON text. */
  tool_input: string;
  /** Where the tool is served from; `"local"` when left out. */
  source?: ToolSource;
  /** When it started (ISO 8601). */
  timestamp: string;
}

/** Sent when a tool has finished. */
export interface ToolCompleteEvent {
  /** The event's tag. */
  type: "tool_complete";
  /** The tool. */
  tool_name: string;
  /** The job the call ran as, when it ran as one. */
  job_id?: string;
  /** The call. */
  call_id?: string;
  /** The action, for an action tool. */
  action?: string;
  /** Its result, as text: the response's fields, or the error, as JSON. */
  tool_result: string;
  /** True when the tool answered a response (servers before the event feed leave it out). */
  success?: boolean;
  /** The error's code, when it failed. */
  error_code?: string;
  /** From start to end, in milliseconds. */
  duration_ms?: number;
  /** Where the tool is served from; `"local"` when left out. */
  source?: ToolSource;
  /** When it finished (ISO 8601). */
  timestamp: string;
}

/**
 * Sent for a call that failed before it started: its request could not be
 * read, named no tool or action of the catalogue, or was refused at the
 * door. No `tool_start` or `tool_complete` is sent for it.
 */
export interface CallErrorEvent {
  /** The event's tag. */
  type: "error";
  /** The call; no other event carries it. */
  call_id?: string;
  /** The tool the request named, when it could be read. */
  tool_name?: string;
  /** What is wrong, for a person. */
  message: string;
  /** The error's code: `INVALID_REQUEST`, `UNKNOWN_TOOL`, `FORBIDDEN`, … */
  code?: string;
  /** Where the call was to run; `"local"` when left out. */
  source?: ToolSource;
  /** When it was refused (ISO 8601). */
  timestamp?: string;
}

/** A tool execution event. */
export type ToolEvent = ToolStartEvent | ToolCompleteEvent | CallErrorEvent;

/** Tools by name, with their metadata. Later registrations replace earlier ones. */
export class ToolRegistry {
  private readonly tools = new Map<string, ToolMetadata>();

  /** @param tools the tools to start with. */
  constructor(tools: readonly ToolMetadata[] = []) {
    for (const tool of tools) this.register(tool);
  }

  /** Adds or replaces a tool. */
  register(tool: ToolMetadata): void {
    this.tools.set(tool.name, tool);
  }

  /** The tool with this name. */
  get(name: string): ToolMetadata | undefined {
    return this.tools.get(name);
  }

  /** Every tool, in registration order. */
  all(): ToolMetadata[] {
    return [...this.tools.values()];
  }

  /** Where the tool is served from; `undefined` for an unknown tool. */
  sourceOf(name: string): ToolSource | undefined {
    return this.tools.get(name)?.source;
  }
}
