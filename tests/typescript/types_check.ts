// Compile-time checks: every `@ts-expect-error` line must be an error, or
// tsc fails the suite. Never run.

import type {
  JsonSchema,
  ToolClient,
  ToolEvent,
  ToolMetadata,
  ToolRequest,
} from "../../generated/typescript/src/index.js";

export async function typeChecks(client: ToolClient): Promise<void> {
  const parsed = await client.callTool("abc_parse", { abc: "X:1\nK:C\nCDEF|" });
  const valid: boolean = parsed.valid;
  const notes: number = parsed.notes_count;
  void [valid, notes];

  // @ts-expect-error `abc` is a string
  await client.callTool("abc_parse", { abc: 1 });
  // @ts-expect-error `abc` is required
  await client.callTool("abc_parse", {});
  // @ts-expect-error no such tool
  await client.callTool("abc_parsee", { abc: "" });
  // @ts-expect-error the result has no such field
  void parsed.tempo_bpm;

  const read = await client.callTool("fs", { action: "read", uri: "file:///a" });
  const contents: string = read.text;
  void contents;
  // @ts-expect-error no such action
  await client.callTool("fs", { action: "fly", uri: "file:///a" });

  const request: ToolRequest = { tool: "add", args: { a: 1, b: 2 } };
  // @ts-expect-error `b` is missing
  const partial: ToolRequest = { tool: "add", args: { a: 1 } };
  // @ts-expect-error the event's source is "local" or "mcp"
  const event: ToolEvent = { type: "tool_start", tool_name: "add", tool_input: "{}", source: "remote", timestamp: "" };
  void [request, partial, event];
}

// The schemas `GET /api/tools` adds to an entry are JSON Schema objects,
// absent from the generated registry; a `json` parameter has no `type`.
export function metadataChecks(tool: ToolMetadata): void {
  const action = tool.actions?.[0];
  const schemas: (JsonSchema | undefined)[] = [
    tool.inputSchema,
    tool.outputSchema,
    tool.errorSchema,
    action?.inputSchema,
    action?.outputSchema,
  ];
  // @ts-expect-error a schema is an object, not JSON text
  const text: string | undefined = tool.inputSchema;
  // @ts-expect-error a schema may be absent
  const always: JsonSchema = tool.errorSchema;
  // @ts-expect-error a parameter's `type` may be absent
  const type: string = tool.parameters[0]!.type;
  void [schemas, text, always, type];
}
