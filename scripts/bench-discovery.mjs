// What a model reads before its first call, with every schema listed and
// with progressive discovery: starts a server on stdio, speaks MCP to it
// as a client would, and counts the tokens (OpenAI's o200k_base, through
// js-tiktoken) of what reaches the model.
//
//   node scripts/bench-discovery.mjs LABEL QUERY TOOL -- COMMAND [ARGS...]
//
// Listed: the `initialize` instructions and the `tools/list` tools.
// Progressive (the same COMMAND with `--progressive`): the instructions,
// the discovery tools, `search_tools {query: QUERY}` and
// `describe_tools {names: [TOOL]}`, each result's text content (what a
// client hands the model). Prints one Markdown table row per mode.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { getEncoding } from 'js-tiktoken';

const [label, query, target, dashes, command, ...args] = process.argv.slice(2);
if (dashes !== '--' || !command) {
  console.error('usage: node scripts/bench-discovery.mjs LABEL QUERY TOOL -- COMMAND [ARGS...]');
  process.exit(2);
}
const encoding = getEncoding('o200k_base');
const tokens = (text) => encoding.encode(text).length;

/** One stdio session: `request(method, params)` answers its result. */
function session(extra) {
  const child = spawn(command, [...args, ...extra], { stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map();
  let next = 1;
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line);
    const waiting = pending.get(message.id);
    if (waiting === undefined) return; // a notification
    pending.delete(message.id);
    if (message.error) waiting.reject(new Error(JSON.stringify(message.error)));
    else waiting.resolve(message.result);
  });
  const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
  return {
    request(method, params = {}) {
      const id = next++;
      send({ jsonrpc: '2.0', id, method, params });
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
    notify(method) { send({ jsonrpc: '2.0', method }); },
    close() { child.stdin.end(); },
  };
}

async function measure(progressive) {
  const s = session(progressive ? ['--progressive'] : []);
  const init = await s.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench-discovery', version: '0' },
  });
  s.notify('notifications/initialized');
  const parts = { instructions: tokens(init.instructions ?? '') };
  const { tools } = await s.request('tools/list');
  parts.list = tokens(JSON.stringify(tools));
  let listed = tools.length;
  if (progressive) {
    const text = (result) => result.content.map((c) => c.text).join('\n');
    const found = await s.request('tools/call', { name: 'search_tools', arguments: { query } });
    const names = found.structuredContent.tools.map((t) => t.name);
    if (!names.includes(target)) throw new Error(`search_tools "${query}" did not find ${target}: ${names}`);
    parts.search = tokens(text(found));
    const described = await s.request('tools/call', { name: 'describe_tools', arguments: { names: [target] } });
    parts.describe = tokens(text(described));
    listed = `${tools.length} + 1`;
  }
  s.close();
  const total = Object.values(parts).reduce((a, b) => a + b, 0);
  return { listed, parts, total };
}

const all = await measure(false);
const progressive = await measure(true);
const row = (mode, m) => {
  const detail = Object.entries(m.parts).map(([k, v]) => `${k} ${v}`).join(', ');
  console.log(`| ${label} | ${mode} | ${m.listed} | ${m.total} | ${detail} |`);
};
row('every schema listed', all);
row('progressive', progressive);
console.log(`| ${label} | ratio | | ${(all.total / progressive.total).toFixed(1)}× fewer | |`);
