// Shared helpers of the Node MCP suite: where the studio binary is, how to
// start it over HTTP, and how to connect the official SDK client.

import { spawn } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const CASES = JSON.parse(readFileSync(join(ROOT, 'tests/mcp/cases.json'), 'utf8'));
export const TRANSPORTS = ['stdio', 'http'];

export function studioBin() {
  const path = process.env.STUDIO_BIN
    ?? join(process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target'), 'debug', 'studio');
  if (!existsSync(path)) {
    throw new Error(`no studio binary at ${path}: build it with \`cargo build -p studio\` or set STUDIO_BIN`);
  }
  return path;
}

/** A JSON Schema 2020-12 validator with formats, strict about the schemas. */
export function newAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  return ajv;
}

async function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function waitUntilListening(child, port, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`studio exited with status ${child.exitCode} before listening`);
    }
    const up = await new Promise((done) => {
      const socket = tcpConnect({ host: '127.0.0.1', port }, () => { socket.end(); done(true); });
      socket.once('error', () => done(false));
    });
    if (up) return;
    await new Promise((wait) => setTimeout(wait, 50));
  }
  throw new Error(`studio did not listen on port ${port} within ${timeoutMs} ms`);
}

/**
 * The studio's Streamable HTTP endpoint: `$MCP_HTTP_URL` when set and no
 * `flags` are asked for, else a server started on a free loopback port with
 * `flags` after `serve --http ADDR`. `stop()` ends what was started.
 */
export async function startHttpServer(dataDir, flags = []) {
  if (process.env.MCP_HTTP_URL && flags.length === 0) {
    return { url: process.env.MCP_HTTP_URL, stop: async () => {} };
  }
  const port = await freePort();
  const child = spawn(studioBin(), ['serve', '--http', `127.0.0.1:${port}`, ...flags], {
    env: { ...process.env, STUDIO_DATA: join(dataDir, 'http') },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitUntilListening(child, port);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => stopChild(child) };
}

/**
 * The studio gateway's Streamable HTTP endpoint: `$GATEWAY_URL` when set,
 * else `studio gateway` on a free loopback port in front of a `studio serve
 * --hoot` backend, the two joined by HOOT01 and by IOPub (which carries the
 * backend's resource updates). `stop()` ends what was started.
 */
export async function startGateway(dataDir) {
  if (process.env.GATEWAY_URL) {
    return { url: process.env.GATEWAY_URL, stop: async () => {} };
  }
  const hoot = `tcp://127.0.0.1:${await freePort()}`;
  const iopub = `tcp://127.0.0.1:${await freePort()}`;
  const port = await freePort();
  const backend = spawn(studioBin(), ['serve', '--hoot', hoot, '--iopub', iopub], {
    env: { ...process.env, STUDIO_DATA: join(dataDir, 'gateway-backend') },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const gateway = spawn(studioBin(), [
    'gateway', '--backend', hoot, '--iopub', iopub, '--http', `127.0.0.1:${port}`,
  ], { stdio: ['ignore', 'inherit', 'inherit'] });
  const stop = async () => { await Promise.all([stopChild(gateway), stopChild(backend)]); };
  try {
    await waitUntilListening(gateway, port);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}/mcp`, stop };
}

/** Stops a child: SIGTERM, then SIGKILL after 5 s. */
async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export function tempDataDir() {
  const path = mkdtempSync(join(tmpdir(), 'studio-mcp-node-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * A connected SDK client over `transport` ('stdio' or 'http'), made with
 * `options`; a stdio studio is started with `flags` after `serve --stdio`.
 */
export async function connectClient(transport, { url, dataDir, flags = [], options = {} }) {
  const client = new Client({ name: 'toolwright-conformance', version: '0.1.0' }, options);
  if (transport === 'stdio') {
    await client.connect(new StdioClientTransport({
      command: studioBin(),
      args: ['serve', '--stdio', ...flags],
      env: { ...process.env, STUDIO_DATA: join(dataDir, 'stdio') },
      stderr: 'inherit',
    }));
  } else {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  }
  return client;
}

/** Every tool of tools/list by name, following pagination. */
export async function toolsByName(client) {
  const tools = new Map();
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    for (const tool of page.tools) {
      if (tools.has(tool.name)) throw new Error(`tools/list repeats \`${tool.name}\``);
      tools.set(tool.name, tool);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
