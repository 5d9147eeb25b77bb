// The catalogue viewer, part 2 of 3: try it, on a served page. A tool's
// form built from its input schema and kept in step with a JSON view, the
// call and its outcome, a job followed through its event stream, and the
// call copied as curl, TypeScript or Python.

// ---- Try it: a form from the input schema, with its JSON view ------------

/** Follows a local $ref into the schema's $defs, keeping the referrer's own keywords. */
function resolve(schema, root) {
  let s = schema || {};
  for (let depth = 0; s.$ref && depth < 16; depth++) {
    const target = s.$ref.startsWith("#/$defs/") ? (root.$defs || {})[s.$ref.slice(8)] : null;
    if (!target) break;
    const { $ref, ...own } = s;
    s = { ...target, ...own };
  }
  return s;
}

/** An input schema for what has none (a server before them): from the parameters. */
function schemaOf(entry) {
  if (entry.inputSchema && entry.inputSchema.properties) return entry.inputSchema;
  const properties = {};
  for (const p of entry.parameters || []) properties[p.name] = { type: p.type, description: p.description, default: p.default };
  return { properties, required: (entry.parameters || []).filter((p) => p.required).map((p) => p.name) };
}

// The ranges of the integer types themselves say nothing a type does not.
const WIDTHS = new Set([8, 16, 32, 64].flatMap((n) => [
  "0.." + (2n ** BigInt(n) - 1n), -(2n ** BigInt(n - 1)) + ".." + (2n ** BigInt(n - 1) - 1n)]));

function hintText(s) {
  const parts = [firstParagraph(s.description)];
  if (s.minimum !== undefined && s.maximum !== undefined && !WIDTHS.has(show(s.minimum) + ".." + show(s.maximum))) {
    parts.push("from " + show(s.minimum) + " to " + show(s.maximum));
  }
  if (s.minLength !== undefined || s.maxLength !== undefined) parts.push("length " + show(s.minLength ?? 0) + "–" + show(s.maxLength ?? "∞"));
  if (s.pattern) parts.push("matches " + s.pattern);
  if (s.contentEncoding === "base64") parts.push("bytes as base64");
  if (s.default !== undefined) parts.push("default " + show(s.default));
  return parts.filter(Boolean).join(" · ");
}

/**
 * One argument's control, labelled and described, as its schema says:
 * enums as selects, booleans as checkboxes, numbers with their bounds,
 * strings as text, anything else (lists, objects, any JSON) as a JSON
 * sub-field. `changed(value)` gets undefined for an argument left out.
 */
function argumentField(id, name, s, required, changed) {
  const hintId = id + "-hint", errorId = id + "-error";
  const hint = el("span", { id: hintId, class: "hint", text: hintText(s) });
  const error = el("p", { id: errorId, class: "field-error", "aria-live": "polite" });
  const flag = el("span", { class: "flag " + (required ? "req" : "opt"), text: required ? "required" : "optional" });
  const described = { id, "aria-describedby": hintId + " " + errorId };
  const fail = (control, message) => { error.textContent = message; control.setAttribute("aria-invalid", String(Boolean(message))); };
  if (s.type === "boolean") {
    const box = el("input", { type: "checkbox", ...described });
    box.addEventListener("change", () => changed(box.checked));
    return { node: el("div", { class: "field" }, el("label", { class: "check", for: id }, box, el("code", { text: name }), flag), hint, error),
      set: (v) => { box.checked = v === undefined ? s.default === true : v === true; } };
  }
  const label = el("label", { for: id }, el("code", { text: name }), flag);
  let control, set;
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === "string")) {
    control = el("select", described,
      el("option", { value: "", text: required ? "Choose a value" : s.default !== undefined ? "Default: " + show(s.default) : "Left out" }),
      s.enum.map((v) => el("option", { value: v, text: v })));
    control.addEventListener("change", () => changed(control.value === "" ? undefined : control.value));
    set = (v) => { control.value = typeof v === "string" && s.enum.includes(v) ? v : ""; };
  } else if (s.type === "integer" || s.type === "number") {
    const integer = s.type === "integer";
    control = el("input", { type: "number", inputmode: integer ? "numeric" : "decimal", step: integer ? "1" : "any", ...described,
      min: s.minimum !== undefined ? show(s.minimum) : null, max: s.maximum !== undefined ? show(s.maximum) : null,
      placeholder: s.default !== undefined ? "default " + show(s.default) : null });
    control.addEventListener("input", () => {
      const text = control.value.trim();
      if (control.validity.badInput) return fail(control, "Not a number yet.");
      fail(control, "");
      if (!text) return changed(undefined);
      // An integer beyond 2^53 goes out exactly as typed.
      changed(integer && exact && /^-?\d+$/.test(text) && !Number.isSafeInteger(Number(text)) ? JSON.rawJSON(text) : Number(text));
    });
    set = (v) => { control.value = typeof v === "number" || isRaw(v) ? show(v) : ""; fail(control, ""); };
  } else if (s.type === "string") {
    control = el("input", { type: "text", autocomplete: "off", spellcheck: "false", ...described,
      placeholder: s.default !== undefined ? "default " + show(s.default) : null });
    control.addEventListener("input", () => changed(control.value === "" ? undefined : control.value));
    set = (v) => { control.value = typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v); };
  } else {
    label.append(el("span", { class: "flag", text: "JSON" }));
    control = el("textarea", { rows: "2", spellcheck: "false", ...described });
    control.addEventListener("input", () => {
      const text = control.value.trim();
      if (!text) { fail(control, ""); return changed(undefined); }
      try { const value = parseExact(text); fail(control, ""); changed(value); } catch (_) { fail(control, "Not valid JSON yet."); }
    });
    set = (v) => { control.value = v === undefined ? "" : JSON.stringify(v); fail(control, ""); };
  }
  return { node: el("div", { class: "field" }, label, control, hint, error), set };
}

/** The request try-it starts from: the first declared example's, else the generated sample's. */
function startingRequest(entry) {
  const declared = Array.isArray(entry.examples) && entry.examples[0] && entry.examples[0].request;
  const sample = entry.example && entry.example.request;
  const request = declared || sample;
  return request && typeof request === "object" && !Array.isArray(request) ? { ...request } : {};
}

function tryIt(tool, unserved) {
  const key = tool.name;
  const actions = tool.actions || null;
  let args = actions ? startingRequest(actions[0]) : startingRequest(tool);
  if (actions) args = { action: actions[0].name, ...args };
  const fields = new Map();
  const fieldset = el("div", { class: "fields" });
  const json = el("textarea", { id: "args-" + key, rows: "4", spellcheck: "false", autocomplete: "off", "aria-describedby": "args-" + key + "-error" });
  const jsonError = el("p", { id: "args-" + key + "-error", class: "field-error", "aria-live": "polite" });
  const action = actions ? el("select", { id: "action-" + key }, actions.map((a) => el("option", { value: a.name, text: a.name + " · " + a.timing }))) : null;
  const current = () => (actions ? actions.find((a) => a.name === args.action) || actions[0] : tool);

  const writeJson = () => { json.value = pretty(args); json.removeAttribute("aria-invalid"); jsonError.textContent = ""; };
  function build() {
    const entry = current();
    const schema = schemaOf(entry);
    const required = new Set(schema.required || []);
    // Declaration order, from the parameters; the schema's keys are sorted.
    const names = [...new Set([...(entry.parameters || []).map((p) => p.name), ...Object.keys(schema.properties || {})])];
    fieldset.replaceChildren();
    fields.clear();
    for (const name of names) {
      const s = resolve((schema.properties || {})[name], schema);
      if (s.const !== undefined) continue;
      const field = argumentField("f-" + key + "-" + name, name, s, required.has(name), (value) => {
        if (value === undefined) delete args[name]; else args[name] = value;
        writeJson();
      });
      field.set(args[name]);
      fields.set(name, field);
      fieldset.append(field.node);
    }
    if (!fields.size) fieldset.append(el("p", { class: "muted", text: "No arguments." }));
  }
  if (action) {
    action.value = current().name;
    action.addEventListener("change", () => {
      // The arguments the next action also takes are kept.
      const kept = { action: action.value };
      const next = schemaOf(actions.find((a) => a.name === action.value)).properties || {};
      for (const [k, v] of Object.entries(args)) if (k !== "action" && k in next) kept[k] = v;
      args = kept;
      build();
      writeJson();
    });
  }
  json.addEventListener("input", () => {
    let value;
    try { value = parseExact(json.value); } catch (e) {
      json.setAttribute("aria-invalid", "true");
      jsonError.textContent = "Not valid JSON yet: " + e.message;
      return;
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      json.setAttribute("aria-invalid", "true");
      jsonError.textContent = "The arguments are a JSON object.";
      return;
    }
    json.removeAttribute("aria-invalid");
    jsonError.textContent = "";
    const before = current();
    args = value;
    if (actions && current() !== before) { action.value = current().name; build(); }
    for (const [name, field] of fields) field.set(args[name]);
  });
  build();
  writeJson();

  const outcome = el("div", { class: "outcome", "aria-live": "polite" });
  // Outside the live outcome: its lines are not read out as they come.
  const output = el("div", { class: "output" });
  const snippet = el("div", { class: "snippet", hidden: true },
    el("p", { class: "snippet-note muted" }), el("pre", { class: "snippet-text" }));
  const call = el("button", { type: "submit", class: "primary call", text: "Call " + key, disabled: unserved });
  const copies = [["curl", "Copy as curl"], ["typescript", "Copy as TypeScript"], ["python", "Copy as Python"]].map(([kind, text]) => {
    const button = el("button", { type: "button", class: "copy", "data-copy": kind, text });
    button.addEventListener("click", () => copySnippet(kind, tool, json.value, snippet));
    return button;
  });
  const form = el("form", { class: "try", novalidate: true, "aria-label": "Try " + key },
    el("h4", { text: "Try it" }),
    unserved ? el("p", { class: "code", text: "Not served here: this server has no handler for " + key + ", so a call answers NOT_IMPLEMENTED." }) : null,
    tool.timing && tool.timing !== "sync" ? el("p", { class: "muted", text: "Runs as a job: the page follows its event stream, showing its progress and streamed output, can cancel it, and shows its result when it ends." }) : null,
    action ? el("div", { class: "field" }, el("label", { for: "action-" + key, text: "Action" }), action) : null,
    fieldset,
    el("div", { class: "field" }, el("label", { for: "args-" + key, text: "Arguments (JSON)" }), json, jsonError),
    el("div", { class: "actions" }, call, copies), snippet, outcome, output);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (call.disabled) return;
    call.disabled = true;
    // A sync call answers at once; anything else is followed as it runs.
    const streamed = Boolean(current().timing) && current().timing !== "sync";
    try { await callTool(tool, json.value, streamed, outcome, output); } finally { call.disabled = false; }
  });
  return form;
}

// ---- Calling, and following a call as it runs ----------------------------

const toolUrl = (name) => "api/tools/" + encodeURIComponent(name);
const details = (summary, ...body) => el("details", { open: true }, el("summary", { class: "facts" }, summary), body);
const isEventStream = (response) => (response.headers.get("Content-Type") || "").startsWith("text/event-stream");

/**
 * Calls the tool with `body` and shows its answer in `outcome`. A job
 * (`streamed`) is asked for as an event stream, read as it runs, its
 * chunks listed in `output`; a refused call still answers plain JSON.
 */
async function callTool(tool, body, streamed, outcome, output) {
  outcome.replaceChildren(el("p", { class: "muted", text: "Calling…" }));
  output.replaceChildren();
  const started = performance.now();
  const accept = streamed ? { Accept: "text/event-stream" } : {};
  let response, text;
  try {
    response = await api(toolUrl(tool.name), { method: "POST", headers: { "Content-Type": "application/json", ...accept }, body });
    if (isEventStream(response)) return await followCall(response, answerHead(response, started), outcome, output);
    text = await response.text();
  } catch (err) {
    outcome.replaceChildren(el("p", { class: "code", text: String(err.message || err) }));
    return;
  }
  let envelope = null;
  try { envelope = parseExact(text); } catch (_) { /* shown as text */ }
  const error = envelope && envelope.error;
  outcome.replaceChildren(el("div", { class: "result-box", "data-status": String(response.status) }, details(
    [el("strong", { text: "Result " }), ...answerHead(response, started),
      error ? el("span", { class: "code error-code", text: error.code }) : envelope && "success" in envelope ? el("span", { class: "success", text: "success" }) : null],
    error ? el("p", { text: error.message }) : null,
    el("pre", { class: "result", text: envelope ? pretty(envelope) : text }))));
}

/** The answer's status and its latency so far. */
function answerHead(response, started) {
  return [el("span", { class: "http", text: "HTTP " + response.status + (response.statusText ? " " + response.statusText : "") }),
    el("span", { class: "latency", text: Math.round(performance.now() - started) + " ms" })];
}

async function jobCancel(jobId) {
  const response = await api(toolUrl("job_cancel"), { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ job_id: jobId }) });
  const envelope = await response.json();
  if (envelope.error) throw new Error(envelope.error.code + ": " + envelope.error.message);
}

/**
 * A call's event stream, read to its end: its job with a Cancel button
 * once `job` names it, its progress, its chunks, then its result.
 */
async function followCall(response, head, outcome, output) {
  const view = jobView(head);
  outcome.replaceChildren(view.node);
  let jobId = null, chunks = null, began = performance.now();
  for await (const { name, data } of serverEvents(response)) {
    let value;
    try { value = parseExact(data); } catch (_) { continue; /* not JSON */ }
    if (name === "job") { jobId = value.job_id; began = performance.now(); view.named(jobId); }
    else if (name === "progress") view.progress(value.progress);
    else if (name === "chunk") (chunks ||= chunkList(output)).add(value.seq, value.chunk);
    else if (name === "result") {
      outcome.replaceChildren(jobResult(jobId, head, value, performance.now() - began));
      if (chunks) chunks.fold();
      return;
    }
  }
  outcome.replaceChildren(el("p", { class: "code", text: "The call's stream ended before its result." }));
}

/** The running call: its job, a progress bar with its percent, and Cancel. */
function jobView(head) {
  const state = el("span", { text: "Starting the job…" });
  const bar = el("progress", { max: "1", "aria-label": "Progress" });
  const percent = el("span", { class: "percent muted" });
  const cancel = el("button", { type: "button", class: "cancel", text: "Cancel job", hidden: true });
  const node = el("div", { class: "job" }, el("p", { class: "facts" }, head, state), bar, el("div", { class: "row" }, percent, cancel));
  let jobId;
  cancel.addEventListener("click", async () => {
    cancel.disabled = true;
    cancel.textContent = "Cancelling…";
    try { await jobCancel(jobId); } catch (err) { percent.textContent = String(err.message || err); }
  });
  return {
    node,
    named(id) {
      jobId = id;
      node.dataset.job = id;
      state.id = "job-" + id;
      state.textContent = "Job " + id + ": running";
      bar.removeAttribute("aria-label");
      bar.setAttribute("aria-labelledby", state.id);
      cancel.hidden = false;
    },
    progress(fraction) {
      bar.value = fraction;
      percent.textContent = Math.round(fraction * 100) + "%";
    },
  };
}

// The list keeps this many chunks: a long job sends thousands.
const SHOWN_CHUNKS = 200;

/**
 * "Streamed output" in `output`: a line of compact JSON per chunk, the
 * newest kept in view unless the reader has scrolled up. Only the count
 * is a live region: a line each would be read out many times a second.
 */
function chunkList(output) {
  let received = 0, dropped = 0;
  const count = el("span", { class: "chunk-count", "aria-live": "polite" });
  const hidden = el("p", { class: "chunks-hidden muted", hidden: true });
  const list = el("ol", { class: "chunks", tabindex: "0", "aria-label": "Streamed chunks" });
  const region = el("details", { class: "streamed", open: true }, el("summary", {}, "Streamed output · ", count), hidden, list);
  output.replaceChildren(region);
  return {
    add(seq, chunk) {
      const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
      list.append(el("li", { "data-seq": String(seq) }, el("span", { class: "seq", text: "#" + seq }), " ", JSON.stringify(chunk)));
      received++;
      count.textContent = received === 1 ? "1 chunk" : received + " chunks";
      if (list.children.length > SHOWN_CHUNKS) {
        list.firstElementChild.remove();
        dropped++;
        hidden.hidden = false;
        hidden.textContent = (dropped === 1 ? "1 earlier chunk is" : dropped + " earlier chunks are") + " not shown.";
      }
      if (atEnd) list.scrollTop = list.scrollHeight;
    },
    fold() { region.open = false; },
  };
}

/** The call's result, from its envelope: how it ended, in `ms`. */
function jobResult(jobId, head, envelope, ms) {
  const error = envelope && envelope.error;
  const state = !error ? "complete" : error.code === "CANCELLED" ? "cancelled" : "failed";
  return el("div", { class: "result-box", "data-job": jobId, "data-state": state }, details(
    [el("strong", { text: (jobId ? "Job " : "Call ") + state + " " }), ...head, el("span", { class: "duration", text: "ran " + (ms / 1000).toFixed(1) + " s" }),
      error ? el("span", { class: "code error-code", text: error.code }) : el("span", { class: "success", text: "success" })],
    error && error.message ? el("p", { text: error.message }) : null,
    el("pre", { class: "result", text: pretty(envelope) })));
}

// ---- Copy as curl, TypeScript or Python -----------------------------------

const base = () => new URL(".", location.href).href.replace(/\/$/, "");
const shellQuote = (s) => "'" + s.replace(/'/g, "'\\''") + "'";

/** The same call as code, for `body` (the JSON view's text). */
function snippetFor(kind, tool, body) {
  let args;
  try { args = parseExact(body); } catch (_) { return null; }
  if (!args || typeof args !== "object" || Array.isArray(args)) return null;
  const name = tool.name;
  if (kind === "curl") {
    return ["curl -sS -X POST " + shellQuote(new URL(toolUrl(name), location.href).href),
      "-H 'Content-Type: application/json'",
      token() ? "-H " + shellQuote("Authorization: Bearer " + token()) : null,
      "--data-raw " + shellQuote(JSON.stringify(args))].filter(Boolean).join(" \\\n  ");
  }
  if (kind === "typescript") {
    return 'import { ToolClient } from "toolwright-catalogue";\n\n' +
      "const client = ToolClient.overHttp(" + JSON.stringify(base()) + (token() ? ", { token: " + JSON.stringify(token()) + " }" : "") + ");\n" +
      "const result = await client.callTool(" + JSON.stringify(name) + ", " + pretty(args) + ");\n" +
      "console.log(result);\n";
  }
  // The request's canonical JSON: `tool` first, then an action tool's `action`.
  const { action, ...rest } = args;
  const request = JSON.stringify(action === undefined ? { tool: name, ...rest } : { tool: name, action, ...rest });
  // A JSON string's escapes are all Python's too.
  return "import asyncio\n\nfrom toolwright_catalogue import codec\nfrom toolwright_catalogue.web import AsyncToolClient\n\n\n" +
    "async def main() -> None:\n" +
    "    async with AsyncToolClient(" + JSON.stringify(base()) + (token() ? ", token=" + JSON.stringify(token()) : "") + ") as client:\n" +
    "        request = codec.request_from_json(" + JSON.stringify(request) + ")\n" +
    "        print(await client.call(request))\n\n\nasyncio.run(main())\n";
}

async function copySnippet(kind, tool, body, box) {
  const text = snippetFor(kind, tool, body);
  const note = box.querySelector(".snippet-note"), pre = box.querySelector(".snippet-text");
  box.hidden = false;
  const what = { curl: "The curl command", typescript: "The TypeScript call", python: "The Python call" }[kind];
  if (text === null) { note.textContent = "Fix the arguments first: they are not a JSON object."; pre.textContent = ""; return; }
  pre.textContent = text;
  pre.dataset.kind = kind;
  try {
    await navigator.clipboard.writeText(text);
    note.textContent = what + ", copied to the clipboard:";
  } catch (_) {
    note.textContent = what + " (the browser refused the clipboard; select it to copy):";
  }
}
