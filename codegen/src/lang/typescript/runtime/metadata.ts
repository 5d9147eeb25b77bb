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

/** One argument of a tool or action. */
export interface ToolParameter {
  /** Wire name. */
  readonly name: string;
  /** JSON Schema type: `string`, `integer`, `number`, `boolean`, `array`, `object`, or `any`. */
  readonly type: string;
  /** The IDL type, e.g. `u32`, `list<string>`, `AudioFormat?`. */
  readonly idlType: string;
  /** What it means. */
  readonly description?: string;
  /** True when a caller must send it. */
  readonly required: boolean;
  /** The value used when it is left out. */
  readonly default?: JsonValue;
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
  /** Its arguments. */
  readonly parameters: readonly ToolParameter[];
  /** Set when deprecated: why, and what to use instead (may be empty). */
  readonly deprecated?: string;
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
  /** How its result reaches the caller (absent for action tools: see each action). */
  readonly timing?: ToolTiming;
  /** MCP annotations. */
  readonly annotations: ToolAnnotations;
  /** Its arguments (for an action tool, just `action`). */
  readonly parameters: readonly ToolParameter[];
  /** The actions of an action tool. */
  readonly actions?: readonly ActionMetadata[];
  /** The codes of the tool's own errors. */
  readonly errorCodes: readonly string[];
  /** True when it streams chunks while it runs. */
  readonly streams: boolean;
  /** Set when deprecated: why, and what to use instead (may be empty). */
  readonly deprecated?: string;
}

/** Sent when a tool starts running. */
export interface ToolStartEvent {
  /** The event's tag. */
  type: "tool_start";
  /** The tool. */
  tool_name: string;
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
  /** Its result, as text. */
  tool_result: string;
  /** Where the tool is served from; `"local"` when left out. */
  source?: ToolSource;
  /** When it finished (ISO 8601). */
  timestamp: string;
}

/** A tool execution event. */
export type ToolEvent = ToolStartEvent | ToolCompleteEvent;

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
