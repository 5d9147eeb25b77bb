// HIP-0300's unified envelope, through the official MCP TypeScript SDK
// client: a studio serving with `--envelope` answers `{ok, data, error,
// meta}`. The client's `callTool` checks `structuredContent` against the
// tool's `outputSchema` (and throws when it does not match), so each call
// below also shows that the listed schema describes the envelope.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { connectClient, tempDataDir, toolsByName } from './support.mjs';

test('answers come in the envelope their output schema describes', async () => {
  const dataDir = tempDataDir();
  const client = await connectClient('stdio', { dataDir: dataDir.path, flags: ['--envelope'] });
  try {
    const tools = await toolsByName(client);
    assert.deepEqual(tools.get('add').outputSchema.required, ['ok', 'data', 'error', 'meta']);

    const added = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    assert.equal(added.structuredContent.ok, true);
    assert.deepEqual(added.structuredContent.data, { result: 5 });
    assert.equal(added.structuredContent.error, null);
    assert.equal(added.structuredContent.meta.tool, 'add');
    assert.match(added.structuredContent.meta.trace_id, /^tr_[0-9a-f]{16}$/);

    const failed = await client.callTool({ name: 'cas_get', arguments: { hash: '0'.repeat(64) } });
    assert.equal(failed.isError, true);
    assert.equal(failed.structuredContent.ok, false);
    assert.equal(failed.structuredContent.error.code, 'NOT_FOUND');

    const helped = await client.callTool({ name: 'fs', arguments: { action: 'help' } });
    assert.equal(helped.structuredContent.meta.action, 'help');

    // HIP-0300's `status` action, in the envelope too.
    const status = await client.callTool({ name: 'fs', arguments: { action: 'status' } });
    assert.equal(status.structuredContent.meta.action, 'status');
    const { data } = status.structuredContent;
    assert.equal(data.tool, 'fs');
    assert.equal(data.enabled, true);
    assert.equal(data.backend, 'local');
    assert.ok(typeof data.version === 'string' && data.version.length > 0, JSON.stringify(data));
  } finally {
    await client.close();
    dataDir.remove();
  }
});
