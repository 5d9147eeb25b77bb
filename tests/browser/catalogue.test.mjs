// The HTML catalogue in a real browser (Debian's chromium, driven by
// playwright-core): the static page `toolwright docs` writes, and the page
// the studio serves at `/` with try-it forms and live execution cards.
// tests/browser/run generates the page, starts the studio and sets
// TOOLWRIGHT_DOCS (the page's path) and TOOLWRIGHT_WEB_URL.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { LONG_GENERATION, PAGES, base, call, expand, following, observe, open, shoot } from "./page-harness.mjs";

/** The tools the page embeds (static) or the server lists (served). */
async function toolNames(page, served) {
  if (served) return (await (await fetch(`${base}/api/tools`)).json()).tools.map((t) => t.name);
  return page.evaluate(() => JSON.parse(document.getElementById("toolwright-catalogue").textContent).tools.map((t) => t.name));
}

/** Tabs through the page; the ids, names or labels of what got focus. */
async function tabStops(page, count) {
  const seen = [];
  for (let i = 0; i < count; i++) {
    await page.keyboard.press("Tab");
    seen.push(
      await page.evaluate(() => {
        const e = document.activeElement;
        if (!e || e === document.body) return "";
        return e.id || e.getAttribute("href") || e.textContent.trim().slice(0, 40);
      }),
    );
  }
  return seen;
}

describe("the static page", () => {
  const url = PAGES.static;

  it("lists every tool, with an anchor each", async () => {
    const { page, errors } = await open(url);
    const names = await toolNames(page, false);
    const articles = await page.$$eval("#tools article", (all) => all.map((a) => a.id));
    assert.deepEqual(articles.sort(), names.map((n) => `tool-${n}`).sort());
    assert.equal(await page.$$eval("#toc li[data-tool] a", (all) => all.length), names.length);
    assert.equal(await page.locator("form.try").count(), 0, "no try-it without a server");
    // Collapsed: each tool its summary line, until opened.
    assert.equal(await page.locator("#tools article .body:visible").count(), 0);
    const add = page.locator("#tool-add .toggle");
    assert.match(await add.textContent(), /add.*Add.*sync.*Add two integers/);
    assert.equal(await add.getAttribute("aria-expanded"), "false");
    await add.click();
    assert.equal(await add.getAttribute("aria-expanded"), "true");
    assert.ok(await page.locator("#tool-add .body table.params").first().isVisible());
    await shoot(page, "static-all");
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("narrows the list as one types, and filters by category", async () => {
    const { page } = await open(url);
    const total = await page.locator("article:visible").count();
    await page.fill("#search", "midi");
    const visible = await page.$$eval("article", (all) => all.filter((a) => !a.hidden).map((a) => a.dataset.search));
    assert.ok(visible.length > 0 && visible.length < total, `${visible.length} of ${total}`);
    assert.ok(visible.every((text) => text.includes("midi")));
    await shoot(page, "static-search");
    await page.fill("#search", "");
    await page.selectOption("#category", "math");
    const categories = await page.$$eval(".category", (all) => all.filter((g) => !g.hidden).map((g) => g.dataset.category));
    assert.deepEqual(categories, ["math"]);
    await shoot(page, "static-category");
    await page.close();
  });

  it("lists the resources and prompts in their own sections", async () => {
    const { page } = await open(url);
    const object = page.locator("#resources #resource-cas_object");
    assert.equal(await object.locator("code.uri").textContent(), "cas://objects/{hash}");
    assert.ok((await object.locator(".completions").textContent()).includes("hash"));
    assert.ok((await page.locator("#prompts article").count()) > 0);
    await page.close();
  });

  it("opens at a tool's anchor and marks what is deprecated", async () => {
    const { page } = await open(`${url}#tool-add`);
    assert.equal(await page.evaluate(() => document.querySelector(":target")?.id), "tool-add");
    assert.equal(await page.locator("#tool-add .toggle").getAttribute("aria-expanded"), "true");
    // Scrolled to the top of the view, just below the sticky bar.
    await page.waitForFunction(() => {
      const top = document.getElementById("tool-add").getBoundingClientRect().top;
      const bar = document.getElementById("bar").getBoundingClientRect().bottom;
      return top >= bar && top - bar < 16;
    });
    // Another tool's link opens that one.
    await page.click('#toc a[href="#tool-multiply"]');
    assert.equal(await page.locator("#tool-multiply .toggle").getAttribute("aria-expanded"), "true");
    assert.equal(await page.evaluate(() => document.activeElement.closest("article")?.id), "tool-multiply");
    // beatthis.tool deprecates a parameter: it is struck through.
    const deprecated = await page.$$eval(".deprecated", (all) => all.map((e) => e.textContent));
    assert.ok(deprecated.length > 0);
    await shoot(page, "static-anchor");
    await page.close();
  });

  it("reaches the search, the filter and every tool link by keyboard", async () => {
    const { page } = await open(url);
    const names = await toolNames(page, false);
    const stops = await tabStops(page, names.length + 8);
    assert.equal(stops[0], "#tools", "the skip link comes first");
    assert.ok(stops.includes("search") && stops.includes("category") && stops.includes("theme"), stops.slice(0, 6).join(", "));
    for (const name of names) assert.ok(stops.includes(`#tool-${name}`), `no tab stop for ${name}`);
    await page.close();
  });
});

describe("the served page", () => {
  it("lists every tool the server offers", async () => {
    const { page, errors } = await open(PAGES.served);
    const names = await toolNames(page, true);
    assert.equal(await page.locator("#tools article").count(), names.length);
    assert.equal(await page.locator("form.try").count(), names.length);
    await shoot(page, "served-all");
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("calls add from its try-it form and shows the result", async () => {
    const { page } = await open(`${base}/#tool-add`);
    const form = page.locator("#tool-add form.try");
    await form.locator("#args-add").fill('{"a": 2, "b": 3}');
    await form.locator("button.call").click();
    await form.locator("pre.result").waitFor();
    const result = JSON.parse(await form.locator("pre.result").textContent());
    assert.deepEqual(result, { success: { tool: "add", result: 5 } });
    await form.scrollIntoViewIfNeeded();
    await shoot(page, "served-try-add");
    await page.close();
  });

  it("shows a typed error's code", async () => {
    const { page } = await open(`${base}/#tool-add`);
    const add = page.locator("#tool-add form.try");
    await add.locator("#args-add").fill('{"a": 1}');
    await add.locator("button.call").click();
    assert.equal(await add.locator(".error-code").textContent(), "INVALID_REQUEST");
    // A tool's own error: nothing is stored under an all-zero hash.
    await expand(page, "tool-cas_get");
    const get = page.locator("#tool-cas_get form.try");
    await get.locator("#args-cas_get").fill(`{"hash": "${"0".repeat(64)}"}`);
    await get.locator("button.call").click();
    assert.equal(await get.locator(".error-code").textContent(), "NOT_FOUND");
    await get.scrollIntoViewIfNeeded();
    await shoot(page, "served-typed-error");
    // A tool this studio has no handler for is marked, and cannot be called.
    await expand(page, "tool-ping");
    assert.match(await page.locator("#tool-ping").textContent(), /not served here/);
    assert.equal(await page.locator("#tool-ping form.try button.call").isDisabled(), true);
    await page.close();
  });

  // The feed subscribes once the page has loaded: calls made before then
  // are not seen, so call until `card` shows.
  async function postUntilShown(page, card, tool, body) {
    for (let i = 0; i < 50 && (await card.count()) === 0; i++) {
      await fetch(`${base}/api/tools/${tool}`, { method: "POST", headers: { "content-type": "application/json" }, body });
      await page.waitForTimeout(100);
    }
    await card.first().waitFor();
  }

  it("shows live cards for a call made from another client", async () => {
    const { page } = await open(PAGES.served);
    const card = page.locator(".card.completed", { hasText: "multiply" });
    await postUntilShown(page, card, "multiply", '{"a": 6, "b": 7}');
    const text = await card.first().textContent();
    assert.ok(text.includes("local") && text.includes('{"result":42}'), text);
    await shoot(page, "served-live-card");
    await page.close();
  });

  it("shows a call refused before it started as one card with its code", async () => {
    const { page, errors } = await open(PAGES.served);
    const card = page.locator(".card.refused", { hasText: "multipy" });
    await postUntilShown(page, card, "multipy", "{}");
    const text = await card.first().textContent();
    assert.ok(text.includes("refused") && text.includes("UNKNOWN_TOOL") && text.includes("did you mean `multiply`"), text);
    assert.ok(!text.includes("null") && !text.includes("undefined"), text);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("shows a running call's time as it runs, then how long it took", async () => {
    const { page, errors } = await open(PAGES.served);
    await following(page);
    const started = await call("orpheus_generate", LONG_GENERATION);
    const job = started.job_started.job_id;
    const running = page.locator(".card.running", { hasText: "orpheus_generate" });
    await running.waitFor();
    const id = await running.getAttribute("data-call");
    const seconds = async () => Number.parseFloat(await running.locator(".elapsed").textContent());
    const first = await seconds();
    await page.waitForTimeout(700);
    const later = await seconds();
    assert.ok(later >= first + 0.5, `${first} s, then ${later} s`);
    const text = await running.textContent();
    assert.ok(text.includes("running") && text.includes("max_tokens"), text);
    assert.ok(!text.includes("null"), text);
    await running.scrollIntoViewIfNeeded();
    await shoot(page, "served-running-card");

    await call("job_cancel", { job_id: job });
    const ended = page.locator(`.card.failed[data-call="${id}"]`);
    await ended.waitFor();
    const done = await ended.textContent();
    assert.ok(done.includes("CANCELLED") && / \d+\.\d ms/.test(done), done);
    assert.ok(!done.includes("null"), done);
    assert.equal(await ended.locator(".elapsed").count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("shows what it knows of a call that started before it opened", async () => {
    const unobserve = await observe();
    const started = await call("orpheus_generate", LONG_GENERATION);
    const { page, errors } = await open(PAGES.served);
    await following(page);
    await call("job_cancel", { job_id: started.job_started.job_id });
    const card = page.locator(".card.failed", { hasText: "orpheus_generate" });
    await card.waitFor();
    const text = await card.textContent();
    assert.ok(text.includes("Started before this page") && text.includes("CANCELLED"), text);
    assert.ok(!text.includes("null"), text);
    assert.equal(await card.locator("pre.input").count(), 0);
    await shoot(page, "served-unseen-start");
    unobserve();
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("says how many events were missed when the server skipped ahead", async () => {
    const { page, errors } = await open(PAGES.served);
    await following(page);
    // Later cards push old items out of the feed: note every notice shown.
    await page.evaluate(() => {
      window.notices = [];
      new MutationObserver((changes) => {
        for (const change of changes) {
          for (const node of change.addedNodes) {
            if (node.classList?.contains("lagged")) window.notices.push(node.textContent);
          }
        }
      }).observe(document.getElementById("feed"), { childList: true });
    });
    // The server sends at most 100 events every 50 ms: a burst of calls
    // outruns that, and the rest are skipped.
    const notices = () => page.evaluate(() => window.notices);
    for (let round = 0; round < 10 && (await notices()).length === 0; round++) {
      await Promise.all(Array.from({ length: 200 }, (_, i) => call("add", { a: i, b: round })));
      await page.waitForTimeout(200);
    }
    const seen = await notices();
    assert.ok(seen.length > 0, "no notice of missed events");
    assert.match(seen[0], /^\d+ events were missed$/);
    assert.ok(Number.parseInt(seen[0], 10) > 0, seen[0]);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("reaches a tool's try-it controls by keyboard", async () => {
    const { page } = await open(PAGES.served);
    await page.fill("#search", "multiply");
    await page.focus("#search");
    // Category, the tool list's one link, then the tool's summary: Enter opens it.
    const toSummary = await tabStops(page, 3);
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute("aria-controls")), "tool-multiply-body", toSummary.join(", "));
    await page.keyboard.press("Enter");
    const stops = await tabStops(page, 8);
    assert.ok(stops.includes("f-multiply-a") && stops.includes("f-multiply-b"), stops.join(", "));
    assert.ok(stops.includes("args-multiply"), stops.join(", "));
    assert.ok(stops.includes("Call multiply"), stops.join(", "));
    await page.close();
  });
});
