// Toolsets and progressive discovery through the official MCP TypeScript
// SDK client, over stdio and Streamable HTTP: a studio serving some
// toolsets lists and calls only those; a progressive studio starts each
// session from the discovery tools and grows its list, and the client's
// `listChanged` handler hears of every change and refetches the list.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';

import { TRANSPORTS, connectClient, startHttpServer, tempDataDir } from './support.mjs';

const DISCOVERY = ['search_tools', 'describe_tools', 'select_toolsets'];
const JOB_TOOLS = ['job_status', 'job_list', 'job_poll', 'job_cancel'];

const dataDir = tempDataDir();
const servers = {};

before(async () => {
  servers.progressive = await startHttpServer(dataDir.path, ['--progressive']);
  servers.toolsets = await startHttpServer(dataDir.path, ['--toolset', 'math,analysis']);
});
after(async () => {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
  dataDir.remove();
});

/** The structured content of a call that succeeded. */
async function structured(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, `\`${name}\` failed: ${JSON.stringify(result)}`);
  return result.structuredContent;
}

const names = (tools) => tools.map((t) => t.name);

/** Resolves with the next list the client's `listChanged` handler receives. */
function changes() {
  const waiting = [];
  const arrived = [];
  const onChanged = (error, tools) => {
    const next = error ? Promise.reject(error) : Promise.resolve(tools);
    const resolve = waiting.shift();
    if (resolve) resolve(next); else arrived.push(next);
  };
  const next = () => {
    const ready = arrived.shift();
    const wait = ready ?? new Promise((resolve) => waiting.push(resolve));
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('no tools/list_changed within 10 s')), 10_000);
    });
    return Promise.race([wait, timeout]).finally(() => clearTimeout(timer));
  };
  return { options: { listChanged: { tools: { onChanged, debounceMs: 0 } } }, next };
}

for (const transport of TRANSPORTS) {
  describe(`toolsets over ${transport}`, () => {
    test('a served toolset limits what is listed and called', async () => {
      const client = await connectClient(transport, {
        url: servers.toolsets.url, dataDir: dataDir.path, flags: ['--toolset', 'math,analysis'],
      });
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(names(tools).sort(), [
          ...JOB_TOOLS, 'add', 'multiply', 'beatthis_analyze', 'clap_analyze', 'orpheus_classify',
        ].sort());
        assert.deepEqual(await structured(client, 'add', { a: 2, b: 40 }), { result: 42 });
        await assert.rejects(
          client.callTool({ name: 'abc_parse', arguments: { abc: 'X:1\nK:C\nC' } }),
          (e) => e instanceof McpError && e.code === ErrorCode.InvalidParams,
        );
      } finally {
        await client.close();
      }
    });

    test('a progressive session grows its list and hears of each change', async () => {
      const heard = changes();
      const client = await connectClient(transport, {
        url: servers.progressive.url, dataDir: dataDir.path, flags: ['--progressive'],
        options: heard.options,
      });
      try {
        assert.equal(client.getServerCapabilities()?.tools?.listChanged, true);
        assert.deepEqual(names((await client.listTools()).tools), DISCOVERY);

        const { toolsets } = await structured(client, 'select_toolsets', { enable: ['math'] });
        assert.deepEqual(toolsets.find((t) => t.name === 'math'), { name: 'math', tools: 2, enabled: true });
        assert.deepEqual(names(await heard.next()), [...DISCOVERY, 'add', 'multiply']);

        const found = await structured(client, 'search_tools', { query: 'beats downbeats' });
        assert.equal(found.tools[0].name, 'beatthis_analyze');
        const described = await structured(client, 'describe_tools', { names: ['beatthis_analyze'] });
        assert.equal(described.tools[0].inputSchema.type, 'object');
        assert.deepEqual(
          names(await heard.next()),
          [...DISCOVERY, ...JOB_TOOLS, 'beatthis_analyze', 'add', 'multiply'],
        );

        // Every served tool can be called, listed or not.
        assert.deepEqual(await structured(client, 'multiply', { a: 6, b: 7 }), { result: 42 });
      } finally {
        await client.close();
      }
    });
  });
}
