// What the catalogue page's tests share: Chromium, the two pages (the
// static one `toolwright docs` writes and the one the studio serves), a
// page whose console errors fail the scenario, screenshots, calls to the
// studio from outside the page, and axe-core.
// tests/browser/run sets TOOLWRIGHT_DOCS (the static page's path) and
// TOOLWRIGHT_WEB_URL (the studio).

import { mkdirSync } from "node:fs";
import { after, before } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";

import { chromium } from "playwright-core";

const docs = process.env.TOOLWRIGHT_DOCS;
export const base = process.env.TOOLWRIGHT_WEB_URL;
if (!docs || !base) throw new Error("TOOLWRIGHT_DOCS and TOOLWRIGHT_WEB_URL are not set: run tests/browser/run");

/** The two pages, by name. */
export const PAGES = { static: pathToFileURL(docs).href, served: `${base}/` };

/** The viewports every layout check runs at. */
export const VIEWPORTS = { wide: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

const shots = new URL("./screenshots/", import.meta.url);
mkdirSync(shots, { recursive: true });
const axePath = fileURLToPath(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url));

let browser;
before(async () => {
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
});
after(async () => {
  await browser?.close();
});

/**
 * A fresh page at `url` with at least one entry rendered; `errors`
 * collects its console errors and uncaught exceptions.
 */
export async function open(url, { viewport = { width: 1280, height: 900 }, colorScheme = "light", init } = {}) {
  const context = await browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  if (init) await init(page);
  await page.goto(url);
  await page.waitForSelector("article");
  page.once("close", () => context.close().catch(() => {}));
  return { page, errors };
}

export async function shoot(page, name, options = {}) {
  await page.screenshot({ path: new URL(`${name}.png`, shots).pathname, fullPage: false, ...options });
}

/** Opens a collapsed entry by its summary button; its article. */
export async function expand(page, id) {
  const article = page.locator(`#${id}`);
  const toggle = article.locator(".toggle");
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await article.locator(".body").waitFor();
  return article;
}

/** Calls a tool of the studio from outside the page; its envelope. */
export async function call(tool, args) {
  const response = await fetch(`${base}/api/tools/${tool}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(args),
  });
  return response.json();
}

/** Waits until the page follows the feed: calls add until its card shows. */
export async function following(page) {
  const card = page.locator(".card.completed", { hasText: "add" });
  for (let i = 0; i < 50 && (await card.count()) === 0; i++) {
    await call("add", { a: 1, b: 1 });
    await page.waitForTimeout(100);
  }
  await card.first().waitFor({ state: "attached" });
}

/**
 * Follows the studio's events until the returned function is called. The
 * runtime traces a call only if someone follows the events when it starts
 * (`ToolEvents::start`): the end of a job started with nobody following
 * is never sent, even to a page that opens while it runs.
 */
export async function observe() {
  const stop = new AbortController();
  const response = await fetch(`${base}/api/events`, { signal: stop.signal });
  response.body.pipeTo(new WritableStream(), { signal: stop.signal }).catch(() => {});
  return () => stop.abort();
}

/** A generation of 8 × 16 steps: with the run's 100 ms steps, 12.8 s. */
export const LONG_GENERATION = { max_tokens: 2048, num_variations: 8 };

/**
 * axe-core's serious and critical violations on the page as it is now,
 * one line each (rule, impact, the elements and what is wrong).
 */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === "object"))) await page.addScriptTag({ path: axePath });
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")}: ${n.failureSummary.replace(/\s+/g, " ")}`));
}
