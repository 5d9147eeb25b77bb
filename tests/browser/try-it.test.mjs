// Try it on the served page, against the studio: a form built from the
// input schema and kept in step with its JSON view, a sync call with its
// status and latency, a typed error, an async tool followed through its
// event stream (its job, progress, streamed chunks and result, on a wide
// screen and a phone), a cancelled job, and the call copied as curl, Python
// and TypeScript — each copy run against the studio. Then a document
// with declared examples and an unserved tool, as the page must show them.

import assert from "node:assert/strict";
import { execFile as execFileCb } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

import { LONG_GENERATION, PAGES, axeViolations, base, expand, following, open, shoot } from "./page-harness.mjs";

const execFile = promisify(execFileCb);
const root = fileURLToPath(new URL("../../", import.meta.url));
const I64_MAX = "9223372036854775807";

/** The page, opened at `tool`, with what it copies kept in window.copied. */
async function tryPage(tool, options = {}) {
  const opened = await open(`${PAGES.served}#tool-${tool}`, {
    ...options,
    init: async (page) => {
      await page.addInitScript(() => {
        window.copied = [];
        navigator.clipboard.writeText = async (text) => {
          window.copied.push(text);
        };
      });
      if (options.init) await options.init(page);
    },
  });
  await opened.page.locator(`#tool-${tool} .body`).waitFor();
  return { ...opened, form: opened.page.locator(`#tool-${tool} form.try`) };
}

/** The JSON view's arguments. */
const jsonView = async (form) => JSON.parse(await form.locator("textarea[id^=args-]").inputValue());

/** Clicks a copy button; the text the page copied, which it also shows. */
async function copy(page, form, kind) {
  await form.locator(`button[data-copy=${kind}]`).click();
  const shown = await form.locator(`.snippet-text[data-kind=${kind}]`).textContent();
  const copied = await page.evaluate(() => window.copied.at(-1));
  assert.equal(copied, shown);
  assert.match(await form.locator(".snippet-note").textContent(), /copied to the clipboard/);
  return copied;
}

describe("try it", () => {
  it("builds a form from the input schema, in step with the JSON view", async () => {
    const { page, form, errors } = await tryPage("orpheus_generate");
    // Numbers with their bounds, enums as selects, lists as JSON, optional marked.
    const tokens = form.locator("#f-orpheus_generate-max_tokens");
    assert.equal(await tokens.getAttribute("type"), "number");
    assert.equal(await tokens.getAttribute("min"), "1");
    assert.equal(await tokens.getAttribute("max"), "8192");
    assert.equal(await tokens.getAttribute("placeholder"), "default 1024");
    const model = form.locator("#f-orpheus_generate-model");
    assert.deepEqual(await model.locator("option").allTextContents(), ["Default: base", "base", "children", "mono_melodies"]);
    assert.equal(await form.locator("#f-orpheus_generate-tags").evaluate((e) => e.tagName), "TEXTAREA");
    assert.equal(await form.locator("label[for=f-orpheus_generate-seed] .flag").textContent(), "optional");

    // The form starts from the tool's declared example (idl/orpheus.tool).
    assert.deepEqual(await jsonView(form), { max_tokens: 128, seed: 7 });
    // Form → JSON.
    await tokens.fill("512");
    await model.selectOption("children");
    await form.locator("#f-orpheus_generate-tags").fill('["a", "b"]');
    assert.deepEqual(await jsonView(form), { max_tokens: 512, seed: 7, model: "children", tags: ["a", "b"] });
    await tokens.fill("");
    assert.deepEqual(await jsonView(form), { seed: 7, model: "children", tags: ["a", "b"] });
    // JSON → form.
    await form.locator("#args-orpheus_generate").fill('{"max_tokens": 64, "model": "base", "seed": 7}');
    assert.equal(await tokens.inputValue(), "64");
    assert.equal(await model.inputValue(), "base");
    assert.equal(await form.locator("#f-orpheus_generate-seed").inputValue(), "7");
    assert.equal(await form.locator("#f-orpheus_generate-tags").inputValue(), "");
    await form.locator("#args-orpheus_generate").fill('{"max_tokens": ');
    assert.equal(await form.locator("#args-orpheus_generate").getAttribute("aria-invalid"), "true");
    assert.match(await form.locator("#args-orpheus_generate-error").textContent(), /^Not valid JSON yet/);

    // An action tool: the action picks the fields; booleans are checkboxes.
    const fs = (await expand(page, "tool-fs")).locator("form.try");
    assert.equal(await fs.locator("#action-fs").inputValue(), "read");
    assert.equal(await fs.locator("#f-fs-encoding").evaluate((e) => e.tagName), "SELECT");
    await fs.locator("#action-fs").selectOption("write");
    await fs.locator("#f-fs-create_parents").check();
    await fs.locator("#f-fs-content").fill("hello");
    const written = await jsonView(fs);
    assert.equal(written.action, "write");
    assert.equal(written.create_parents, true);
    assert.equal(written.content, "hello");
    await fs.locator("#args-fs").fill('{"action": "read", "uri": "file:///x"}');
    assert.equal(await fs.locator("#action-fs").inputValue(), "read");
    assert.equal(await fs.locator("#f-fs-uri").inputValue(), "file:///x");
    assert.equal(await fs.locator("#f-fs-content").count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("calls add from the form: the status, the latency and the result", async () => {
    const { page, form, errors } = await tryPage("add");
    await form.locator("#f-add-a").fill("2");
    await form.locator("#f-add-b").fill("3");
    assert.deepEqual(await jsonView(form), { a: 2, b: 3 });
    await form.locator("button.call").click();
    const box = form.locator(".result-box");
    await box.waitFor();
    assert.equal(await box.getAttribute("data-status"), "200");
    assert.equal(await box.locator(".http").textContent(), "HTTP 200 OK");
    assert.match(await box.locator(".latency").textContent(), /^\d+ ms$/);
    assert.equal(await box.locator(".success").textContent(), "success");
    assert.deepEqual(JSON.parse(await box.locator("pre.result").textContent()), { success: { tool: "add", result: 5 } });
    await form.scrollIntoViewIfNeeded();
    await shoot(page, "try-add");
    // The result folds away.
    await box.locator("summary").click();
    assert.ok(await box.locator("pre.result").isHidden());
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("shows a typed error's code: add overflows at i64's maximum plus one", async () => {
    const { page, form } = await tryPage("add");
    await form.locator("#f-add-a").fill(I64_MAX);
    await form.locator("#f-add-b").fill("1");
    // The integer goes out exactly as typed, not rounded to a double.
    assert.match(await form.locator("#args-add").inputValue(), new RegExp(`"a": ${I64_MAX},`));
    await form.locator("button.call").click();
    const box = form.locator(".result-box");
    await box.waitFor();
    assert.equal(await box.locator(".error-code").textContent(), "OVERFLOW");
    assert.equal(await box.getAttribute("data-status"), "200");
    await form.scrollIntoViewIfNeeded();
    await shoot(page, "try-overflow");
    await page.close();
  });

  it("follows an async tool's event stream to its end: job, progress, chunks, result", async () => {
    const { page, form, errors } = await tryPage("orpheus_generate");
    await following(page);
    // 2 × 8 steps of 100 ms, a partial_midi chunk each.
    await form.locator("#args-orpheus_generate").fill('{"max_tokens": 1024, "num_variations": 2}');
    await form.locator("button.call").click();
    const job = form.locator(".job");
    await job.waitFor();
    await job.locator("button.cancel").waitFor();
    const jobId = await job.getAttribute("data-job");
    assert.equal(await job.locator(".http").textContent(), "HTTP 200 OK");
    assert.match(await job.locator(".latency").textContent(), /^\d+ ms$/);
    assert.match(await job.locator(".facts").textContent(), new RegExp(`Job ${jobId}: running$`));
    const seen = new Set();
    const percents = new Set();
    const box = form.locator(".result-box");
    let shot = false;
    while ((await box.count()) === 0) {
      // Read at once: the result may replace the job at any moment.
      const [value, percent] = await form.evaluate((f) => {
        const bar = f.querySelector(".job progress");
        return bar && bar.hasAttribute("value") ? [bar.value, f.querySelector(".job .percent").textContent] : [null, null];
      });
      if (value !== null) seen.add(value);
      if (percent) percents.add(percent);
      if (seen.size === 2 && !shot) {
        await form.scrollIntoViewIfNeeded();
        await shoot(page, "try-async-progress");
        shot = true;
      }
      await page.waitForTimeout(50);
    }
    const between = [...seen].filter((v) => v > 0 && v < 1);
    assert.ok(between.length >= 2, `progress seen: ${[...seen].join(", ")}`);
    assert.ok([...percents].every((p) => /^\d+%$/.test(p)) && percents.size >= 2, [...percents].join(", "));

    // The result, from the stream's last event.
    assert.equal(await box.getAttribute("data-state"), "complete");
    assert.equal(await box.getAttribute("data-job"), jobId);
    assert.match(await box.locator(".http").textContent(), /^HTTP 200/);
    assert.match(await box.locator(".duration").textContent(), /^ran \d+\.\d s$/);
    const result = JSON.parse(await box.locator("pre.result").textContent());
    assert.equal(result.success.output_hashes.length, 2);
    assert.equal(result.success.total_tokens, 2048);

    // Every chunk, below the result and folded away: model_loaded, then a
    // partial_midi and a progress chunk per step.
    const streamed = form.locator("details.streamed");
    assert.equal(await streamed.evaluate((d) => d.open), false);
    assert.ok(await box.evaluate((b, s) => Boolean(b.compareDocumentPosition(s) & Node.DOCUMENT_POSITION_FOLLOWING), await streamed.elementHandle()));
    const lines = streamed.locator("ol.chunks li");
    assert.equal(await lines.count(), 33);
    assert.equal(await streamed.locator(".chunk-count").textContent(), `${await lines.count()} chunks`);
    assert.equal(await streamed.locator(".chunk-count").getAttribute("aria-live"), "polite");
    assert.ok(await streamed.locator(".chunks-hidden").isHidden());
    const texts = await lines.allTextContents();
    assert.deepEqual(texts.map((t) => t.split(" ")[0]), texts.map((_, n) => `#${n}`));
    const midi = texts.filter((t) => t.includes("partial_midi"));
    assert.equal(midi.length, 16);
    // The chunk's JSON as sent: its MIDI bytes as base64.
    const first = JSON.parse(midi[0].slice(midi[0].indexOf(" ") + 1)).partial_midi;
    assert.equal(first.variation, 0);
    assert.match(first.events, /^[A-Za-z0-9+/]+=*$/);

    // The feed shows the call, and no job_status: the page polls nothing.
    await page.locator(".card.completed", { hasText: "orpheus_generate" }).first().waitFor();
    assert.equal(await page.locator(".card", { hasText: "job_status" }).count(), 0);
    await form.scrollIntoViewIfNeeded();
    await shoot(page, "try-async-done");
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("streams an async tool's chunks on a phone, in their own box, axe-clean", async () => {
    const { page, form, errors } = await tryPage("orpheus_generate", { viewport: { width: 360, height: 780 } });
    await form.locator("#args-orpheus_generate").fill('{"max_tokens": 1024, "num_variations": 2}');
    await form.locator("button.call").click();
    const streamed = form.locator("details.streamed");
    const lines = streamed.locator("ol.chunks li");
    await page.waitForFunction((list) => list.children.length >= 12, await streamed.locator("ol.chunks").elementHandle());
    // The list keeps its newest line in view, and the page does not scroll sideways.
    const list = streamed.locator("ol.chunks");
    const newest = await list.evaluate((l) => {
      const box = l.getBoundingClientRect(), last = l.lastElementChild.getBoundingClientRect();
      return last.bottom <= box.bottom + 1 && last.top >= box.top - 1;
    });
    assert.ok(newest, "the newest chunk is in view");
    assert.equal(await page.evaluate(() => document.scrollingElement.scrollWidth - innerWidth), 0);
    const summary = await streamed.locator("summary").boundingBox();
    assert.ok(summary.height >= 44, `the summary is ${summary.height} px high`);
    assert.match(await streamed.locator(".chunk-count").textContent(), /^\d+ chunks$/);
    assert.ok((await lines.count()) >= 12);
    await streamed.scrollIntoViewIfNeeded();
    await shoot(page, "try-stream-phone");
    for (const colorScheme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme });
      const violations = await axeViolations(page);
      assert.deepEqual(violations, [], `${colorScheme}:\n${violations.join("\n")}`);
    }
    await form.locator(".result-box").waitFor();
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("cancels a running job, its last 200 chunks kept, scrolled as the reader left them", async () => {
    const { page, form, errors } = await tryPage("orpheus_generate", { viewport: { width: 390, height: 844 } });
    await form.locator("#args-orpheus_generate").fill(JSON.stringify(LONG_GENERATION));
    await form.locator("button.call").click();
    const progress = form.locator(".job progress");
    await page.waitForFunction((p) => p.value > 0, await progress.elementHandle());
    await form.locator(".job").scrollIntoViewIfNeeded();
    await shoot(page, "try-cancel-running");
    // Scrolled up, the list stays where the reader put it as chunks arrive.
    const list = await form.locator("ol.chunks").elementHandle();
    await page.waitForFunction((l) => l.scrollHeight > l.clientHeight, list);
    await list.evaluate((l) => { l.scrollTop = 0; });
    const before = await list.evaluate((l) => l.children.length);
    await page.waitForFunction(([l, n]) => l.children.length >= n + 4, [list, before]);
    assert.equal(await list.evaluate((l) => l.scrollTop), 0);
    // Past 200 chunks (1 + 2 a step of 100 ms), the earliest leave the list.
    await page.waitForFunction((l) => Number.parseInt(l.closest("details").querySelector(".chunk-count").textContent) > 210, list, { timeout: 20000 });
    await form.locator("button.cancel").click();
    const box = form.locator(".result-box");
    await box.waitFor();
    assert.equal(await box.getAttribute("data-state"), "cancelled");
    assert.equal(await box.locator(".error-code").textContent(), "CANCELLED");
    const streamed = form.locator("details.streamed");
    const received = Number.parseInt(await streamed.locator(".chunk-count").textContent());
    assert.ok(received > 210 && received < 257, `${received} chunks`);
    const lines = await streamed.locator("ol.chunks li").allTextContents();
    assert.equal(lines.length, 200);
    assert.equal(lines[0].split(" ")[0], `#${received - 200}`);
    assert.equal(lines.at(-1).split(" ")[0], `#${received - 1}`);
    assert.equal(await streamed.locator(".chunks-hidden").textContent(), `${received - 200} earlier chunks are not shown.`);
    assert.ok(lines.some((l) => l.includes("partial_midi")));
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("copies the call as curl, and the command works", async () => {
    const { page, form } = await tryPage("add");
    await form.locator("#args-add").fill(`{"a": 40, "b": 2}`);
    const command = await copy(page, form, "curl");
    assert.ok(command.startsWith(`curl -sS -X POST '${base}/api/tools/add'`), command);
    const { stdout } = await execFile("bash", ["-c", command]);
    assert.deepEqual(JSON.parse(stdout), { success: { tool: "add", result: 42 } });
    // Exact past 2^53: the studio sees i64's maximum, and overflows.
    await form.locator("#args-add").fill(`{"a": ${I64_MAX}, "b": 1}`);
    const overflowing = await copy(page, form, "curl");
    assert.equal(JSON.parse((await execFile("bash", ["-c", overflowing])).stdout).error.code, "OVERFLOW");
    await form.locator(".snippet").scrollIntoViewIfNeeded();
    await shoot(page, "try-copy-curl");
    // With a token, the command sends it (this studio needs none, and
    // takes the call either way).
    await page.evaluate(() => sessionStorage.setItem("toolwright-token", "it's-a-token"));
    await form.locator("#args-add").fill(`{"a": 1, "b": 2}`);
    const authorized = await copy(page, form, "curl");
    assert.ok(authorized.includes(`-H 'Authorization: Bearer it'\\''s-a-token'`), authorized);
    assert.equal(JSON.parse((await execFile("bash", ["-c", authorized])).stdout).success.result, 3);
    assert.match(await copy(page, form, "python"), /token="it's-a-token"/);
    assert.match(await copy(page, form, "typescript"), /\{ token: "it's-a-token" \}/);
    await page.close();
  });

  it("copies the call as Python, and it runs", async () => {
    const { page, form } = await tryPage("add");
    await form.locator("#args-add").fill(`{"a": 40, "b": 2}`);
    const program = await copy(page, form, "python");
    const { stdout } = await execFile(join(root, ".venv/bin/python"), ["-c", program], {
      env: { ...process.env, PYTHONPATH: join(root, "generated/python/src") },
    });
    assert.match(stdout, /result=42\b/);
    await page.close();
  });

  describe("copied as TypeScript", () => {
    // The generated package, compiled, where an import of it resolves.
    let scratch;
    before(async () => {
      scratch = mkdtempSync(join(tmpdir(), "tw-snippet-"));
      const pkg = join(scratch, "node_modules/toolwright-catalogue");
      await execFile(join(root, "node_modules/.bin/tsc"), ["-p", join(root, "generated/typescript"), "--outDir", join(pkg, "dist")]);
      cpSync(join(root, "generated/typescript/package.json"), join(pkg, "package.json"));
      mkdirSync(join(scratch, "node_modules/@msgpack"));
      symlinkSync(join(root, "node_modules/zod"), join(scratch, "node_modules/zod"));
      symlinkSync(join(root, "node_modules/@msgpack/msgpack"), join(scratch, "node_modules/@msgpack/msgpack"));
    });
    after(() => rmSync(scratch, { recursive: true, force: true }));

    it("runs", async () => {
      const { page, form } = await tryPage("add");
      await form.locator("#args-add").fill(`{"a": 40, "b": 2}`);
      const program = await copy(page, form, "typescript");
      // Nothing in it needs its types stripped: node runs it as it is.
      const { stdout } = await execFile("node", ["--input-type=module", "-e", program], { cwd: scratch });
      assert.match(stdout, /result: 42\b/);
      await page.close();
    });
  });
});

describe("a document with declared examples and an unserved tool", () => {
  // The studio's own document, with what other servers may send: declared
  // examples (one of them an error, one an integer past 2^53), a generated
  // sample request and nothing else, and a tool with no handler here.
  const amend = (page) =>
    page.route("**/api/tools", async (route) => {
      const document = await (await route.fetch()).json();
      const tool = (name) => document.tools.find((t) => t.name === name);
      tool("add").examples = [
        { title: "Two and three", request: { a: 2, b: 3 }, response: { result: 5 } },
        { title: "Past the largest i64", request: { a: "I64_MAX", b: 1 }, error: { code: "OVERFLOW" } },
      ];
      // multiply as a tool that declares no example: a sample only.
      delete tool("multiply").examples;
      tool("multiply").example = { request: { a: 6, b: 7 } };
      for (const t of document.tools) t.served = t.name !== "ping";
      const body = JSON.stringify(document).replace('"I64_MAX"', I64_MAX);
      await route.fulfill({ status: 200, contentType: "application/json", body });
    });

  it("shows the examples, starts from the first, and marks what is not served", async () => {
    const { page, errors } = await open(`${PAGES.served}#tool-add`, { init: amend });
    const add = page.locator("#tool-add");
    await add.locator(".body").waitFor();
    const figures = add.locator("figure.example");
    assert.deepEqual(await figures.locator("figcaption").allTextContents(), ["Two and three", "Past the largest i64"]);
    assert.deepEqual(JSON.parse(await figures.nth(0).locator(".example-response").textContent()), { result: 5 });
    assert.equal(await figures.nth(1).locator(".example-error").textContent(), "OVERFLOW");
    assert.match(await figures.nth(1).locator(".example-request").textContent(), new RegExp(`"a": ${I64_MAX}`));
    assert.deepEqual(JSON.parse(await add.locator("#args-add").inputValue()), { a: 2, b: 3 });
    await add.scrollIntoViewIfNeeded();
    await shoot(page, "examples-add");

    // A generated sample fills try-it and nothing else: no response is shown.
    const multiply = await expand(page, "tool-multiply");
    assert.deepEqual(JSON.parse(await multiply.locator("#args-multiply").inputValue()), { a: 6, b: 7 });
    assert.equal(await multiply.locator("figure.example, .example-response").count(), 0);

    // ping: marked in its summary line, its Call button disabled.
    const ping = page.locator("#tool-ping");
    assert.equal(await ping.locator(".toggle .badge.unserved").textContent(), "not served here");
    await expand(page, "tool-ping");
    assert.ok(await ping.locator("button.call").isDisabled());
    assert.match(await ping.locator("form.try").textContent(), /Not served here/);
    assert.equal(await page.locator(".badge.unserved").count(), 1);
    await ping.scrollIntoViewIfNeeded();
    await shoot(page, "examples-unserved");
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("shows the studio's declared examples, and no response for a tool that declares none", async () => {
    // add declares three examples (idl/math.tool); job_list none, so it
    // has a generated sample request and nothing the page may show as its
    // answer.
    const { page } = await open(`${PAGES.served}#tool-add`);
    await page.locator("#tool-add .body").waitFor();
    const titles = await page.locator("#tool-add figure.example figcaption").allTextContents();
    assert.deepEqual(titles, ["Two small numbers", "A negative operand", "Past the largest i64"]);
    const jobs = await expand(page, "tool-job_list");
    assert.equal(await jobs.locator(".example-response, figure.example").count(), 0);
    await page.close();
  });
});
