// The studio server through the official MCP TypeScript SDK client, over
// stdio and Streamable HTTP: handshake, tools/list, every tool called, an
// async tool followed through the job tools, typed errors, bad arguments.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';

import {
  CASES, TRANSPORTS, connectClient, newAjv, startHttpServer, tempDataDir, toolsByName,
} from './support.mjs';
import { minimalInstance } from './instances.mjs';

const KNOWN_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];

function assertSubset(expected, actual, path = 'structuredContent') {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    assert.equal(typeof actual, 'object', `${path}: expected an object, got ${JSON.stringify(actual)}`);
    for (const [key, value] of Object.entries(expected)) {
      assert.ok(key in actual, `${path}: no \`${key}\` in ${JSON.stringify(actual)}`);
      assertSubset(value, actual[key], `${path}.${key}`);
    }
  } else {
    assert.deepEqual(actual, expected, path);
  }
}

function assertToolError(result, code) {
  assert.equal(result.isError, true, `expected isError with ${code}, got ${JSON.stringify(result)}`);
  const error = result.structuredContent;
  assert.equal(error?.code, code, JSON.stringify(result));
  assert.ok(typeof error.message === 'string' && error.message.length > 0, JSON.stringify(error));
  assert.ok(result.content.length > 0, 'a tool error also says what went wrong as text');
  return error;
}

const dataDir = tempDataDir();
let http;

before(async () => { http = await startHttpServer(dataDir.path); });
after(async () => { await http?.stop(); dataDir.remove(); });

for (const transport of TRANSPORTS) {
  describe(`studio over ${transport}`, () => {
    let client;
    let tools;
    const ajv = newAjv();
    const validate = (schema, value, what) => {
      const check = ajv.compile(schema);
      assert.ok(check(value), `${what}: ${ajv.errorsText(check.errors)} in ${JSON.stringify(value)}`);
    };
    const success = (name, result) => {
      assert.notEqual(result.isError, true, `\`${name}\` failed: ${JSON.stringify(result)}`);
      const tool = tools.get(name);
      assert.ok(tool.outputSchema, `\`${name}\` declares no outputSchema`);
      validate(tool.outputSchema, result.structuredContent, `${name} structuredContent`);
      return result.structuredContent;
    };
    const call = (name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });

    before(async () => {
      client = await connectClient(transport, { url: http.url, dataDir: dataDir.path });
      tools = await toolsByName(client);
    });
    after(async () => { await client?.close(); });

    test('initialize negotiates a known revision and announces tools', async () => {
      // The SDK refuses a revision it does not support; over HTTP the
      // transport also shows which one was negotiated.
      if (transport === 'http') {
        assert.ok(KNOWN_PROTOCOL_VERSIONS.includes(client.transport.protocolVersion));
      }
      assert.ok(client.getServerVersion()?.name, 'the server names itself');
      assert.ok(client.getServerCapabilities()?.tools, 'the server announces tools');
      await client.ping();
    });

    test('every tool has a name, a description and an object inputSchema', () => {
      for (const name of CASES.implemented) assert.ok(tools.has(name), `\`${name}\` is missing`);
      for (const [name, tool] of tools) {
        assert.ok(tool.description?.trim(), `\`${name}\` has no description`);
        assert.equal(tool.inputSchema?.type, 'object', `\`${name}\`: inputSchema is not an object`);
        assert.ok(ajv.validateSchema(tool.inputSchema), `${name} inputSchema: ${ajv.errorsText()}`);
        if (tool.outputSchema) {
          assert.equal(tool.outputSchema.type, 'object', `\`${name}\`: outputSchema is not an object`);
          assert.ok(ajv.validateSchema(tool.outputSchema), `${name} outputSchema: ${ajv.errorsText()}`);
        }
      }
    });

    test('implemented tools answer what their outputSchema says', async () => {
      const called = new Set([...CASES.calls.map((c) => c.tool), ...CASES.covered_by_job_test]);
      assert.deepEqual([...called].sort(), [...CASES.implemented].sort());
      for (const { tool, arguments: args, expect } of CASES.calls) {
        validate(tools.get(tool).inputSchema, args, `${tool} arguments`);
        assertSubset(expect, success(tool, await call(tool, args)));
      }
    });

    test('pattern samples match their patterns', () => {
      for (const [pattern, sample] of Object.entries(CASES.pattern_samples)) {
        assert.match(sample, new RegExp(pattern, 'u'));
      }
    });

    test('unimplemented tools answer NOT_IMPLEMENTED', async () => {
      const unimplemented = [...tools.keys()].filter((name) => !CASES.implemented.includes(name)).sort();
      assert.ok(unimplemented.length >= 50, `expected the unserved tools, got ${unimplemented}`);
      const jobs = new Map();
      for (const name of unimplemented) {
        const schema = tools.get(name).inputSchema;
        const args = CASES.unimplemented_arguments[name] ?? minimalInstance(schema, CASES.pattern_samples);
        validate(schema, args, `${name} arguments`);
        const result = await call(name, args);
        if (result.isError) {
          const error = assertToolError(result, 'NOT_IMPLEMENTED');
          assert.ok(error.message.includes(name), JSON.stringify(error));
        } else {
          // `async_long` and `fire_and_forget` tools answer a job handle at
          // once; their job then fails with NOT_IMPLEMENTED.
          const handle = result.structuredContent;
          assert.equal(handle.tool, name);
          assert.ok(['async_long', 'fire_and_forget'].includes(handle.expected_timing), JSON.stringify(handle));
          jobs.set(handle.job_id, name);
        }
      }
      const polled = success('job_poll', await call('job_poll', {
        job_ids: [...jobs.keys()].sort(), timeout_ms: 20_000, mode: 'all',
      }));
      assert.deepEqual([...polled.failed].sort(), [...jobs.keys()].sort());
      const listed = success('job_list', await call('job_list', { state: 'failed', limit: 1000 }));
      const failed = new Map(listed.jobs.map((info) => [info.job_id, info]));
      for (const [jobId, name] of jobs) {
        assert.equal(failed.get(jobId)?.tool_name, name);
        assert.equal(failed.get(jobId)?.error_code, 'NOT_IMPLEMENTED');
      }
    });

    test('an async tool answers a job handle and the job tools follow it', async () => {
      const job = CASES.job;
      const started = await call(job.tool, job.arguments);
      assert.notEqual(started.isError, true, JSON.stringify(started));
      const handle = started.structuredContent;
      assert.equal(handle.tool, job.tool);
      assert.equal(handle.expected_timing, 'async_long');
      assert.match(handle.job_id, /^job_[A-Za-z0-9]+$/);

      const polled = success('job_poll', await call('job_poll', {
        job_ids: [handle.job_id], timeout_ms: job.poll_timeout_ms, mode: 'all',
      }));
      assert.deepEqual(polled.completed, [handle.job_id]);
      assert.equal(polled.timed_out, false);

      const status = success('job_status', await call('job_status', { job_id: handle.job_id }));
      assert.equal(status.state, 'complete');
      assert.equal(status.result.output_hashes.length, job.arguments.num_variations);

      const cancelled = success('job_cancel', await call('job_cancel', { job_id: handle.job_id }));
      assert.deepEqual(cancelled, { job_id: handle.job_id, cancelled: false, state: 'complete' });
    });

    test('an async tool runs as an MCP task (2025-11-25)', async () => {
      const job = CASES.job;
      assert.ok(client.getServerCapabilities()?.tasks?.requests?.tools?.call, 'tasks for tools/call');
      assert.equal(tools.get(job.tool).execution?.taskSupport, 'optional');
      assert.equal(tools.get('add').execution, undefined, 'a sync tool is not called as a task');

      const seen = [];
      let taskId;
      let result;
      const stream = client.experimental.tasks.callToolStream(
        { name: job.tool, arguments: job.arguments }, undefined, { timeout: 60_000 });
      for await (const message of stream) {
        seen.push(message.type);
        if (message.type === 'taskCreated') taskId = message.task.taskId;
        if (message.type === 'result') result = message.result;
        if (message.type === 'error') assert.fail(`the task failed: ${message.error}`);
      }
      assert.equal(seen[0], 'taskCreated', seen.join(', '));
      assert.equal(seen.at(-1), 'result', seen.join(', '));
      assert.match(taskId, /^job_[A-Za-z0-9]+$/);
      const output = success(job.tool, result);
      assert.equal(output.output_hashes.length, job.arguments.num_variations);
      assert.equal(result._meta?.['io.modelcontextprotocol/related-task']?.taskId, taskId);

      const task = await client.experimental.tasks.getTask(taskId);
      assert.equal(task.status, 'completed');
      const listed = await client.experimental.tasks.listTasks();
      assert.ok(listed.tasks.some((t) => t.taskId === taskId), JSON.stringify(listed));
      // The task is the job: the job tools see it too.
      const status = success('job_status', await call('job_status', { job_id: taskId }));
      assert.equal(status.state, 'complete');
      await assert.rejects(client.experimental.tasks.cancelTask(taskId), /already completed/);
    });

    test('typed errors carry their code and details', async () => {
      for (const { tool, arguments: args, code, details } of CASES.typed_errors) {
        const error = assertToolError(await call(tool, args), code);
        assert.deepEqual(error.details, details, `${tool}: ${JSON.stringify(error)}`);
      }
    });

    test('bad arguments are INVALID_REQUEST naming the field', async () => {
      for (const { tool, arguments: args, names, says = '' } of CASES.bad_arguments) {
        const check = ajv.compile(tools.get(tool).inputSchema);
        assert.equal(check(args), false, `the inputSchema of ${tool} accepts ${JSON.stringify(args)}`);
        const error = assertToolError(await call(tool, args), 'INVALID_REQUEST');
        assert.ok(error.message.includes(names), `${tool}: ${error.message}`);
        // A broken @range, @length or @pattern says which bound.
        assert.ok(error.message.includes(says), `${tool}: ${error.message}`);
      }
    });

    test('an unknown tool is a protocol error', async () => {
      await assert.rejects(call('addd', { a: 1, b: 2 }), (error) => {
        assert.ok(error instanceof McpError, String(error));
        assert.equal(error.code, ErrorCode.InvalidParams);
        assert.match(error.message, /`addd`/);
        return true;
      });
    });
  });
}
