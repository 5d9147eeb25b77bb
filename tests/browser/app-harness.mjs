// What app.test.mjs needs around the MCP App page: the tool entries the
// generator would fill in (read from generated/schemas/), the page filled
// with one, the host page (app-host.html) started with it, answers shaped
// as Toolwright's MCP server shapes them (docs/wire.md, "Calling"), and
// the checks and screenshots of a rendered view.

import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";

const repo = new URL("../../", import.meta.url);
const appDir = new URL("codegen/src/lang/app/", repo);
const part = (name) => readFileSync(new URL(name, appDir), "utf8");
// The page as the generator writes it: its script's three parts in order
// where app.html marks them.
const appHtml = part("app.html").replace(
  "__TOOLWRIGHT_SCRIPT__",
  () => ["form.js", "result.js", "host.js"].map(part).join("\n"),
);
const hostUrl = new URL("./app-host.html", import.meta.url).href;
export const tools = JSON.parse(readFileSync(new URL("generated/schemas/tools.json", repo), "utf8"));
const shots = new URL("./screenshots/", import.meta.url);
mkdirSync(shots, { recursive: true });

const PLACEHOLDER = "__TOOLWRIGHT_TOOL__";

/** The entry the generator fills in: MCP's tool entry plus its typed
 *  errors, each variant's code read from the error type's schema. */
export function entry(name, timing = "sync") {
  const tool = tools.find((t) => t.name === name);
  assert.ok(tool, `no tool ${name} in generated/schemas/tools.json`);
  const declared = tool._meta?.["toolwright/errors"];
  const errors = [];
  if (declared) {
    const type = JSON.parse(readFileSync(new URL(`generated/schemas/types/${declared.type}.json`, repo), "utf8"));
    for (const variant of type.oneOf || []) {
      for (const [key, schema] of Object.entries(variant.properties || {})) {
        const code = /Error code: `([A-Z0-9_]+)`/.exec(schema.description || "")?.[1];
        if (!code) continue;
        const pascal = key.replace(/(^|_)([a-z0-9])/g, (_, __, c) => c.toUpperCase());
        errors.push({ code, name: pascal, description: schema.description.split("\n\n")[0] });
      }
    }
  }
  const { title, description, inputSchema, outputSchema } = tool;
  return { name, title, description, inputSchema, outputSchema, errors, timing };
}

/** The page with one tool's entry in place of the placeholder. */
export function fill(toolEntry) {
  assert.equal(appHtml.split(PLACEHOLDER).length, 2, "the page holds the placeholder exactly once");
  const json = JSON.stringify(toolEntry).replace(/</g, "\\u003c");
  return appHtml.replace(PLACEHOLDER, () => json);
}

/** A success as Toolwright's MCP server sends it. */
export const success = (fields) => ({ content: [{ type: "text", text: JSON.stringify(fields) }], structuredContent: fields });
/** A tool error as Toolwright's MCP server sends it. */
export const toolError = (code, message, details) => ({
  isError: true,
  content: [{ type: "text", text: `${code}: ${message}` }],
  structuredContent: details === undefined ? { code, message } : { code, message, details },
});

/** The host page with the app of one tool loaded and initialized: the
 *  page filled with `tool`, or `html` as a server gave it. */
export async function openApp(browser, { tool, html, viewport = { width: 1280, height: 800 }, hostContext, hostCapabilities, toolInputPartial, toolInput, toolResult, callTool }) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  const calls = [];
  await page.exposeFunction("hostToolCall", async (params) => {
    calls.push(params);
    return callTool ? callTool(params) : { rpcError: { code: -32601, message: "no tools here" } };
  });
  await page.goto(hostUrl);
  await page.evaluate((config) => window.host.start(config), {
    html: html ?? fill(tool),
    hostContext: { theme: "light", displayMode: "inline", platform: "web", containerDimensions: { maxHeight: 6000 }, ...hostContext },
    hostCapabilities,
    toolInputPartial,
    toolInput,
    toolResult,
  });
  await page.waitForFunction(() => window.host.initialized);
  const frame = page.frameLocator("#view");
  const messages = () => page.evaluate(() => window.host.messages);
  return { page, frame, errors, calls, messages };
}

/** Every message with this method, from this side. */
export const sent = (log, from, method) => log.filter((m) => m.from === from && m.message.method === method);

/** Waits until the host's iframe has the height the view reported. */
export async function settle(page) {
  const view = page.frames().find((f) => f !== page.mainFrame());
  for (let i = 0; i < 100; i++) {
    const content = await view.evaluate(() => new Promise((resolve) =>
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(Math.ceil(document.body.getBoundingClientRect().height))))));
    const iframe = await page.evaluate(() => document.getElementById("view").getBoundingClientRect().height);
    if (iframe === content) return;
  }
  assert.fail("the host's iframe never took the view's height");
}

/** A screenshot of the viewport, scrolled to show `target` (a locator). */
export async function shoot(page, name, target) {
  await settle(page);
  await page.mouse.move(0, 0);
  if (target) await target.scrollIntoViewIfNeeded();
  await page.screenshot({ path: new URL(`${name}.png`, shots).pathname });
}

/** How many of the view's visible texts were measured, and those whose
 *  contrast with their background is under 4.5:1. */
export async function lowContrast(page) {
  const view = page.frames().find((f) => f !== page.mainFrame());
  return view.evaluate(() => {
    const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => {
      const ch = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
    };
    const background = (e) => {
      for (; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length === 3 || c[3] > 0) return c;
      }
      return [255, 255, 255];
    };
    const low = [];
    let checked = 0;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const e = n.parentElement;
      if (!n.textContent.trim() || !e.checkVisibility() || e.closest("[hidden]")) continue;
      const style = getComputedStyle(e);
      const [l1, l2] = [lum(rgb(style.color)), lum(background(e))].sort((x, y) => y - x);
      const ratio = (l1 + 0.05) / (l2 + 0.05);
      checked++;
      if (ratio < 4.5) low.push(`${n.textContent.trim().slice(0, 30)}: ${ratio.toFixed(2)}`);
    }
    return { checked, low };
  });
}

/** Whether the view and the host scroll sideways. */
export async function scrollsSideways(page) {
  const frame = page.frames().find((f) => f !== page.mainFrame());
  const inner = await frame.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
  const outer = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
  return inner || outer;
}
