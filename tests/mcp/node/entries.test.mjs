// The studio's resources, prompts and completions through the official MCP
// TypeScript SDK client, over stdio, Streamable HTTP and the gateway: the
// listings, stored objects read back as `cas://objects/{hash}`, the
// `cas://index` whose subscribers hear when new content is stored (this SDK
// speaks 2025-11-25: `resources/subscribe`; through the gateway the update
// crosses IOPub from the backend), the two prompts, and completion of their
// arguments and of the template's `hash`.

import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { ErrorCode, McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { ROOT, connectClient, startGateway, startHttpServer, tempDataDir } from './support.mjs';

const INDEX = 'cas://index';
const TEMPLATE = 'cas://objects/{hash}';
// A hash nothing stores (its content would have to hash to zeros).
const ABSENT = '0'.repeat(64);
const COMPOSE = { type: 'ref/prompt', name: 'abc_compose' };
const DESCRIBE = { type: 'ref/prompt', name: 'cas_describe' };
const OBJECTS = { type: 'ref/resource', uri: TEMPLATE };

/** The published schema of a prompt's arguments. */
const argumentsSchema = (name) =>
  JSON.parse(readFileSync(join(ROOT, 'generated/schemas/types', `${name}.json`), 'utf8'));

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/**
 * Bytes no store holds yet, whose hash begins with `00`: `cas://index` shows
 * only the first 100 hashes, in order, and in a store of more (a server
 * named by `$MCP_HTTP_URL` may hold any number) an ordinary new hash could
 * sort past them.
 */
function newContent(label) {
  const salt = randomUUID();
  for (let n = 0; ; n++) {
    const data = Buffer.from(`${label} ${salt} ${n}\n`);
    if (sha256(data).startsWith('00')) return data;
  }
}

/** Rejects with a JSON-RPC invalid-params error; resolves with that error. */
async function refused(promise) {
  let error;
  await assert.rejects(promise, (e) => { error = e; return e instanceof McpError; });
  assert.equal(error.code, ErrorCode.InvalidParams, error.message);
  return error;
}

/** Every item of a listing, by name, following its cursors. */
async function byName(list, field) {
  const items = new Map();
  let cursor;
  do {
    const page = await list(cursor ? { cursor } : undefined);
    for (const item of page[field]) items.set(item.name, item);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

const dataDir = tempDataDir();
const servers = {};

before(async () => {
  servers.http = await startHttpServer(dataDir.path);
  servers.gateway = await startGateway(dataDir.path);
});
after(async () => {
  await Promise.all(Object.values(servers).map((s) => s.stop()));
  dataDir.remove();
});

for (const transport of ['stdio', 'http', 'gateway']) {
  describe(`the studio's entries over ${transport}`, () => {
    let client;
    // The `notifications/resources/updated` URIs the client heard, and who
    // waits for the next one.
    const heard = [];
    let onUpdate = () => {};

    before(async () => {
      client = await connectClient(transport === 'stdio' ? 'stdio' : 'http', {
        url: servers[transport]?.url, dataDir: dataDir.path,
      });
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => {
        heard.push(params.uri);
        onUpdate();
      });
    });
    after(async () => { await client?.close(); });

    const store = async (data, mimeType = 'text/plain') => {
      const result = await client.callTool({
        name: 'cas_store', arguments: { data: data.toString('base64'), mime_type: mimeType },
      });
      assert.notEqual(result.isError, true, JSON.stringify(result));
      const stored = result.structuredContent;
      assert.equal(stored.already_present, false, JSON.stringify(stored));
      assert.equal(stored.hash, sha256(data));
      return stored.hash;
    };

    const readIndex = async () => {
      const { contents: [contents, ...rest] } = await client.readResource({ uri: INDEX });
      assert.equal(rest.length, 0);
      assert.equal(contents.uri, INDEX);
      assert.equal(contents.mimeType, 'application/json');
      const index = JSON.parse(contents.text);
      assert.deepEqual(index.hashes, [...index.hashes].sort());
      assert.ok(index.hashes.length <= 100 && index.total >= index.hashes.length, contents.text);
      return index;
    };

    const complete = async (ref, name, value) => {
      const { completion } = await client.complete({ ref, argument: { name, value } });
      assert.notEqual(completion.hasMore, true);
      return completion.values;
    };

    test('the listings show the index, the object template and the prompts', async () => {
      const capabilities = client.getServerCapabilities();
      assert.equal(capabilities.resources?.subscribe, true);
      assert.ok(capabilities.prompts && capabilities.completions);
      const resources = await byName((p) => client.listResources(p), 'resources');
      const templates = await byName((p) => client.listResourceTemplates(p), 'resourceTemplates');
      const prompts = await byName((p) => client.listPrompts(p), 'prompts');

      const index = resources.get('cas_index');
      assert.deepEqual(
        [index.uri, index.mimeType, index.title, index.annotations?.audience],
        [INDEX, 'application/json', 'Stored objects', ['assistant']],
      );
      const objects = templates.get('cas_object');
      assert.deepEqual([objects.uriTemplate, objects.mimeType], [TEMPLATE, 'application/octet-stream']);
      for (const entry of [index, objects, prompts.get('cas_describe')]) {
        assert.deepEqual(entry._meta?.['toolwright/scopes'], ['cas:read'], entry.name);
      }
      // Each prompt lists the arguments of its published schema, required
      // as the schema says.
      const schemas = [['abc_compose', 'AbcComposeArguments'], ['cas_describe', 'CasDescribeArguments']];
      for (const [prompt, schemaName] of schemas) {
        const schema = argumentsSchema(schemaName);
        const listed = Object.fromEntries(prompts.get(prompt).arguments.map((a) => [a.name, a.required === true]));
        const expected = Object.fromEntries(
          Object.keys(schema.properties).map((name) => [name, (schema.required ?? []).includes(name)]),
        );
        assert.deepEqual(listed, expected, prompt);
      }
      assert.deepEqual(prompts.get('abc_compose').arguments.map((a) => a.name), ['tonic', 'mode', 'mood', 'length']);
    });

    test('a stored object reads back as a blob in its MIME type, and the index lists it', async () => {
      const text = newContent('node read back');
      const midi = Buffer.concat([Buffer.from('MThd\0\0\0\x06\0\0\0\x01\0\x60', 'latin1'), Buffer.from(randomUUID())]);
      for (const [data, mimeType] of [[text, 'text/plain'], [midi, 'audio/midi']]) {
        const hash = await store(data, mimeType);
        const { contents } = await client.readResource({ uri: `cas://objects/${hash}` });
        assert.equal(contents.length, 1);
        // Bytes, whatever their type: a blob, in the type they were stored with.
        assert.deepEqual(
          { ...contents[0], blob: Buffer.from(contents[0].blob, 'base64') },
          { uri: `cas://objects/${hash}`, mimeType, blob: data },
        );
      }
      assert.ok((await readIndex()).hashes.includes(sha256(text)));
    });

    test('reading what is not there is -32602 naming the URI', async () => {
      for (const uri of ['cas://nope', 'cas://objects/', 'file:///etc/passwd']) {
        assert.deepEqual((await refused(client.readResource({ uri }))).data, { uri });
      }
      // A hash of the right shape that nothing is stored under, and one of
      // the wrong shape: the template matches, the handler refuses.
      const missing = await refused(client.readResource({ uri: `cas://objects/${ABSENT}` }));
      assert.equal(missing.data.uri, `cas://objects/${ABSENT}`);
      assert.equal(missing.data.code, 'NOT_FOUND');
      const malformed = await refused(client.readResource({ uri: 'cas://objects/ABC' }));
      assert.equal(malformed.data.uri, 'cas://objects/ABC');
      assert.equal(malformed.data.details.field, 'hash');
    });

    test('a subscriber to cas://index hears that new content was stored (2025-11-25)', async () => {
      await client.subscribeResource({ uri: INDEX });
      // An object cannot be subscribed to: only @subscribable resources.
      const error = await refused(client.subscribeResource({ uri: `cas://objects/${ABSENT}` }));
      assert.deepEqual(error.data, { uri: `cas://objects/${ABSENT}` });

      heard.length = 0;
      let timer;
      const updated = new Promise((resolve, reject) => {
        onUpdate = resolve;
        timer = setTimeout(() => reject(new Error('no notifications/resources/updated within 10 s')), 10_000);
      });
      try {
        const hash = await store(newContent('node subscribed'));
        await updated;
        assert.deepEqual([...new Set(heard)], [INDEX]);
        assert.ok((await readIndex()).hashes.includes(hash));
      } finally {
        clearTimeout(timer);
        onUpdate = () => {};
      }
      await client.unsubscribeResource({ uri: INDEX });
    });

    test('abc_compose asks for the tune its arguments describe', async () => {
      const chosen = await client.getPrompt({
        name: 'abc_compose', arguments: { tonic: 'G', mode: 'dorian', mood: 'a playful jig', length: 'short' },
      });
      assert.equal(chosen.description, 'a playful jig in G dorian');
      assert.equal(chosen.messages.length, 1);
      assert.equal(chosen.messages[0].role, 'user');
      assert.equal(chosen.messages[0].content.type, 'text');
      assert.match(chosen.messages[0].content.text, /^Write a playful jig in G dorian, 8 bars long, in ABC notation\./);
      // Defaults from the schema: C, major, medium (16 bars).
      const defaults = await client.getPrompt({ name: 'abc_compose', arguments: {} });
      assert.match(defaults.messages[0].content.text, /^Write a tune in C major, 16 bars long/);

      const badMode = await refused(client.getPrompt({ name: 'abc_compose', arguments: { mode: 'ionian' } }));
      assert.equal(badMode.data.name, 'abc_compose');
      assert.match(badMode.message, /`ionian`.*`dorian`/);
      const badTonic = await refused(client.getPrompt({ name: 'abc_compose', arguments: { tonic: 'H' } }));
      assert.equal(badTonic.data.name, 'abc_compose');
      const unknown = await refused(client.getPrompt({ name: 'abc_decompose', arguments: {} }));
      assert.deepEqual(unknown.data, { name: 'abc_decompose' });
    });

    test('cas_describe embeds the stored object', async () => {
      const text = newContent('node described');
      const binary = Buffer.concat([Buffer.from([0, 1, 2, 255]), Buffer.from(randomUUID())]);
      const textHash = await store(text);
      const binaryHash = await store(binary, 'application/octet-stream');

      const focused = await client.getPrompt({
        name: 'cas_describe', arguments: { hash: textHash, focus: 'its length' },
      });
      assert.equal(focused.description, `Describe cas://objects/${textHash}`);
      const [attached, ask] = focused.messages;
      // Text is attached as text...
      assert.deepEqual(attached, {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: `cas://objects/${textHash}`, mimeType: 'text/plain', text: text.toString() },
        },
      });
      assert.match(ask.content.text, /its length/);
      // ...and other bytes as a blob.
      const plain = await client.getPrompt({ name: 'cas_describe', arguments: { hash: binaryHash } });
      const { resource } = plain.messages[0].content;
      assert.equal(resource.mimeType, 'application/octet-stream');
      assert.deepEqual(Buffer.from(resource.blob, 'base64'), binary);

      // A required argument missing, and an object that is not there.
      const missing = await refused(client.getPrompt({ name: 'cas_describe', arguments: {} }));
      assert.equal(missing.data.name, 'cas_describe');
      assert.match(missing.message, /`hash`/);
      const absent = await refused(client.getPrompt({ name: 'cas_describe', arguments: { hash: ABSENT } }));
      assert.equal(absent.data.name, 'cas_describe');
      assert.equal(absent.data.code, 'NOT_FOUND');
    });

    test('arguments complete', async () => {
      const { $defs } = argumentsSchema('AbcComposeArguments');
      // The server's list of moods, matched by any word.
      assert.deepEqual(await complete(COMPOSE, 'mood', 'sl'), ['a slow lament']);
      assert.deepEqual(await complete(COMPOSE, 'mood', 'Wist'), ['a wistful air']);
      assert.equal((await complete(COMPOSE, 'mood', '')).length, 8);
      // Enums complete with their values, in the schema's order.
      assert.deepEqual(await complete(COMPOSE, 'mode', ''), $defs.AbcMode.enum);
      assert.deepEqual(await complete(COMPOSE, 'mode', 'm'), $defs.AbcMode.enum.filter((m) => m.startsWith('m')));
      assert.deepEqual(await complete(COMPOSE, 'length', ''), $defs.TuneLength.enum);

      // Hashes of stored objects, by prefix, for the template and the prompt.
      const hash = await store(newContent('node completed'));
      for (const ref of [OBJECTS, DESCRIBE]) {
        assert.deepEqual(await complete(ref, 'hash', hash.slice(0, 12)), [hash]);
        assert.deepEqual(await complete(ref, 'hash', hash.slice(0, 12).toUpperCase()), []);
      }
      assert.ok((await complete(OBJECTS, 'hash', hash.slice(0, 2))).includes(hash));

      const unknown = await refused(client.complete({
        ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' },
      }));
      assert.deepEqual(unknown.data, { ref: 'nope' });
    });
  });
}
