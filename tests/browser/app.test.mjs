// The generated MCP App page (codegen/src/lang/app/app.html) in a real
// browser (Debian's chromium, driven by playwright-core), inside a minimal
// host that speaks the MCP Apps protocol (app-host.html). The page is
// filled with real tool entries from generated/schemas/; the tool calls
// are answered the way Toolwright's MCP server answers them
// (app-harness.mjs). Needs no server: tests/browser/run runs it beside the
// catalogue test.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";

import { chromium } from "playwright-core";

import {
  entry, fill, lowContrast, openApp as openIn, scrollsSideways, sent, settle, shoot, success, toolError, tools,
} from "./app-harness.mjs";

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

const openApp = (options) => openIn(browser, options);

describe("the MCP App page", () => {
  it("add: the handshake, the form from its schema, a call with typed arguments, the response and the typed error", async () => {
    const { page, frame, errors, calls, messages } = await openApp({
      tool: entry("add"),
      toolInput: { a: 2, b: 3 },
      callTool: async ({ arguments: { a, b } }) => {
        const sum = a + b;
        if (Math.abs(sum) > 2 ** 63 - 1) {
          await new Promise((resolve) => setTimeout(resolve, 400));
          return toolError("OVERFLOW", "the result does not fit in a signed 64-bit integer");
        }
        return success({ result: sum });
      },
    });

    // The handshake: initialize → its answer → initialized → the input.
    await frame.locator("#json").waitFor({ state: "attached" });
    await page.waitForFunction(() => window.host.messages.some((m) => m.message.method === "ui/notifications/tool-input"));
    let log = await messages();
    const methods = log.map((m) => `${m.from}:${m.message.method ?? `answer ${m.message.id}`}`);
    const init = log.findIndex((m) => m.from === "view" && m.message.method === "ui/initialize");
    const answer = log.findIndex((m) => m.from === "host" && m.message.id === log[init].message.id && m.message.result);
    const initialized = log.findIndex((m) => m.from === "view" && m.message.method === "ui/notifications/initialized");
    const input = log.findIndex((m) => m.from === "host" && m.message.method === "ui/notifications/tool-input");
    assert.equal(init, 0, `the view speaks first with ui/initialize: ${methods.join(", ")}`);
    assert.ok(init < answer && answer < initialized && initialized < input, methods.join(", "));
    const params = log[init].message.params;
    assert.equal(params.protocolVersion, "2026-01-26");
    assert.equal(params.appInfo.name, "toolwright-app");
    assert.deepEqual(params.appCapabilities.availableDisplayModes, ["inline"]);
    for (const m of log.filter((m) => m.from === "view")) assert.equal(m.message.jsonrpc, "2.0");

    // The form: one labelled, bounded, required number input per operand.
    const a = frame.getByRole("spinbutton", { name: /^A a required$/ });
    const b = frame.getByRole("spinbutton", { name: /^B b required$/ });
    assert.equal(await a.getAttribute("step"), "1");
    assert.equal(Number(await a.getAttribute("min")), -9223372036854775808);
    assert.equal(Number(await a.getAttribute("max")), 9223372036854775807);
    assert.equal(await a.getAttribute("aria-required"), "true");
    assert.match(await frame.locator('[data-field="a"] .hint').textContent(), /Left operand\. Whole number\./);
    assert.equal(await frame.locator("h1").textContent(), "Addadd");

    // Every control is reached by keyboard, in order.
    const view = page.frames().find((f) => f !== page.mainFrame());
    await view.evaluate(() => document.activeElement?.blur());
    await a.focus();
    const stops = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("Tab");
      stops.push(await view.evaluate(() => document.activeElement.name || document.activeElement.id || document.activeElement.tagName));
    }
    assert.deepEqual(stops, ["b", "SUMMARY", "submit"]);

    // Prefilled from tool-input, and mirrored in the JSON view.
    assert.equal(await a.inputValue(), "2");
    assert.equal(await b.inputValue(), "3");
    assert.deepEqual(JSON.parse(await frame.locator("#json").inputValue()), { a: 2, b: 3 });

    // The call goes through the host with numbers as numbers.
    await frame.getByRole("button", { name: "Call add" }).click();
    await frame.locator("#result-view dd").first().waitFor();
    assert.deepEqual(calls, [{ name: "add", arguments: { a: 2, b: 3 } }]);
    log = await messages();
    const call = sent(log, "view", "tools/call").at(-1).message;
    assert.equal(typeof call.params.arguments.a, "number");
    assert.equal(typeof call.id, "number");
    assert.ok(log.some((m) => m.from === "host" && m.message.id === call.id && m.message.result?.structuredContent?.result === 5));

    // The response: labelled from outputSchema.
    assert.deepEqual(await frame.locator("#result-view dt").allTextContents(), ["Result"]);
    assert.deepEqual(await frame.locator("#result-view dd").allTextContents(), ["5"]);
    assert.equal(await frame.locator("#status").textContent(), "Done.");
    const logged = sent(log, "view", "notifications/message").at(-1).message.params;
    assert.deepEqual([logged.level, logged.data.outcome], ["info", "success"]);

    // The raw JSON toggle shows the whole result.
    await frame.getByRole("button", { name: "Raw JSON" }).click();
    assert.equal(await frame.getByRole("button", { name: "Raw JSON" }).getAttribute("aria-pressed"), "true");
    assert.deepEqual(JSON.parse(await frame.locator("#result-raw").textContent()).structuredContent, { result: 5 });
    assert.ok(await frame.locator("#result-view").isHidden());
    await frame.getByRole("button", { name: "Raw JSON" }).click();
    await shoot(page, "app-add-1280");

    // A typed error: the code, the message, and the variant named from `errors`.
    await a.fill("9000000000000000000");
    await b.fill("9000000000000000000");
    assert.deepEqual(JSON.parse(await frame.locator("#json").inputValue()), { a: 9e18, b: 9e18 });
    // Enter in a field calls too; the page is busy until the answer.
    await b.press("Enter");
    assert.equal(await frame.locator("#status").textContent(), "Calling…");
    assert.ok(await frame.getByRole("button", { name: "Call add" }).isDisabled());
    assert.equal(await frame.locator("#form").getAttribute("aria-busy"), "true");
    const failure = frame.locator(".tool-error");
    await failure.waitFor();
    assert.equal(await failure.getAttribute("data-code"), "OVERFLOW");
    assert.match(await failure.textContent(), /^OVERFLOW — Overflow/);
    assert.match(await failure.textContent(), /does not fit in a signed 64-bit integer/);
    assert.equal(await frame.locator("#status").textContent(), "Failed: OVERFLOW");
    log = await messages();
    assert.deepEqual(sent(log, "view", "notifications/message").at(-1).message.params.data, {
      tool: "add", outcome: "error", code: "OVERFLOW",
    });
    assert.ok(await frame.getByRole("button", { name: "Call add" }).isEnabled());
    await shoot(page, "app-add-error-1280");
    const contrast = await lowContrast(page);
    assert.ok(contrast.checked > 10, `${contrast.checked} texts measured`);
    assert.deepEqual(contrast.low, []);

    // The host's cancellation, its ping and its teardown request.
    await page.evaluate(() => window.host.notify("ui/notifications/tool-cancelled", { reason: "user stopped it" }));
    await frame.locator("#status", { hasText: "Cancelled: user stopped it." }).waitFor();
    assert.deepEqual(await page.evaluate(() => window.host.request("ping", {})), { jsonrpc: "2.0", id: "host-1", result: {} });
    assert.deepEqual(await page.evaluate(() => window.host.request("ui/resource-teardown", { reason: "closed" })),
      { jsonrpc: "2.0", id: "host-2", result: {} });

    // The view reported its size.
    const sizes = sent(log, "view", "ui/notifications/size-changed").map((m) => m.message.params);
    assert.ok(sizes.length > 0, "no size-changed");
    assert.ok(sizes.every((s) => Number.isInteger(s.width) && Number.isInteger(s.height) && s.height > 0), JSON.stringify(sizes));
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("garden_create_region: an enum with a default, bounds and lengths, required marks, checks before calling, a result from the host, the host's theme", async () => {
    const { page, frame, errors, calls, messages } = await openApp({
      tool: entry("garden_create_region"),
      hostContext: {
        theme: "dark",
        styles: { variables: { "--color-background-primary": "light-dark(#ffffff, #15191e)" } },
      },
      toolInputPartial: [{ start_beat: 4 }, { start_beat: 4, length_beats: 8 }],
      toolInput: { start_beat: 4, length_beats: 8, content_id: "art_1" },
      callTool: () => toolError("REGION_OVERLAP", "the region overlaps `reg_2`", { other: "reg_2" }),
    });
    await page.waitForFunction(() => window.host.messages.some((m) => m.message.method === "ui/notifications/tool-input"));
    const log = await messages();
    assert.equal(sent(log, "host", "ui/notifications/tool-input-partial").length, 2);

    // The host's theme and style variables.
    const view = page.frames().find((f) => f !== page.mainFrame());
    assert.equal(await view.evaluate(() => document.documentElement.dataset.theme), "dark");
    assert.equal(await view.evaluate(() => getComputedStyle(document.body).backgroundColor), "rgb(21, 25, 30)");

    // Controls from the schema.
    const marks = await frame.locator("#fields > .field > label").evaluateAll((all) =>
      all.map((l) => [l.getAttribute("for").replace(/^f\d+-/, ""), l.querySelector(".req, .opt").textContent]));
    assert.deepEqual(Object.fromEntries(marks), {
      behavior: "optional", content_id: "required", length_beats: "required", name: "optional", start_beat: "required",
    });
    const behavior = frame.getByRole("combobox", { name: /^Behavior behavior optional$/ });
    assert.deepEqual(await behavior.locator("option").allTextContents(), ["(default: play_content)", "play_content", "latent"]);
    const length = frame.getByRole("spinbutton", { name: /^Length beats length_beats required$/ });
    assert.deepEqual([await length.getAttribute("min"), await length.getAttribute("max"), await length.getAttribute("step")], ["0.001", "100000", "any"]);
    const name = frame.getByRole("textbox", { name: /^Name name optional$/ });
    assert.deepEqual([await name.getAttribute("minlength"), await name.getAttribute("maxlength")], ["1", "200"]);
    assert.match(await frame.locator('[data-field="name"] .hint').textContent(), /At most 200 characters\./);
    assert.match(await frame.locator('[data-field="behavior"] > .hint').first().textContent(), /Default: "play_content"/);
    // Each value's meaning, from the enum's description, under the select.
    const meaning = frame.locator(`#${await behavior.getAttribute("id")}-meaning`);
    assert.equal(await meaning.textContent(), "play_content: Play the referenced artifact (MIDI or audio).");
    assert.match(await behavior.getAttribute("aria-describedby"), /-meaning/);

    // Prefilled from the partial inputs, then the complete one.
    assert.equal(await length.inputValue(), "8");
    assert.equal(await frame.getByRole("textbox", { name: /^Content id/ }).inputValue(), "art_1");

    // Out of bounds and missing: no call, the messages by the fields, focus on the first.
    await length.fill("0");
    await frame.getByRole("textbox", { name: /^Content id/ }).fill("");
    await frame.getByRole("button", { name: "Call garden_create_region" }).click();
    assert.equal(calls.length, 0);
    assert.equal(await frame.locator('[data-field="length_beats"] .error-text').textContent(), "Must be at least 0.001.");
    assert.equal(await length.getAttribute("aria-invalid"), "true");
    assert.equal(await frame.locator('[data-field="content_id"] .error-text').textContent(), "Required.");
    assert.equal(await view.evaluate(() => document.activeElement.name), "content_id");
    assert.equal(await frame.locator("#status").textContent(), "2 fields need attention.");
    await shoot(page, "app-region-invalid-dark-1280");
    const contrast = await lowContrast(page);
    assert.ok(contrast.checked > 10, `${contrast.checked} texts measured`);
    assert.deepEqual(contrast.low, []);

    await length.fill("8.5");
    await frame.getByRole("textbox", { name: /^Content id/ }).fill("art_1");
    await behavior.selectOption("latent");
    assert.match(await meaning.textContent(), /^latent: Hold a place for content still being generated/);
    await frame.getByRole("button", { name: "Call garden_create_region" }).click();
    await frame.locator(".tool-error").waitFor();
    assert.deepEqual(calls, [{ name: "garden_create_region", arguments: { start_beat: 4, length_beats: 8.5, content_id: "art_1", behavior: "latent" } }]);
    assert.match(await frame.locator(".tool-error").textContent(), /^REGION_OVERLAP — Region overlapthe region overlaps `reg_2`/);
    assert.deepEqual(await frame.locator(".tool-error dt").allTextContents(), ["Other"]);
    assert.deepEqual(await frame.locator(".tool-error dd").allTextContents(), ["reg_2"]);

    // A result the host sends renders as a response of the tool.
    await page.evaluate((result) => window.host.notify("ui/notifications/tool-result", result), success({
      id: "reg_7", start_beat: 4, length_beats: 8.5, behavior: "latent", content_id: "art_1", name: "Intro",
    }));
    await frame.locator(".success-mark").waitFor();
    assert.deepEqual(await frame.locator("#result-view dt").allTextContents(),
      ["Behavior", "Content id", "Id", "Length beats", "Name", "Start beat"]);
    assert.deepEqual(await frame.locator("#result-view dd").allTextContents(), ["latent", "art_1", "reg_7", "8.5", "Intro", "4"]);
    await shoot(page, "app-region-result-dark-1280", frame.locator("#result"));

    // A theme change from the host.
    await page.evaluate(() => window.host.notify("ui/notifications/host-context-changed", { theme: "light" }));
    await view.waitForFunction(() => document.documentElement.dataset.theme === "light");
    assert.equal(await view.evaluate(() => getComputedStyle(document.body).backgroundColor), "rgb(255, 255, 255)");
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("ui (an action tool) at 390 and 360 px: the action picks the fields, a nested object, enum lists, the JSON view drives the form", async () => {
    const { page, frame, errors, calls } = await openApp({
      tool: entry("ui"),
      viewport: { width: 390, height: 844 },
      toolInput: { action: "screenshot", format: "webp", region: { x: 0, y: 0, width: 640, height: 480 } },
      callTool: ({ arguments: args }) => {
        if (args.action === "click") return success({ action: "click" });
        return {
          content: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==" }],
          structuredContent: { action: "screenshot", format: args.format, width: args.region.width, height: args.region.height },
        };
      },
    });
    await page.waitForFunction(() => window.host.messages.some((m) => m.message.method === "ui/notifications/tool-input"));
    const visible = () => frame.locator("#fields > .field:not([hidden])").evaluateAll((all) => all.map((f) => f.dataset.field));

    // The action select, and only the screenshot's fields.
    const action = frame.getByRole("combobox", { name: /^Action action required$/ });
    assert.equal(await action.locator("option:checked").textContent(), "screenshot");
    assert.deepEqual(await visible(), ["action", "display", "format", "region", "scale"]);
    const format = frame.getByRole("combobox", { name: /^Format/ });
    assert.deepEqual(await format.locator("option").allTextContents(), ["(default: png)", "png", "jpeg", "webp"]);
    assert.equal(await format.locator("option:checked").textContent(), "webp");

    // The nested object: a group of bounded integer fields.
    const region = frame.getByRole("group", { name: /^Region region optional$/ });
    const width = region.getByRole("spinbutton", { name: /^Width width required$/ });
    assert.deepEqual([await width.getAttribute("min"), await width.getAttribute("max")], ["1", "32767"]);
    assert.equal(await width.inputValue(), "640");
    assert.equal(await scrollsSideways(page), false, "scrolls sideways at 390 px");
    await shoot(page, "app-ui-screenshot-390");
    await shoot(page, "app-ui-region-390", region);

    // The host sized its iframe from the view's size-changed (shoot waits for it).

    await frame.getByRole("button", { name: "Call ui" }).click();
    await frame.locator("#result-view img").waitFor();
    assert.deepEqual(calls.at(-1).arguments, { action: "screenshot", format: "webp", region: { x: 0, y: 0, width: 640, height: 480 } });
    assert.deepEqual(await frame.locator("#result-view dt").allTextContents(), ["Action", "Format", "Height", "Width"]);
    assert.equal(await scrollsSideways(page), false, "scrolls sideways at 390 px with a result");
    await shoot(page, "app-ui-result-390", frame.locator("#result"));

    // Another action: its own fields, with its own required marks.
    await action.selectOption("click");
    assert.deepEqual(await visible(), ["action", "button", "clicks", "modifiers", "x", "y"]);
    assert.equal(await frame.locator('#fields > [data-field="x"] > label .req').textContent(), "required");
    const modifiers = frame.getByRole("group", { name: /^Modifiers/ });
    assert.deepEqual(await modifiers.getByRole("checkbox").evaluateAll((all) => all.map((b) => b.value)), ["shift", "ctrl", "alt", "meta", "cmd"]);
    // An anyOf of numbers (per-action bounds) is one number field with the loosest bounds.
    await action.selectOption("record");
    const duration = frame.getByRole("spinbutton", { name: /^Duration seconds/ });
    assert.deepEqual([await duration.getAttribute("min"), await duration.getAttribute("max")], ["1", "3600"]);

    // A field the action requires is checked before calling.
    await action.selectOption("click");
    await frame.getByRole("spinbutton", { name: /^Y y required$/ }).fill("5");
    const callsBefore = calls.length;
    await frame.getByRole("button", { name: "Call ui" }).click();
    assert.equal(await frame.locator('#fields > [data-field="x"] > .error-text').textContent(), "Required.");
    assert.equal(calls.length, callsBefore);

    // Editing the JSON view sets the form.
    await frame.locator("#json-panel summary").click();
    await frame.locator("#json").fill(JSON.stringify({ action: "click", x: 10, y: 20, button: "right", modifiers: ["shift", "meta"] }));
    assert.equal(await action.locator("option:checked").textContent(), "click");
    assert.equal(await frame.getByRole("spinbutton", { name: /^X x required$/ }).inputValue(), "10");
    assert.deepEqual(await modifiers.getByRole("checkbox").evaluateAll((all) => all.filter((b) => b.checked).map((b) => b.value)), ["shift", "meta"]);
    await frame.locator("#json").fill("{ not json");
    assert.match(await frame.locator("#json-error").textContent(), /^Not valid JSON/);
    await frame.locator("#json").fill(JSON.stringify({ action: "click", x: 10, y: 20, button: "right", modifiers: ["shift", "meta"] }));
    await frame.getByRole("button", { name: "Call ui" }).click();
    await page.waitForFunction(() => window.host.messages.filter((m) => m.message.method === "tools/call").length === 2);
    assert.deepEqual(calls.at(-1).arguments, { action: "click", button: "right", modifiers: ["shift", "meta"], x: 10, y: 20 });
    await frame.locator("#result-view dd", { hasText: "click" }).waitFor();
    assert.equal(await scrollsSideways(page), false, "scrolls sideways at 390 px");
    await shoot(page, "app-ui-click-390", frame.locator("#result"));
    await page.setViewportSize({ width: 360, height: 740 });
    await settle(page);
    assert.equal(await scrollsSideways(page), false, "scrolls sideways at 360 px");
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("musicgen_generate (async_long): optional booleans, a list of strings, a job handle and its result through job_status", async () => {
    const result = { artifact_id: "art_9", content_hash: "ab".repeat(32), duration_seconds: 12.5, format: "wav", sample_rate: 32000 };
    const { page, frame, errors, calls } = await openApp({
      tool: entry("musicgen_generate", "async_long"),
      toolInput: {},
      callTool: ({ name, arguments: args }) => {
        if (name === "job_status") {
          return success({ job_id: args.job_id, tool_name: "musicgen_generate", state: "complete", created_at: 1, completed_at: 2, result });
        }
        const handle = { job_id: "job_8f2k1c", tool: name, expected_timing: "async_long" };
        return { content: [{ type: "text", text: "Started job_8f2k1c: wait with job_poll" }], structuredContent: handle };
      },
    });
    assert.equal(await frame.locator("#timing").textContent(), "Timing: async_long (starts a job and answers with its ID).");
    const sample = frame.getByRole("combobox", { name: /^Do sample do_sample optional$/ });
    assert.deepEqual(await sample.locator("option").allTextContents(), ["(default: true)", "true", "false"]);
    await sample.selectOption("false");

    // A list: items added and removed.
    const tags = frame.getByRole("group", { name: /^Tags tags optional$/ });
    await tags.getByRole("button", { name: "Add item" }).click();
    await tags.getByRole("textbox").last().fill("lofi");
    await tags.getByRole("button", { name: "Add item" }).click();
    await tags.getByRole("textbox").last().fill("rain");
    await tags.getByRole("button", { name: /^Remove/ }).first().click();
    await frame.getByRole("textbox", { name: /^Prompt/ }).fill("warm rhodes");
    await frame.getByRole("spinbutton", { name: /^Duration seconds/ }).fill("12.5");
    await frame.getByRole("button", { name: "Call musicgen_generate" }).click();
    await frame.getByRole("button", { name: "Check the job" }).waitFor();
    assert.deepEqual(calls.at(-1), {
      name: "musicgen_generate",
      arguments: { do_sample: false, duration_seconds: 12.5, prompt: "warm rhodes", tags: ["rain"] },
    });
    assert.match(await frame.locator("#result-view").textContent(), /Started job job_8f2k1c \(async_long\)/);

    // The job's result, read through the host with job_status.
    await frame.getByRole("button", { name: "Check the job" }).click();
    await frame.locator("#result-view .success-mark").waitFor();
    assert.deepEqual(calls.at(-1), { name: "job_status", arguments: { job_id: "job_8f2k1c" } });
    const labels = await frame.locator("#result-view > .job dl").last().locator("dt").allTextContents();
    assert.deepEqual(labels, ["Artifact id", "Content hash", "Duration seconds", "Format", "Sample rate"]);
    await shoot(page, "app-job-1280", frame.locator("#result"));
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("builds a form for every tool of the catalogue, at 360 px, without errors", async () => {
    const { page, errors } = await openApp({ tool: entry("ping"), viewport: { width: 360, height: 740 }, toolInput: {} });
    for (const { name } of tools) {
      await page.evaluate((html) => window.host.start({ html, hostContext: { theme: "light" }, toolInput: {} }), fill(entry(name)));
      await page.waitForFunction(() => window.host.messages.some((m) => m.message.method === "ui/notifications/tool-input"));
      const view = page.frames().find((f) => f !== page.mainFrame());
      const state = await view.evaluate(() => ({
        title: document.querySelector("h1 code")?.textContent,
        fields: document.querySelectorAll("#fields > .field").length,
        empty: Boolean(document.querySelector("#fields > p.muted")),
        json: document.getElementById("json").value,
        unlabelled: [...document.querySelectorAll("input:not([type=hidden]), select, textarea")]
          .filter((e) => !e.labels?.length && !e.getAttribute("aria-label")).map((e) => e.name || e.id),
      }));
      assert.equal(state.title, name);
      assert.ok(state.fields > 0 || state.empty, `${name}: no fields`);
      assert.deepEqual(JSON.parse(state.json), {}, `${name}: arguments before any input`);
      assert.deepEqual(state.unlabelled, [], `${name}: controls without a label`);
      assert.equal(await scrollsSideways(page), false, `${name} scrolls sideways at 360 px`);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("in a host that proxies no tools: no call, no log, the host's result still shown", async () => {
    const { page, frame, errors, messages } = await openApp({
      tool: entry("multiply"),
      hostCapabilities: {},
      toolInput: { a: 6, b: 7 },
      toolResult: success({ result: 42 }),
    });
    await frame.locator(".success-mark").waitFor();
    assert.deepEqual(await frame.locator("#result-view dd").allTextContents(), ["42"]);
    assert.ok(await frame.getByRole("button", { name: "Call multiply" }).isDisabled());
    assert.match(await frame.locator("#host-note").textContent(), /does not take calls/);
    const log = await messages();
    assert.deepEqual(log.filter((m) => m.from === "view").map((m) => m.message.method),
      ["ui/initialize", "ui/notifications/initialized", ...sent(log, "view", "ui/notifications/size-changed").map(() => "ui/notifications/size-changed")]);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("falls back to a JSON box for a map, builds a tagged oneOf, and reads a JSON-RPC error", async () => {
    // No catalogue tool takes a tagged enum as input yet: this entry is
    // rag_search's with one added property of that shape.
    const tool = entry("rag_search");
    tool.inputSchema = structuredClone(tool.inputSchema);
    tool.inputSchema.$defs = {
      Source: {
        oneOf: [
          { type: "object", properties: { kind: { const: "corpus" }, name: { type: "string", minLength: 1 } }, required: ["kind", "name"] },
          { type: "object", properties: { kind: { const: "url" }, url: { type: "string", pattern: "^https://" } }, required: ["kind", "url"] },
        ],
      },
    };
    tool.inputSchema.properties.source = { $ref: "#/$defs/Source", description: "Where to search." };
    const { page, frame, errors, calls } = await openApp({
      tool,
      toolInput: { query: "tempo", filters: { lang: "en" }, source: { kind: "url", url: "https://example.org" } },
      callTool: () => ({ rpcError: { code: -32602, message: "Unknown tool: rag_search" } }),
    });
    await page.waitForFunction(() => window.host.messages.some((m) => m.message.method === "ui/notifications/tool-input"));
    const filters = frame.locator('[data-field="filters"] textarea.json');
    assert.deepEqual(JSON.parse(await filters.inputValue()), { lang: "en" });
    const kind = frame.getByRole("combobox", { name: /^Source: kind$/ });
    assert.deepEqual(await kind.locator("option").allTextContents(), ["(not set)", "corpus", "url"]);
    assert.match(await frame.locator('[data-field="source"] legend').textContent(), /^Source source optional$/);
    assert.equal(await kind.locator("option:checked").textContent(), "url");
    assert.equal(await frame.getByRole("textbox", { name: /^Url url required$/ }).inputValue(), "https://example.org");
    // Unset, it is left out; another variant brings its own fields.
    await kind.selectOption("(not set)");
    assert.equal(JSON.parse(await frame.locator("#json").inputValue()).source, undefined);
    await kind.selectOption("corpus");
    await frame.getByRole("textbox", { name: /^Name name required$/ }).fill("docs");
    await frame.getByRole("button", { name: "Call rag_search" }).click();
    await frame.locator(".tool-error").waitFor();
    assert.deepEqual(calls.at(-1).arguments.source, { kind: "corpus", name: "docs" });
    assert.deepEqual(calls.at(-1).arguments.filters, { lang: "en" });
    assert.equal(await frame.locator(".tool-error").getAttribute("data-code"), "-32602");
    await shoot(page, "app-fallbacks-1280");
    assert.deepEqual(errors, []);
    await page.close();
  });
});
