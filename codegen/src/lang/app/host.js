// The MCP App page, part 3 of 3: the host, JSON-RPC 2.0 over postMessage
// (the MCP Apps handshake, tool input and results, theme and size), calls
// through it, and the start. Shares one scope with form.js and result.js
// (before it); see app.html.

// ---- The host: JSON-RPC 2.0 over postMessage ------------------------------

const host = window.parent !== window ? window.parent : null;
let nextRequestId = 1;
const pending = new Map();
let hostContext = {};
let hostCapabilities = {};

function post(message) {
  host?.postMessage({ jsonrpc: "2.0", ...message }, "*");
}
// Calls wait for the handshake: nothing but ui/initialize goes first.
let markConnected;
const connected = new Promise((resolve) => { markConnected = resolve; });
async function request(method, params) {
  if (!host) throw { code: -32000, message: "No host: this page runs inside an MCP Apps host." };
  if (method !== "ui/initialize") await connected;
  const id = nextRequestId++;
  post({ id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
function notify(method, params) {
  post({ method, params });
}
function log(level, data) {
  if (hostCapabilities.logging) notify("notifications/message", { level, logger: APP_INFO.name, data });
}

const notifications = {
  "ui/notifications/tool-input": (p) => { writeArgs(p?.arguments); setStatus(""); },
  "ui/notifications/tool-input-partial": (p) => { writeArgs(p?.arguments); setStatus("Receiving the arguments…", true); },
  "ui/notifications/tool-result": (p) => { setBusy(false); showResult(p || {}); },
  "ui/notifications/tool-cancelled": (p) => { setBusy(false); setStatus(`Cancelled${p?.reason ? `: ${p.reason}` : ""}.`); },
  "ui/notifications/host-context-changed": (p) => applyHostContext(p || {}),
};
const requests = {
  "ui/resource-teardown": () => { setStatus("Closing."); return {}; },
  ping: () => ({}),
};

window.addEventListener("message", (event) => {
  // Only the host speaks to this page.
  if (!host || event.source !== host) return;
  const msg = event.data;
  if (!msg || msg.jsonrpc !== "2.0") return;
  if (msg.method === undefined && msg.id !== undefined) {
    const waiting = pending.get(msg.id);
    if (!waiting) return;
    pending.delete(msg.id);
    if (msg.error) waiting.reject(msg.error);
    else waiting.resolve(msg.result);
  } else if (msg.id !== undefined) {
    const handler = requests[msg.method];
    if (handler) post({ id: msg.id, result: handler(msg.params) });
    else post({ id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } });
  } else {
    notifications[msg.method]?.(msg.params);
  }
});

/** Theme, the host's style variables and its container's size. */
function applyHostContext(changes) {
  hostContext = { ...hostContext, ...changes };
  const root = document.documentElement;
  if (changes.theme === "light" || changes.theme === "dark") root.dataset.theme = changes.theme;
  const vars = changes.styles?.variables;
  if (vars) for (const [k, v] of Object.entries(vars)) if (k.startsWith("--") && v) root.style.setProperty(k, v);
  // styles.css.fonts is not applied: fonts load from the network, which
  // this page's CSP forbids; the --font-* variables fall back to system fonts.
  const dims = changes.containerDimensions;
  if (dims) {
    root.style.height = "height" in dims ? "100vh" : "";
    root.style.maxHeight = "maxHeight" in dims && dims.maxHeight ? `${dims.maxHeight}px` : "";
    root.style.maxWidth = "maxWidth" in dims && dims.maxWidth ? `${dims.maxWidth}px` : "";
  }
  if (changes.locale) root.lang = changes.locale;
  const inset = changes.safeAreaInsets;
  if (inset) document.body.style.padding = `${inset.top}px ${inset.right}px ${inset.bottom}px ${inset.left}px`;
}

// Size reports: what the content needs, sent when it changes.
let lastSize = "";
function reportSize() {
  const root = document.documentElement;
  const width = Math.ceil(root.scrollWidth);
  const height = Math.ceil(document.body.getBoundingClientRect().height);
  const key = `${width}x${height}`;
  if (key === lastSize) return;
  lastSize = key;
  notify("ui/notifications/size-changed", { width, height });
}
let sizeQueued = false;
const observer = new ResizeObserver(() => {
  if (sizeQueued) return;
  sizeQueued = true;
  requestAnimationFrame(() => { sizeQueued = false; reportSize(); });
});

// ---- Calling ---------------------------------------------------------------

async function call() {
  if ($("submit").disabled) return;
  const problems = validateArgs();
  if (problems.length) {
    setStatus(`${problems.length === 1 ? "One field needs" : `${problems.length} fields need`} attention.`);
    problems[0].focus?.focus();
    return;
  }
  const args = readArgs();
  setBusy(true);
  try {
    const result = await request("tools/call", { name: tool.name, arguments: args });
    showResult(result || {});
    log(result?.isError ? "warning" : "info", { tool: tool.name, outcome: result?.isError ? "error" : "success",
      code: result?.isError ? toolErrorOf(result).code : undefined });
  } catch (error) {
    showRpcError(error);
    log("error", { tool: tool.name, outcome: "rpc-error", error });
  } finally {
    setBusy(false);
    $("result-heading").focus({ preventScroll: true });
  }
}
$("submit").addEventListener("click", call);
$("form").addEventListener("keydown", (event) => {
  const t = event.target;
  if (event.key === "Enter" && t.tagName === "INPUT" && t.type !== "checkbox" && !event.isComposing) {
    event.preventDefault();
    call();
  }
});

// ---- Start -----------------------------------------------------------------

document.title = tool.title || humanize(tool.name);
$("title").replaceChildren(tool.title || humanize(tool.name), h("code", {}, tool.name));
$("description").replaceChildren(...rich(summary(tool.description)));
$("submit").textContent = `Call ${tool.name}`;
showAction();
showTiming();
syncJson();

if (host) {
  request("ui/initialize", {
    protocolVersion: PROTOCOL_VERSION,
    appInfo: APP_INFO,
    appCapabilities: { availableDisplayModes: ["inline"] },
  }).then((result) => {
    hostCapabilities = result?.hostCapabilities || {};
    applyHostContext(result?.hostContext || {});
    // The view calls tools only through a host that proxies them.
    if (!hostCapabilities.serverTools) {
      canCall = false;
      $("host-note").hidden = false;
      setBusy(false);
    }
    notify("ui/notifications/initialized", {});
    markConnected();
    observer.observe(document.documentElement);
    observer.observe(document.body);
  }, (error) => setStatus(`The host refused to connect: ${error?.message || error}`));
}
