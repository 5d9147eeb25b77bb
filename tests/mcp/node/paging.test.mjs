// `@paged` tools through the official MCP TypeScript SDK client: the
// studio's `cas_list` pages through the content store with opaque cursors
// (the client checks each page against the tool's `outputSchema`), a
// cursor issued for other arguments or changed is `INVALID_CURSOR`, and a
// server with `--envelope` repeats the page's `paging` in `meta.paging`.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { connectClient, startHttpServer, tempDataDir } from './support.mjs';

async function store(client, text) {
  const data = Buffer.from(text).toString('base64');
  const stored = await client.callTool({ name: 'cas_store', arguments: { data, mime_type: 'text/plain' } });
  assert.notEqual(stored.isError, true, JSON.stringify(stored));
  return stored.structuredContent.hash;
}

test('pages follow each other, and a foreign cursor is refused', async () => {
  const dataDir = tempDataDir();
  const client = await connectClient('stdio', { dataDir: dataDir.path });
  try {
    const stored = [];
    for (let i = 0; i < 5; i++) stored.push(await store(client, `node paging sample ${i}`));

    const seen = [];
    let args = { limit: 2 };
    let firstCursor;
    for (;;) {
      const page = await client.callTool({ name: 'cas_list', arguments: args });
      assert.notEqual(page.isError, true, JSON.stringify(page.structuredContent));
      const { hashes, paging } = page.structuredContent;
      seen.push(...hashes);
      if (!paging.more) {
        assert.equal(paging.cursor, undefined);
        break;
      }
      firstCursor ??= paging.cursor;
      args = { limit: 2, cursor: paging.cursor };
    }
    assert.deepEqual(seen, [...stored].sort());

    for (const bad of [
      { limit: 3, cursor: firstCursor },
      { limit: 2, cursor: `${firstCursor.slice(0, -1)}${firstCursor.endsWith('A') ? 'B' : 'A'}` },
      { limit: 2, cursor: seen[1] },
    ]) {
      const refused = await client.callTool({ name: 'cas_list', arguments: bad });
      assert.equal(refused.isError, true, JSON.stringify(bad));
      assert.equal(refused.structuredContent.code, 'INVALID_CURSOR');
    }
  } finally {
    await client.close();
    dataDir.remove();
  }
});

test('the envelope repeats a page\'s paging in its meta', async () => {
  const dataDir = tempDataDir();
  const server = await startHttpServer(dataDir.path, ['--envelope']);
  const client = await connectClient('http', { url: server.url });
  try {
    await store(client, 'one');
    await store(client, 'two');
    const page = await client.callTool({ name: 'cas_list', arguments: { limit: 1 } });
    const { data, meta } = page.structuredContent;
    assert.equal(meta.paging.more, true);
    assert.deepEqual(meta.paging, data.paging);
    const next = await client.callTool({ name: 'cas_list', arguments: { limit: 1, cursor: meta.paging.cursor } });
    assert.deepEqual(next.structuredContent.meta.paging, { more: false });
  } finally {
    await client.close();
    await server.stop();
    dataDir.remove();
  }
});
