// The catalogue viewer (docs/web.md), part 1 of 3: the catalogue as the
// page shows it — entries collapsed to summary lines, the tool list, the
// search — and the theme and the drawers around them. Static, the page
// renders the document embedded in #toolwright-catalogue; served by a
// Toolwright server, it reads api/tools, calls tools through
// api/tools/{name} and follows api/events. Catalogue and event text is
// only ever set as textContent, never parsed as HTML. catalogue.js, try.js
// and feed.js share one scope inside viewer.html's script, in that order.
const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") node.textContent = v; else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat(Infinity)) if (child) node.append(child);
  return node;
};
const token = () => sessionStorage.getItem("toolwright-token");
function headers(extra = {}) {
  const h = { ...extra };
  if (token()) h.Authorization = "Bearer " + token();
  return h;
}
async function api(path, init = {}) {
  const response = await fetch(path, { ...init, headers: headers(init.headers) });
  if (response.status === 401) { $("token-form").hidden = false; throw new Error("this server needs a token"); }
  return response;
}

/**
 * The Server-Sent Events of a fetched response, read as they arrive: each
 * `{ name, data }`, its `data:` lines joined. fetch rather than
 * EventSource, which can neither POST nor send the token. Comment lines
 * (`: keep-alive`) and blocks without data are skipped.
 */
async function* serverEvents(response) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    // A CR split from its LF across two reads would end a line early.
    buffer = (buffer + value).replace(/\r\n|\r(?=.)/gs, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const lines = buffer.slice(0, end).split("\n").filter((l) => !l.startsWith(":"));
      buffer = buffer.slice(end + 2);
      const field = (line, name) => line.startsWith(name + ":") ? line.slice(name.length + 1).replace(/^ /, "") : null;
      const data = lines.map((l) => field(l, "data")).filter((d) => d !== null);
      if (data.length) yield { name: lines.map((l) => field(l, "event")).find((n) => n !== null) || "message", data: data.join("\n") };
    }
  }
}
$("token-form").addEventListener("submit", (e) => {
  e.preventDefault();
  sessionStorage.setItem("toolwright-token", $("token").value);
  location.reload();
});

// JSON whose integers beyond 2^53 stay as written: such a number is kept
// as raw JSON text, which JSON.stringify writes back unchanged, so an i64
// such as 9223372036854775807 is shown and sent exactly. A browser without
// JSON.rawJSON reads them as the nearest double.
const exact = typeof JSON.rawJSON === "function";
function parseExact(text) {
  return JSON.parse(text, (key, value, context) =>
    exact && typeof value === "number" && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)
      ? JSON.rawJSON(context.source) : value);
}
const isRaw = (v) => exact && JSON.isRawJSON(v);
/** A scalar of the catalogue as text: a raw integer as written. */
const show = (v) => (isRaw(v) ? v.rawJSON : typeof v === "string" ? v : JSON.stringify(v));

// ---- Theme and drawers --------------------------------------------------

$("theme").value = document.documentElement.dataset.theme || "system";
$("theme").addEventListener("change", () => {
  const theme = $("theme").value;
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  try {
    if (theme === "system") localStorage.removeItem("toolwright-theme"); else localStorage.setItem("toolwright-theme", theme);
  } catch (_) { /* not remembered, still applied */ }
});

// The sticky bar's height, for what sticks below it and for anchors.
const measureBar = () => document.documentElement.style.setProperty("--bar-h", $("bar").offsetHeight + "px");
measureBar();
new ResizeObserver(measureBar).observe($("bar"));

// On narrow screens the tool list and the live feed are drawers over the
// page, each opened by its button in the bar and closed by its own close
// button, Escape, the scrim, or (the list) following one of its links.
function drawer(id, toggleId) {
  const panel = $(id), toggle = $(toggleId);
  const set = (open, { restore = true } = {}) => {
    if (open) closeDrawers({ restore: false });
    panel.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
    $("scrim").hidden = !document.querySelector(".drawer.open");
    if (open) panel.querySelector(".close").focus();
    else if (restore && panel.contains(document.activeElement)) toggle.focus();
    if (id === "live" && open) { unseen = 0; showUnseen(); }
  };
  toggle.addEventListener("click", () => set(!panel.classList.contains("open")));
  panel.querySelector(".close").addEventListener("click", () => set(false));
  return set;
}
const drawers = [drawer("toc", "toc-toggle"), drawer("live", "live-toggle")];
function closeDrawers(options) {
  for (const set of drawers) set(false, options);
}
$("scrim").addEventListener("click", () => closeDrawers());
document.addEventListener("keydown", (e) => { if (e.key === "Escape" && document.querySelector(".drawer.open")) closeDrawers(); });
matchMedia("(min-width: 1200px)").addEventListener("change", () => closeDrawers({ restore: false }));

// On a phone the theme is chosen in the tool list's drawer: the bar keeps
// room for its buttons and the search.
const phone = matchMedia("(max-width: 899px)");
function placeTheme() {
  if (phone.matches) $("toc").querySelector(".drawer-head").after($("theme-field"));
  else $("live-toggle").before($("theme-field"));
}
placeTheme();
phone.addEventListener("change", placeTheme);

// ---- The catalogue ------------------------------------------------------

function describeConstraints(c) {
  if (!c) return "";
  const parts = [];
  if (c.range) parts.push(show(c.range[0]) + " ≤ value ≤ " + show(c.range[1]));
  if (c.length) parts.push("length " + show(c.length[0]) + "–" + show(c.length[1]));
  if (c.pattern) parts.push("matches " + c.pattern);
  return parts.join(", ");
}

function paramsTable(params, none = "No parameters.") {
  if (!params || params.length === 0) return el("p", { class: "muted", text: none });
  const body = el("tbody");
  for (const p of params) {
    const c = describeConstraints(p.constraints);
    const d = p.default !== undefined ? "default " + show(p.default) : "";
    body.append(el("tr", {},
      el("td", {}, el("code", { text: p.name, class: p.deprecated !== undefined ? "deprecated" : "" })),
      el("td", {}, el("code", { text: p.idlType || p.type || "json" })),
      el("td", { text: p.required ? "required" : "optional" }),
      el("td", { text: [p.description || "", d, c].filter(Boolean).join(" · ") })));
  }
  return el("table", { class: "params" }, el("thead", {}, el("tr", {}, ...["Name", "Type", "", "About"].map((t) => el("th", { text: t })))), body);
}

const pretty = (value) => JSON.stringify(value, null, 2);

// Declared examples only, each true of the tool: its request and the
// response or error it answers. The generated sample (`example`) only
// fills try-it: its values are made up, and so would its answer be.
function examplesBlock(examples) {
  if (!Array.isArray(examples) || !examples.length) return null;
  return el("div", { class: "examples" }, el("h4", { text: examples.length === 1 ? "Example" : "Examples" }),
    examples.map((x) => el("figure", { class: "example" },
      el("figcaption", { text: x.title || "Example" }),
      el("div", { class: "pair" },
        el("div", {}, el("p", { class: "muted", text: "Request" }), el("pre", { class: "example-request", text: pretty(x.request || {}) })),
        x.error ? el("div", {}, el("p", { class: "muted" }, "Fails with ", el("code", { class: "code example-error", text: x.error.code })),
          x.error.details !== undefined ? el("pre", { text: pretty(x.error.details) }) : null)
          : x.response !== undefined ? el("div", {}, el("p", { class: "muted", text: "Response" }), el("pre", { class: "example-response", text: pretty(x.response) })) : null))));
}

function scopesLine(scopes) {
  return scopes && scopes.length ? el("p", {}, "Requires scopes: ",
    ...scopes.flatMap((s, i) => [i ? ", " : "", el("code", { text: s })])) : null;
}

function errorsTable(errors) {
  if (!errors || !errors.length) return null;
  const body = el("tbody");
  for (const e of errors) body.append(el("tr", {}, el("td", {}, el("code", { text: e.code })), el("td", { text: e.description || "" })));
  return el("div", {}, el("h4", { text: "Errors" }), el("table", {}, body));
}

// Which arguments complete, and how: an enum's values, or the handler.
function completionsLine(completions) {
  if (!completions || !completions.length) return null;
  return el("p", { class: "completions" }, "Completes: ", ...completions.flatMap((c, i) => [i ? "; " : "",
    el("code", { text: c.argument }),
    c.by === "enum" ? " from " + (c.values || []).join(", ") : " by its handler"]));
}

const firstParagraph = (text) => (text || "").split(/\n\s*\n/)[0].replace(/\s+/g, " ").trim();
/** The whole description, unless the summary line already shows all of it. */
const fullDescription = (text) => (!text || (text.trim() === firstParagraph(text) && text.length <= 90) ? null
  : el("p", { class: "muted description", text }));
const badges = (list, extra = "") => list.filter(Boolean).map((b) => el("span", { class: "badge " + extra, text: b }));

/**
 * An entry collapsed to one summary line — its name, title, chips and the
 * first line of its description — that opens on a click or at its anchor.
 */
function collapsible(id, entry, chips, search, ...body) {
  const toggle = el("button", { type: "button", class: "toggle", "aria-expanded": "false", "aria-controls": id + "-body" },
    el("span", {}, el("code", { class: "name" + (entry.deprecated !== undefined ? " deprecated" : ""), text: entry.name }),
      entry.title ? el("span", { class: "title", text: entry.title }) : null),
    el("span", { class: "chips" }, chips),
    entry.description ? el("span", { class: "line", text: firstParagraph(entry.description) }) : null);
  const article = el("article", { id, "data-category": entry.category || "", "data-search": search.filter(Boolean).join(" ").toLowerCase() },
    el("h3", {}, toggle), el("div", { id: id + "-body", class: "body", hidden: true }, body));
  toggle.addEventListener("click", () => setOpen(article, toggle.getAttribute("aria-expanded") !== "true"));
  return article;
}
function setOpen(article, open) {
  article.querySelector(".toggle").setAttribute("aria-expanded", String(open));
  article.querySelector(".body").hidden = !open;
}

// A resource or a prompt: what it is, its arguments, scopes and errors.
function entryArticle(kind, entry) {
  const chips = kind === "resource" ? [entry.template ? "template" : "fixed URI", entry.mimeType] : [];
  if (kind === "resource" && entry.subscribable) chips.push("subscribable");
  if (entry.deprecated !== undefined) chips.push("deprecated");
  return collapsible(kind + "-" + entry.name, entry, badges(chips), [entry.name, entry.title, entry.description, entry.uri],
    kind === "resource" ? el("p", {}, el("code", { class: "uri", text: entry.uri })) : null,
    fullDescription(entry.description),
    entry.deprecated ? el("p", { class: "code", text: "Deprecated: " + entry.deprecated }) : null,
    scopesLine(entry.scopes),
    el("h4", { text: kind === "resource" ? "URI variables" : "Arguments" }),
    paramsTable(entry.arguments, kind === "resource" ? "None: a fixed URI." : "No arguments."),
    completionsLine(entry.completions),
    errorsTable(entry.errors));
}

function toolArticle(tool) {
  // `served: false`: the server lists the tool but has no handler for it.
  const unserved = served && tool.served === false;
  const flags = [tool.source || "local", tool.mount ? "mounted: " + tool.mount : null];
  const hints = tool.annotations || {};
  if (hints.readOnlyHint) flags.push("read-only");
  if (hints.destructiveHint) flags.push("destructive");
  if (hints.idempotentHint) flags.push("idempotent");
  if (tool.streams) flags.push("streams");
  // A mounted server's tool has no timing class.
  const chips = [...badges([tool.timing || (tool.actions ? "actions" : null), tool.deprecated !== undefined ? "deprecated" : null]),
    ...badges([unserved ? "not served here" : null], "unserved")];
  const body = [el("p", {}, badges(flags)),
    fullDescription(tool.description),
    tool.deprecated ? el("p", { class: "code", text: "Deprecated: " + tool.deprecated }) : null,
    scopesLine(tool.scopes),
    // An action tool's merged parameters repeat its actions' own tables:
    // at tool level only `action` is shown.
    el("h4", { text: "Parameters" }), paramsTable((tool.parameters || []).filter((p) => !p.actions))];
  if (!tool.actions) body.push(el("h4", { text: "Response" }), paramsTable(tool.response, "An acknowledgement: no fields."));
  if (tool.stream) body.push(el("h4", { text: "Streams" }), el("p", {}, el("code", { text: tool.stream.idlType }), tool.stream.description ? " — " + tool.stream.description : ""));
  body.push(errorsTable(tool.errors));
  for (const action of tool.actions || []) {
    body.push(el("h4", { class: action.deprecated !== undefined ? "deprecated" : "", text: "action " + action.name + " · " + action.timing }),
      action.description ? el("p", { class: "muted", text: action.description }) : null,
      paramsTable(action.parameters),
      el("p", { class: "muted", text: "Response" }), paramsTable(action.response, "An acknowledgement: no fields."),
      examplesBlock(action.examples));
  }
  body.push(examplesBlock(tool.examples));
  if (served) body.push(tryIt(tool, unserved));
  return collapsible("tool-" + tool.name, tool, chips, [tool.name, tool.title, tool.description], body);
}

// The resources and prompts, each in its own section after the tools.
function renderEntries(kind, entries) {
  if (!entries.length) return;
  const section = $(kind + "s");
  section.hidden = false;
  section.append(...entries.map((e) => entryArticle(kind, e)));
  const title = kind === "resource" ? "Resources" : "Prompts";
  $("toc").append(el("div", { class: "toc-group", "data-entries": kind }, el("h2", { text: title }), el("ul", {},
    ...entries.map((e) => el("li", { "data-entry": kind + "-" + e.name }, el("a", { href: "#" + kind + "-" + e.name, text: e.name }))))));
}

function render(tools) {
  const byCategory = new Map();
  for (const tool of tools) {
    if (!byCategory.has(tool.category)) byCategory.set(tool.category, []);
    byCategory.get(tool.category).push(tool);
  }
  const section = $("tools");
  for (const [category, list] of byCategory) {
    $("category").append(el("option", { value: category, text: category }));
    section.append(el("div", { class: "category", "data-category": category },
      el("h2", { text: category }), ...list.map(toolArticle)));
    $("toc").append(el("div", { class: "toc-group", "data-category": category }, el("h2", { text: category }), el("ul", {},
      ...list.map((t) => el("li", { "data-tool": t.name }, el("a", { href: "#tool-" + t.name, text: t.name }))))));
  }
  $("status").textContent = tools.length + " tools";
}

// An anchor opens its entry: on arrival, on a changed hash, and on a link
// to the anchor already in the address bar. An entry a filter hides is
// shown by clearing the filter.
function openAnchor(focus = false) {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  measureBar();
  const article = target.closest("article");
  if (article) {
    if (article.hidden) { $("search").value = ""; $("category").value = ""; filter(); }
    setOpen(article, true);
    if (focus) article.querySelector(".toggle").focus({ preventScroll: true });
  } else if (focus && target.hasAttribute("tabindex")) {
    target.focus({ preventScroll: true });
  }
  target.scrollIntoView();
}
addEventListener("hashchange", () => openAnchor(true));
document.addEventListener("click", (e) => {
  const link = e.target.closest('a[href^="#"]');
  if (!link) return;
  if ($("toc").contains(link)) closeDrawers({ restore: false });
  if (link.getAttribute("href") === location.hash) { e.preventDefault(); openAnchor(true); }
});

function filter() {
  const q = $("search").value.trim().toLowerCase();
  const cat = $("category").value;
  let shown = 0;
  for (const group of document.querySelectorAll(".category")) {
    const inCategory = !cat || group.dataset.category === cat;
    let any = false;
    for (const article of group.querySelectorAll("article")) {
      const visible = inCategory && (!q || article.dataset.search.includes(q));
      article.hidden = !visible;
      const link = document.querySelector('#toc li[data-tool="' + article.id.slice(5) + '"]');
      if (link) link.hidden = !visible;
      if (visible) { any = true; shown++; }
    }
    group.hidden = !any;
    const tocGroup = document.querySelector('#toc .toc-group[data-category="' + group.dataset.category + '"]');
    if (tocGroup) tocGroup.hidden = !any;
  }
  $("status").textContent = shown + " tools";
  const noMatch = $("no-match");
  noMatch.hidden = shown > 0;
  if (!shown) {
    const words = [q ? "“" + $("search").value.trim() + "”" : "", cat ? "in " + cat : ""].filter(Boolean).join(" ");
    noMatch.replaceChildren("No tools match " + words + ". ",
      el("button", { type: "button", class: "clear", text: "Clear the search" }));
    noMatch.querySelector("button").addEventListener("click", () => { $("search").value = ""; $("category").value = ""; filter(); $("search").focus(); });
  }
  for (const kind of ["resource", "prompt"]) {
    let any = false;
    for (const article of document.querySelectorAll("#" + kind + "s article")) {
      const visible = (!cat || article.dataset.category === cat) && (!q || article.dataset.search.includes(q));
      article.hidden = !visible;
      const link = document.querySelector('#toc li[data-entry="' + article.id + '"]');
      if (link) link.hidden = !visible;
      any = any || visible;
    }
    const section = $(kind + "s");
    if (section.childElementCount > 1) section.hidden = !any;
    const tocGroup = document.querySelector('#toc .toc-group[data-entries="' + kind + '"]');
    if (tocGroup) tocGroup.hidden = !any;
  }
}
$("search").addEventListener("input", filter);
$("category").addEventListener("change", filter);
