// The MCP App of the reference catalogue's `add` as a running studio
// serves it: read through the web route `GET /api/resources?uri=ui://add`
// (docs/web.md, "Reading a resource"), byte for byte the page the
// generator writes, rendered in the test host (app-host.html), and calls
// from its form carried by the host to the studio's `POST /api/tools/add`
// and back. Starts the studio itself; the binaries come from
// `cargo build -p studio -p toolwright-codegen` (tests/browser/run builds
// them), in $CARGO_TARGET_DIR or else target/.

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

import { openApp, sent, success, toolError } from "./app-harness.mjs";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const target = process.env.CARGO_TARGET_DIR || join(repo, "target");

/** A binary of the workspace, or a failure saying how to build it. */
function binary(name) {
  const path = join(target, "debug", name);
  assert.ok(existsSync(path), `${path} is missing: run cargo build -p studio -p toolwright-codegen`);
  return path;
}

/** The catalogue's MCP schema as the generator writes it for idl/: the
 *  `MCP_SCHEMA` string of the Rust it generates, whose `apps` map each
 *  app's URI to its page. */
function generatedSchema(work) {
  const out = join(work, "generated");
  execFileSync(binary("toolwright"), ["generate", "rust", join(repo, "idl"), "--out", out], { stdio: "pipe" });
  const rust = readFileSync(join(out, "tools.rs"), "utf8");
  const open = /const MCP_SCHEMA: &'static str = r(#*)"/.exec(rust);
  assert.ok(open, "no MCP_SCHEMA in the generated Rust");
  const start = open.index + open[0].length;
  return JSON.parse(rust.slice(start, rust.indexOf(`"${open[1]}`, start)));
}

/** The studio serving HTTP on a free loopback port, its data in `work`;
 *  its base URL once it says where it listens. */
function startStudio(work) {
  const child = spawn(binary("studio"), ["serve", "--http", "127.0.0.1:0"], {
    env: { ...process.env, STUDIO_DATA: join(work, "data") },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const base = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the studio did not listen within 60 s:\n${log}`)), 60_000);
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text) => {
      log += text;
      const where = /live tool calls at (http:\/\/[^\s/]+)\//.exec(log);
      if (where) {
        clearTimeout(timer);
        resolve(where[1]);
      }
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the studio exited (${code ?? signal}) before listening:\n${log}`));
    });
  });
  return { child, base };
}

/** A `tools/call` from the view, made on the studio's web route and
 *  answered as Toolwright's MCP server answers it: the envelope's fields
 *  (without the `tool` tag) as structured content, or its error. */
async function callStudio(base, { name, arguments: args }) {
  const response = await fetch(`${base}/api/tools/${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(args ?? {}),
  });
  const envelope = await response.json();
  if (envelope.success) {
    const { tool: _tag, ...fields } = envelope.success;
    return success(fields);
  }
  if (envelope.error) {
    const { code, message, details } = envelope.error;
    return toolError(code, message, details);
  }
  return { rpcError: { code: -32603, message: `not an answer of a sync tool: ${JSON.stringify(envelope)}` } };
}

let browser;
let studio;
let base;
let work;
before(async () => {
  work = mkdtempSync(join(tmpdir(), "toolwright-app-served-"));
  studio = startStudio(work);
  base = await studio.base;
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
});
after(async () => {
  await browser?.close();
  if (studio && studio.child.exitCode === null) {
    const exited = new Promise((resolve) => studio.child.once("exit", resolve));
    studio.child.kill("SIGTERM");
    await exited;
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the MCP App page a running studio serves", () => {
  it("add: read from /api/resources as the generator wrote it, its form rendered, calls answered by the studio", async () => {
    const response = await fetch(`${base}/api/resources?${new URLSearchParams({ uri: "ui://add" })}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/html;profile=mcp-app");
    const html = await response.text();
    assert.equal(html, generatedSchema(work).apps["ui://add"], "the served page is not the generated one");

    const calls = [];
    const { page, frame, errors, messages } = await openApp(browser, {
      html,
      toolInput: { a: 2, b: 3 },
      callTool: (params) => {
        calls.push(params);
        return callStudio(base, params);
      },
    });
    await page.waitForFunction(() => window.host.messages.some((m) => m.message.method === "ui/notifications/tool-input"));

    // The form from the tool's schema, filled from the host's input.
    const a = frame.getByRole("spinbutton", { name: /^A a required$/ });
    const b = frame.getByRole("spinbutton", { name: /^B b required$/ });
    assert.equal(await frame.locator("h1").textContent(), "Addadd");
    assert.equal(await a.inputValue(), "2");
    assert.equal(await b.inputValue(), "3");

    // A call through the host to the studio, and its answer in the view.
    await frame.getByRole("button", { name: "Call add" }).click();
    await frame.locator("#result-view dd").first().waitFor();
    assert.deepEqual(calls, [{ name: "add", arguments: { a: 2, b: 3 } }]);
    assert.deepEqual(await frame.locator("#result-view dt").allTextContents(), ["Result"]);
    assert.deepEqual(await frame.locator("#result-view dd").allTextContents(), ["5"]);
    assert.equal(await frame.locator("#status").textContent(), "Done.");
    const log = await messages();
    const call = sent(log, "view", "tools/call").at(-1).message;
    const answer = log.find((m) => m.from === "host" && m.message.id === call.id);
    assert.deepEqual(answer.message.result.structuredContent, { result: 5 });

    // The studio's own typed error, named from the tool's `errors`.
    await a.fill("9000000000000000000");
    await b.fill("9000000000000000000");
    await frame.getByRole("button", { name: "Call add" }).click();
    const failure = frame.locator(".tool-error");
    await failure.waitFor();
    assert.equal(await failure.getAttribute("data-code"), "OVERFLOW");
    assert.match(await failure.textContent(), /^OVERFLOW — Overflow/);
    assert.equal(await frame.locator("#status").textContent(), "Failed: OVERFLOW");
    assert.equal(calls.length, 2);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
