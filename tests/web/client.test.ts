// The generated TypeScript client against a running studio (tests/web/run
// starts it and sets TOOLWRIGHT_WEB_URL): calls as JSON over HTTP and as
// TOON frames over a WebSocket, the tool document, and the live events.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  type CallErrorEvent,
  PROMPTS,
  RESOURCES,
  TOOLS,
  ToolCallError,
  ToolClient,
  type ToolEvent,
  type ToolMetadata,
  connectToon,
  fetchTools,
  subscribeToolEvents,
} from "../../generated/typescript/src/index.js";

const base = process.env["TOOLWRIGHT_WEB_URL"];
if (base === undefined) throw new Error("TOOLWRIGHT_WEB_URL is not set: run tests/web/run");

/** An entry without the MCP schemas, which only the served document carries. */
function withoutSchemas(tool: ToolMetadata): unknown {
  const entry = JSON.parse(JSON.stringify(tool)) as Record<string, unknown>;
  delete entry["inputSchema"];
  delete entry["outputSchema"];
  delete entry["errorSchema"];
  // Whether the studio has a handler is the server's to say, not the registry's.
  delete entry["served"];
  for (const action of (entry["actions"] ?? []) as Record<string, unknown>[]) {
    delete action["inputSchema"];
    delete action["outputSchema"];
  }
  return entry;
}

describe("the tool document", () => {
  it("is the generated registry, plus each tool's schemas (input, output, errors)", async () => {
    const document = await fetchTools(base);
    assert.ok(document !== undefined);
    assert.deepEqual(document.tools.map(withoutSchemas), JSON.parse(JSON.stringify(TOOLS)));
    const tool = (name: string): ToolMetadata => {
      const found = document.tools.find((t) => t.name === name);
      assert.ok(found !== undefined, name);
      return found;
    };
    const add = tool("add");
    assert.equal(add.source, "local");
    // The studio serves add, and has no handler for ping.
    assert.equal(add.served, true);
    assert.equal(tool("ping").served, false);
    assert.equal(add.inputSchema?.["type"], "object");
    assert.equal(add.outputSchema?.["type"], "object");
    // The schema of the typed errors' `details`: `add` has one, `overflow`.
    const oneOf = add.errorSchema?.["oneOf"];
    assert.ok(Array.isArray(oneOf) && oneOf.length === 1, JSON.stringify(add.errorSchema));
    // An action tool's actions have schemas of their own.
    const read = tool("fs").actions?.find((a) => a.name === "read");
    assert.equal(read?.inputSchema?.["type"], "object");
    assert.equal(read?.outputSchema?.["type"], "object");
    // A `json` parameter has no JSON Schema type: any value.
    const metadata = tool("artifact_create").parameters.find((p) => p.name === "metadata");
    assert.deepEqual([metadata?.idlType, metadata?.type], ["json?", undefined]);
    assert.ok(document.etag !== undefined);
    assert.equal(await fetchTools(base, { etag: document.etag }), undefined);
  });

  it("lists the resources and prompts of the generated registry, with their input schemas", async () => {
    const document = await fetchTools(base);
    assert.ok(document !== undefined);
    assert.ok(document.resources.every((r) => r.inputSchema?.["type"] === "object"));
    assert.ok(document.prompts.every((p) => p.inputSchema?.["type"] === "object"));
    const bare = (entry: object): unknown => {
      const copy = JSON.parse(JSON.stringify(entry)) as Record<string, unknown>;
      delete copy["inputSchema"];
      return copy;
    };
    assert.deepEqual(document.resources.map(bare), JSON.parse(JSON.stringify(RESOURCES)));
    assert.deepEqual(document.prompts.map(bare), JSON.parse(JSON.stringify(PROMPTS)));
    const object = document.resources.find((r) => r.name === "cas_object");
    assert.equal(object?.uri, "cas://objects/{hash}");
    assert.deepEqual(object?.completions, [{ argument: "hash", by: "handler" }]);
  });
});

describe("ToolClient over HTTP", () => {
  const client = ToolClient.overHttp(base);

  it("calls a tool with typed arguments", async () => {
    assert.deepEqual(await client.callTool("add", { a: 2, b: 40 }), { result: 42 });
  });

  it("rejects with the tool's typed error", async () => {
    await assert.rejects(client.callTool("multiply", { a: 3037000500, b: 3037000500 }), (e: unknown) => {
      assert.ok(e instanceof ToolCallError);
      assert.equal(e.code, "OVERFLOW");
      return true;
    });
    await assert.rejects(client.callTool("ping", {}), (e: unknown) => e instanceof ToolCallError && e.code === "NOT_IMPLEMENTED");
  });

  it("waits for a call that runs as a job", async () => {
    const done = await client.callTool("orpheus_generate", {});
    assert.equal(done.total_tokens, 1024);
  });
});

describe("ToolClient over a TOON WebSocket", () => {
  it("calls tools concurrently on one socket", async () => {
    const progress: number[] = [];
    const socket = await connectToon(base, { onProgress: (_, p) => progress.push(p) });
    try {
      const client = new ToolClient(socket);
      const [sum, product, generated] = await Promise.all([
        client.callTool("add", { a: 1, b: 2 }),
        client.callTool("multiply", { a: 6, b: 7 }),
        client.callTool("orpheus_generate", {}),
      ]);
      assert.deepEqual(sum, { result: 3 });
      assert.deepEqual(product, { result: 42 });
      assert.equal(generated.total_tokens, 1024);
      assert.ok(progress.length > 0, "STATUS frames report the job's progress");
      await assert.rejects(client.callTool("ping", {}), (e: unknown) => e instanceof ToolCallError && e.code === "NOT_IMPLEMENTED");
    } finally {
      socket.close();
    }
  });
});

describe("subscribeToolEvents", () => {
  it("receives a call's start and end, filtered by tool", async () => {
    const events: ToolEvent[] = [];
    const abort = new AbortController();
    let ended!: () => void;
    const complete = new Promise<void>((resolve) => (ended = resolve));
    const following = subscribeToolEvents(
      base,
      {
        onEvent: (event) => {
          events.push(event);
          if (event.type === "tool_complete") ended();
        },
      },
      { tools: ["multiply"], signal: abort.signal },
    );
    // The subscription is in place once the server has answered its head;
    // calls until then are not seen, so call until one is.
    const client = ToolClient.overHttp(base);
    const timer = setInterval(() => void client.callTool("add", { a: 1, b: 1 }).then(() => client.callTool("multiply", { a: 3, b: 5 })), 100);
    await complete;
    clearInterval(timer);
    abort.abort();
    await following;
    assert.ok(events.every((e) => e.tool_name === "multiply"));
    const end = events.find((e) => e.type === "tool_complete");
    assert.ok(end !== undefined && end.type === "tool_complete");
    const start = events.find((e) => e.type === "tool_start" && e.call_id === end.call_id);
    assert.ok(start !== undefined && start.type === "tool_start");
    assert.deepEqual(JSON.parse(start.tool_input), { a: 3, b: 5 });
    assert.deepEqual(JSON.parse(end.tool_result), { result: 15 });
    assert.equal(end.success, true);
    assert.equal(end.source, "local");
  });

  it("receives an error event for a call that failed before it started", async () => {
    const abort = new AbortController();
    let refused!: (event: CallErrorEvent) => void;
    const error = new Promise<CallErrorEvent>((resolve) => (refused = resolve));
    const following = subscribeToolEvents(base, { onError: refused }, { tools: ["ad"], signal: abort.signal });
    const timer = setInterval(() => void fetch(base + "/api/tools/ad", { method: "POST", body: "{}" }), 100);
    const event = await error;
    clearInterval(timer);
    abort.abort();
    await following;
    assert.equal(event.type, "error");
    assert.equal(event.tool_name, "ad");
    assert.equal(event.code, "UNKNOWN_TOOL");
    assert.match(event.message, /did you mean `add`/);
  });
});
