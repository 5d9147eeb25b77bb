// Content blocks and handlers that talk back, through the official MCP
// TypeScript SDK client: the conformance server's tools (tests/conformance)
// answer with `@content` fields as image, audio, resource and text blocks,
// and their handlers log, report progress, ask the client's model and ask
// its user (a `@form` struct), which this client's side answers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

import { ROOT } from './support.mjs';

function conformanceBin() {
  const path = process.env.CONFORMANCE_BIN
    ?? join(process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target'), 'debug', 'toolwright-conformance');
  if (!existsSync(path)) {
    throw new Error(`no conformance server at ${path}: build it with \`cargo build -p toolwright-conformance\``);
  }
  return path;
}

/** A client that declares sampling and elicitation, and what it heard. */
async function connect() {
  const heard = { logs: [], prompts: [], schemas: [] };
  const client = new Client(
    { name: 'talk-back-test', version: '1.0.0' },
    { capabilities: { sampling: {}, elicitation: {} } },
  );
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    heard.logs.push(notification.params);
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    heard.prompts.push(request.params.messages[0].content.text);
    return { role: 'assistant', content: { type: 'text', text: 'a jig' }, model: 'test-model', stopReason: 'endTurn' };
  });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    heard.schemas.push(request.params.requestedSchema);
    return { action: 'accept', content: { name: 'Ada', age: 36, score: 99.5, status: 'pending', verified: false } };
  });
  await client.connect(new StdioClientTransport({ command: conformanceBin(), args: ['--stdio'] }));
  return { client, heard };
}

test('content fields arrive as content blocks, the rest as structured content', async () => {
  const { client } = await connect();
  try {
    const mixed = await client.callTool({ name: 'test_multiple_content_types', arguments: {} });
    assert.deepEqual(mixed.content.map((block) => block.type), ['text', 'image', 'resource']);
    assert.equal(mixed.content[0].text, 'Multiple content types test:');
    assert.equal(mixed.content[1].mimeType, 'image/png');
    assert.ok(Buffer.from(mixed.content[1].data, 'base64').subarray(1, 4).equals(Buffer.from('PNG')));
    assert.equal(mixed.content[2].resource.uri, 'test://embedded-resource');
    assert.deepEqual(mixed.structuredContent, {});

    const audio = await client.callTool({ name: 'test_audio_content', arguments: {} });
    assert.equal(audio.content[0].type, 'audio');
    assert.equal(audio.content[0].mimeType, 'audio/wav');

    const plain = await client.callTool({ name: 'test_simple_text', arguments: {} });
    assert.deepEqual(plain.structuredContent, { text: 'This is a simple text response for testing.' });
  } finally {
    await client.close();
  }
});

test('a handler logs at the session level, reports progress, and asks', async () => {
  const { client, heard } = await connect();
  try {
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    assert.deepEqual(
      heard.logs.map((log) => log.data),
      ['Tool execution started', 'Tool processing data', 'Tool execution completed'],
    );

    const progress = [];
    await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    assert.equal(progress.length, 3);
    assert.deepEqual([...progress].sort((a, b) => a - b), progress);

    const sampled = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Name this tune' } });
    assert.deepEqual(heard.prompts, ['Name this tune']);
    assert.equal(sampled.structuredContent.text, 'LLM response: a jig');

    const form = await client.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} });
    const properties = heard.schemas[0].properties;
    assert.deepEqual(properties.age, { type: 'integer', default: 30, description: 'Your age.' });
    assert.deepEqual(properties.status.enum, ['active', 'inactive', 'pending']);
    assert.match(form.structuredContent.text, /^Elicitation completed: action=accept, content=\{"age":36,"name":"Ada"/);
  } finally {
    await client.close();
  }
});

/** The conformance server over Streamable HTTP on a free port: its URL, and the process. */
async function serveHttp() {
  const server = spawn(conformanceBin(), ['127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise((resolve, reject) => {
    let said = '';
    server.stderr.on('data', (chunk) => {
      said += chunk;
      // The whole line: the server may write it in pieces.
      const found = /^listening on (\S+)\n/m.exec(said);
      if (found) resolve(new URL(found[1]));
    });
    server.on('exit', (code) => reject(new Error(`the conformance server exited (${code}): ${said}`)));
  });
  return { url, server };
}

test('a handler closes its stream, and the answer arrives on the resumed one', async () => {
  const { url, server } = await serveHttp();
  const client = new Client({ name: 'talk-back-test', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(url));
    const result = await client.callTool({ name: 'test_reconnection', arguments: {} });
    assert.ok(!result.isError, JSON.stringify(result));
    assert.equal(result.structuredContent.text, 'Answered on the resumed stream.');
    const after = await client.callTool({ name: 'test_simple_text', arguments: {} });
    assert.ok(!after.isError);
  } finally {
    await client.close();
    server.kill();
  }
});

test('a @task_required tool is called as a task, and refused otherwise (2025-11-25)', async () => {
  const client = new Client({ name: 'task-required-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: conformanceBin(), args: ['--stdio'] }));
  try {
    const { tools } = await client.listTools();
    const failing = tools.find((t) => t.name === 'failing_job');
    assert.equal(failing.execution?.taskSupport, 'required');
    assert.equal(tools.find((t) => t.name === 'slow_compute').execution?.taskSupport, 'optional');

    // The SDK itself refuses a plain call of a tool that requires a task;
    // sent anyway, the server refuses it too.
    await assert.rejects(client.callTool({ name: 'failing_job', arguments: {} }), /task/);
    await assert.rejects(
      client.request(
        { method: 'tools/call', params: { name: 'failing_job', arguments: {} } },
        CallToolResultSchema,
      ),
      (error) => error.code === -32601 && /must be called as a task/.test(error.message),
    );

    // As a task it runs, and fails as its handler does (on 2025-11-25 a
    // failed task).
    const seen = [];
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'failing_job', arguments: {} }, undefined, { timeout: 30_000 })) {
      seen.push(message.type);
    }
    assert.deepEqual([seen[0], seen.at(-1)], ['taskCreated', 'error'], seen.join(', '));
  } finally {
    await client.close();
  }
});
