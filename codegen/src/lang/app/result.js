// The MCP App page, part 2 of 3: a call's answer shown — a typed response
// labelled from the output schema, a typed error named from the tool's
// errors, a job handle — and the busy state. Shares one scope with
// form.js (before) and host.js (after); see app.html.

// ---- Results ------------------------------------------------------------

// How the dispatcher answers each timing class (docs/idl.md, "timing").
const TIMING = {
  sync: "answers at once",
  async_short: "answers at once when quick, else starts a job",
  async_medium: "answers at once when quick, else starts a job",
  async_long: "starts a job and answers with its ID",
  fire_and_forget: "starts a job and answers with its ID; the job has no response",
};
/** The timing of the tool, or of the chosen action when it has one each. */
function timingNow() {
  const t = tool.timing;
  if (t && typeof t === "object") return t[actionField?.get()] ?? t.default;
  return t;
}
function showTiming() {
  const t = timingNow();
  $("timing").textContent = t ? `Timing: ${t}${TIMING[t] ? ` (${TIMING[t]})` : ""}.` : "";
}

/** Every object branch of a schema's anyOf/oneOf, nested ones flattened. */
function branchesOf(schema, root, depth = 0) {
  const s = resolve(schema || {}, root);
  const list = s.anyOf || s.oneOf;
  if (!list || depth > 8) return [s];
  return list.flatMap((b) => branchesOf(b, root, depth + 1));
}

/** The outputSchema branch that describes a value best: its consts
 *  match, and it names the most of the value's keys. */
function schemaFor(value, schema, root) {
  const s = resolve(schema || {}, root);
  if (!(s.anyOf || s.oneOf) || !value || typeof value !== "object" || Array.isArray(value)) return s;
  let best = s, score = -Infinity;
  for (const b of branchesOf(s, root)) {
    if (!b.properties) continue;
    const props = b.properties;
    const clash = Object.entries(props).some(([k, p]) => {
      const r = resolve(p, root);
      return k in value && ((r.const !== undefined && r.const !== value[k]) || (r.enum && !r.enum.includes(value[k])));
    });
    if (clash) continue;
    const keys = Object.keys(value);
    const hit = keys.filter((k) => k in props).length;
    const missing = (b.required || []).filter((k) => !(k in value)).length;
    const sc = hit * 2 - missing * 3 - (keys.length - hit);
    if (sc > score) { score = sc; best = b; }
  }
  return best;
}

/** A readable view of a value, labelled from its schema. */
function renderValue(value, schema, root, depth = 0) {
  const s = schemaFor(value, schema, root);
  if (value === null || value === undefined) return h("span", { class: "muted" }, "none");
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "muted" }, "empty list");
    const items = resolve(s.items || {}, root);
    return h("ol", {}, value.map((v) => h("li", {}, renderValue(v, items, root, depth + 1))));
  }
  if (typeof value === "object") {
    const props = s.properties || {};
    const keys = [...Object.keys(props).filter((k) => k in value), ...Object.keys(value).filter((k) => !(k in props))];
    if (!keys.length) return h("span", { class: "muted" }, "empty");
    const dl = h("dl", {}, keys.map((k) => {
      const p = resolve(props[k] || {}, root);
      return [
        h("dt", { title: summary(p.description) || undefined, "data-key": k }, p.title || humanize(k)),
        h("dd", { "data-key": k }, renderValue(value[k], props[k] || {}, root, depth + 1)),
      ];
    }));
    return depth > 0 ? h("div", { class: "card" }, dl) : dl;
  }
  if (typeof value === "boolean") return h("span", {}, value ? "yes" : "no");
  if (typeof value === "string" && value.includes("\n")) return h("pre", {}, value);
  return h("span", { class: typeof value === "number" ? "num" : undefined }, String(value));
}

/** The tool error of an isError result: {code, message, details?}. */
function toolErrorOf(result) {
  const sc = result.structuredContent;
  if (sc && typeof sc === "object") {
    // The HIP-0300 envelope carries it in `error`.
    if (sc.error && typeof sc.error === "object" && sc.error.code) return sc.error;
    if (sc.code) return sc;
  }
  const text = (result.content || []).find((c) => c.type === "text")?.text || "";
  const m = /^([A-Z][A-Z0-9_]*): ([\s\S]*)$/.exec(text);
  if (m) return { code: m[1], message: m[2] };
  try {
    const parsed = JSON.parse(text);
    if (parsed?.code) return parsed;
  } catch { /* plain text */ }
  return { code: "ERROR", message: text || "The call failed." };
}

function renderError(err) {
  const known = errorsByCode.get(err.code);
  return h("div", { class: "tool-error", role: "alert", "data-code": err.code },
    h("p", {}, h("span", { class: "code" }, err.code), known?.name ? ` — ${humanize(known.name)}` : ""),
    err.message ? h("p", { class: "message" }, err.message) : null,
    known?.description ? h("p", { class: "hint" }, rich(summary(known.description))) : null,
    err.details !== undefined ? h("div", {}, h("p", { class: "label" }, "Details"), renderValue(err.details, {}, {}, 1)) : null);
}

function showResult(result) {
  const view = $("result-view");
  view.replaceChildren();
  $("result").hidden = false;
  $("result-raw").textContent = JSON.stringify(result, null, 2);
  if (result.isError) {
    const err = toolErrorOf(result);
    view.append(renderError(err));
    setStatus(`Failed: ${err.code}`);
  } else if (result.structuredContent !== undefined) {
    const out = tool.outputSchema || {};
    const sc = result.structuredContent;
    // The HIP-0300 envelope: show its data.
    const data = sc && typeof sc === "object" && "ok" in sc && "data" in sc && "meta" in sc ? sc.data : sc;
    if (data && typeof data === "object" && typeof data.job_id === "string" && data.expected_timing) {
      view.append(jobView(data));
    } else {
      view.append(h("p", { class: "success-mark" }, "Succeeded"), renderValue(data, out, out));
    }
    // Images travel as content blocks beside the structured fields.
    for (const c of result.content || []) {
      if (c.type === "image" && /^image\/(png|jpeg|gif|webp)$/.test(c.mimeType || "")) {
        view.append(h("img", { src: `data:${c.mimeType};base64,${c.data}`, alt: "Image returned by the tool" }));
      }
    }
    setStatus("Done.");
  } else {
    const blocks = (result.content || []).map((c) =>
      c.type === "text" ? h("pre", {}, c.text) : h("p", { class: "muted" }, `(${c.type} content)`));
    view.append(...(blocks.length ? blocks : [h("p", { class: "muted" }, "No content.")]));
    setStatus("Done.");
  }
}

/** A job handle: the job's ID, and a button that asks job_status about it
 *  through the host; a finished job's result shows as this tool's answer. */
function jobView(handle) {
  const out = h("div", { class: "job" });
  const check = h("button", { type: "button", class: "small" }, "Check the job");
  const status = h("div", { "aria-live": "polite" });
  check.addEventListener("click", async () => {
    check.disabled = true;
    try {
      const r = await request("tools/call", { name: "job_status", arguments: { job_id: handle.job_id } });
      const info = r?.structuredContent;
      if (r?.isError || !info) status.replaceChildren(renderError(toolErrorOf(r || {})));
      else {
        const { result, ...rest } = info;
        status.replaceChildren(renderValue(rest, {}, {}, 1));
        if (info.state === "complete" && result !== undefined) {
          status.append(h("p", { class: "success-mark" }, "Succeeded"), renderValue(result, tool.outputSchema || {}, tool.outputSchema || {}));
        }
      }
    } catch (error) {
      status.replaceChildren(renderError({ code: String(error?.code ?? "ERROR"), message: error?.message || "The host refused the call." }));
    } finally {
      check.disabled = false;
    }
  });
  out.append(
    h("p", {}, "Started job ", h("code", {}, handle.job_id), ` (${handle.expected_timing}).`),
    h("p", { class: "hint" }, "Its result stays in the job store: job_status and job_poll read it, job_cancel stops it."),
    check, status);
  return out;
}

function showRpcError(error) {
  $("result").hidden = false;
  $("result-raw").textContent = JSON.stringify({ error }, null, 2);
  $("result-view").replaceChildren(renderError({ code: String(error?.code ?? "ERROR"), message: error?.message || "The host refused the call." }));
  setStatus("Failed.");
}

$("raw-toggle").addEventListener("click", () => {
  const raw = $("result-raw");
  raw.hidden = !raw.hidden;
  $("result-view").hidden = !raw.hidden;
  $("raw-toggle").setAttribute("aria-pressed", String(!raw.hidden));
});

function setStatus(text, busy = false) {
  $("status").textContent = text;
  $("status").classList.toggle("busy", busy);
}

// False when the host proxies no tool calls (no serverTools capability).
let canCall = true;
function setBusy(busy) {
  $("submit").disabled = busy || !canCall;
  $("form").setAttribute("aria-busy", String(busy));
  if (busy) setStatus("Calling…", true);
}
