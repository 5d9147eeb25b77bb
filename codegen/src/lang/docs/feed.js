// The catalogue viewer, part 3 of 3: the live feed of a served page, and
// the start: the catalogue read from the page (static) or the server.

// ---- The live feed --------------------------------------------------------

// The feed, newest first: a card per call, and a notice where the
// server skipped events. A card shows only what the page has seen of its
// call: a call that started before the page opened (or among skipped
// events) arrives as its tool_complete alone, and a running call has no
// result yet.
const cards = new Map();
let missedAny = false;
let unseen = 0;
function showUnseen() {
  $("live-count").hidden = unseen === 0;
  $("live-count").replaceChildren(String(unseen), el("span", { class: "sr-only", text: " new" }));
}
function feedPush(node) {
  const feed = $("feed");
  $("feed-empty")?.remove();
  feed.prepend(node);
  while (feed.children.length > 50) { cards.delete(feed.lastElementChild.dataset.call); feed.lastElementChild.remove(); }
  if (!$("live").classList.contains("open") && !matchMedia("(min-width: 1200px)").matches) { unseen++; showUnseen(); }
}

// A running call's time so far, by the page's own clock from when its
// tool_start arrived: the event's timestamp is the server's clock, which
// may be ahead of or behind the browser's.
function elapsedText(card) {
  return " " + ((performance.now() - Number(card.dataset.started)) / 1000).toFixed(1) + " s";
}
let ticking = 0;
function tick() {
  const running = document.querySelectorAll("#feed .card.running");
  for (const card of running) card.querySelector(".elapsed").textContent = elapsedText(card);
  if (running.length === 0) { clearInterval(ticking); ticking = 0; }
}

function onEvent(event) {
  if (event.type === "error") return onRefused(event);
  let card = cards.get(event.call_id);
  if (!card) {
    card = el("div", { class: "card" });
    card.dataset.call = event.call_id;
    cards.set(event.call_id, card);
    feedPush(card);
  }
  const running = event.type === "tool_start";
  const status = running ? "running" : event.success ? "completed" : "failed";
  card.className = "card " + status;
  if (running) card.dataset.started = String(performance.now());
  // The ticking time is hidden from screen readers, which would read out
  // the feed (a live region) ten times a second.
  const time = running ? el("span", { class: "muted elapsed", "aria-hidden": "true", text: elapsedText(card) })
    : typeof event.duration_ms === "number" ? el("span", { class: "muted", text: " " + event.duration_ms.toFixed(1) + " ms" }) : null;
  const head = el("div", {}, el("strong", { text: event.tool_name + (event.action ? "." + event.action : "") }),
    el("span", { class: "badge", text: event.source || "local" }),
    el("span", { class: "badge", text: status }),
    event.error_code ? el("span", { class: "code", text: " " + event.error_code }) : null,
    time);
  const input = card.querySelector("pre.input") || card.querySelector("p.unseen")
    || (typeof event.tool_input === "string" ? el("pre", { class: "input", text: event.tool_input })
      : el("p", { class: "muted unseen", text: missedAny
        ? "Started before this page, or among the missed events: its arguments were not seen."
        : "Started before this page: its arguments were not seen." }));
  const result = typeof event.tool_result === "string" ? el("pre", { class: "result", text: event.tool_result }) : null;
  card.replaceChildren(...[head, input, result].filter(Boolean));
  if (running && !ticking) ticking = setInterval(tick, 100);
}

// `error`: a call that failed before it started (a request that could
// not be read, an unknown tool, a missing scope); nothing more comes of it.
function onRefused(event) {
  const card = el("div", { class: "card failed refused" },
    el("div", {}, el("strong", { text: event.tool_name || "Unreadable request" }),
      el("span", { class: "badge", text: event.source || "local" }),
      el("span", { class: "badge", text: "refused" }),
      event.code ? el("span", { class: "code", text: " " + event.code }) : null),
    el("p", { class: "message", text: event.message || "" }));
  card.dataset.call = event.call_id;
  feedPush(card);
}

// `event: lagged`: the server skipped ahead of this page and says how
// many events it left out.
function onLagged(missed) {
  missedAny = true;
  const n = Number(missed) || 0;
  feedPush(el("p", { class: "notice lagged", text: n === 1 ? "1 event was missed" : n + " events were missed" }));
}

const wait = (ms) => new Promise((r) => setTimeout(r, ms));

async function follow() {
  for (;;) {
    try {
      for await (const { name, data } of serverEvents(await api("api/events"))) {
        let value;
        try { value = JSON.parse(data); } catch (_) { continue; /* not JSON */ }
        if (name === "lagged") onLagged(value.missed);
        else if (value && value.type) onEvent(value);
      }
    } catch (_) { /* retried below */ }
    await wait(2000);
  }
}

const embedded = $("toolwright-catalogue");
const served = embedded === null;
document.body.classList.add(served ? "served" : "static");
$("live-toggle").hidden = !served;
(async () => {
  try {
    const catalogue = served ? parseExact(await (await api("api/tools")).text()) : parseExact(embedded.textContent);
    render(catalogue.tools || []);
    renderEntries("resource", catalogue.resources || []);
    renderEntries("prompt", catalogue.prompts || []);
    // The browser looked for the anchor before the entries existed.
    if (location.hash) requestAnimationFrame(() => openAnchor());
    if (served) follow();
  } catch (err) {
    $("status").textContent = String(err.message || err);
  }
})();
