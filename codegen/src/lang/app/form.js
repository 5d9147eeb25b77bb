// The MCP App page, part 1 of 3: the tool, its schemas and the form built
// from its input schema, kept in step with the JSON view. form.js,
// result.js and host.js share one scope inside app.html's script, in
// that order, so each part uses what the earlier ones declare.

const PROTOCOL_VERSION = "2026-01-26";
const APP_INFO = { name: "toolwright-app", version: "1" };
const $ = (id) => document.getElementById(id);

/** Creates an element: h("p", {class: "x"}, "text", child). */
function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// ---- The tool ---------------------------------------------------------

let tool;
try {
  tool = JSON.parse($("toolwright-tool").textContent);
} catch {
  // The page was opened unfilled: show an empty tool rather than nothing.
  tool = { name: "tool", description: "No tool entry was filled into this page.", inputSchema: { type: "object" } };
}
const errorsByCode = new Map((tool.errors || []).map((e) => [e.code, e]));

/** "length_beats" → "Length beats". */
function humanize(name) {
  const s = String(name).replace(/[_-]+/g, " ").replace(/([a-z0-9])([A-Z])/g, (_, a, b) => `${a} ${b.toLowerCase()}`).trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The first paragraph of a description, without its list of values. */
function summary(description) {
  if (!description) return "";
  return description.split(/\n\s*\n/)[0].split("\n").filter((line) => !/^\s*- `/.test(line))
    .join(" ").replace(/\s+/g, " ").trim();
}

/** Text with its `code spans` as <code> elements. */
function rich(text) {
  return String(text).split(/`([^`]+)`/).map((part, i) => (i % 2 ? h("code", {}, part) : part));
}

/** What each enum value means, from the "- `value`: meaning" lines
 *  Toolwright writes into an enum's description. */
function valueMeanings(description) {
  const meanings = new Map();
  for (const [, value, meaning] of (description || "").matchAll(/^\s*- `([^`]+)`(?: \(deprecated\))?: (.*)$/gm)) {
    meanings.set(value, meaning.trim());
  }
  return meanings;
}

// ---- Schemas ----------------------------------------------------------

/** Follows a local $ref ("#/$defs/X"), keeping the referrer's own keywords. */
function resolve(schema, root) {
  let s = schema || {};
  for (let depth = 0; s.$ref && depth < 32; depth++) {
    const path = s.$ref.replace(/^#\/?/, "").split("/").filter(Boolean)
      .map((p) => decodeURIComponent(p.replace(/~1/g, "/").replace(/~0/g, "~")));
    let target = root;
    for (const p of path) target = target?.[p];
    if (!target) break;
    const { $ref, ...own } = s;
    // The referrer's description wins; the definition's (which lists an
    // enum's values) is kept beside it.
    s = { ...target, ...own, typeDescription: target.description };
  }
  return s;
}

/** The type a schema names, null aside (["string", "null"] is a string). */
function typeOf(s) {
  let t = s.type;
  if (Array.isArray(t)) {
    t = t.filter((x) => x !== "null");
    t = t.length === 1 ? t[0] : undefined;
  }
  if (!t && s.enum) t = "enum";
  if (!t && s.properties) t = "object";
  return t;
}

/** An anyOf/oneOf of one scalar type (the same field with the bounds of
 *  several actions) reads as that type with the loosest bounds. */
function mergeScalars(branches, root) {
  const all = branches.map((b) => resolve(b, root));
  const types = new Set(all.map(typeOf));
  if (types.size !== 1) return null;
  const type = [...types][0];
  if (!["string", "integer", "number"].includes(type)) return null;
  const merged = { type };
  const loosest = (key, pick) => {
    const values = all.map((b) => b[key]);
    if (values.every((v) => v !== undefined)) merged[key] = pick(...values);
  };
  loosest("minimum", Math.min);
  loosest("maximum", Math.max);
  loosest("minLength", Math.min);
  loosest("maxLength", Math.max);
  return merged;
}

/** A oneOf/anyOf of objects told apart by one property's const (a tagged
 *  enum): the tag's name and each variant's tag value. */
function taggedUnion(branches, root) {
  const all = branches.map((b) => resolve(b, root));
  if (!all.length || !all.every((b) => b.properties)) return null;
  const candidates = Object.keys(all[0].properties).filter((k) =>
    all.every((b) => b.properties[k] && resolve(b.properties[k], root).const !== undefined));
  if (!candidates.length) return null;
  const tag = candidates.find((k) => /^(type|kind|tag|action|op)$/.test(k)) || candidates[0];
  return { tag, variants: all.map((b) => ({ value: resolve(b.properties[tag], root).const, schema: b })) };
}

// ---- The form ---------------------------------------------------------
//
// Every control is a node {el, get(), set(value), validate()}: get()
// returns undefined for "not given", so optional fields left empty are
// left out of the arguments.

let uid = 0;
const nextId = (base) => `f${++uid}-${String(base).replace(/[^A-Za-z0-9_-]/g, "")}`;
const isBig = (n) => typeof n === "number" && Math.abs(n) > Number.MAX_SAFE_INTEGER;

/** The hint under a field: its description, type and bounds. */
function hintFor(s, kind) {
  const parts = [];
  const d = summary(s.description);
  // "The action to run:" introduced the list of values; each value's
  // meaning shows under the select instead.
  if (d && !(s.enum && d.endsWith(":"))) parts.push(d);
  const bounds = [];
  if (kind === "integer" || kind === "number") {
    if (s.minimum !== undefined && !isBig(s.minimum)) bounds.push(`≥ ${s.minimum}`);
    if (s.exclusiveMinimum !== undefined) bounds.push(`> ${s.exclusiveMinimum}`);
    if (s.maximum !== undefined && !isBig(s.maximum)) bounds.push(`≤ ${s.maximum}`);
    if (s.exclusiveMaximum !== undefined) bounds.push(`< ${s.exclusiveMaximum}`);
    parts.push(`${kind === "integer" ? "Whole number" : "Number"}${bounds.length ? ", " + bounds.join(", ") : ""}.`);
  } else if (kind === "string") {
    if (s.minLength !== undefined && s.minLength > 1) bounds.push(`at least ${s.minLength} characters`);
    if (s.maxLength !== undefined) bounds.push(`at most ${s.maxLength} characters`);
    if (s.pattern) bounds.push(`matching ${s.pattern}`);
    const text = bounds.join(", ");
    if (text) parts.push(`${text.charAt(0).toUpperCase()}${text.slice(1)}.`);
  }
  if (s.default !== undefined && typeof s.default !== "object") parts.push(`Default: ${JSON.stringify(s.default)}.`);
  return parts.join(" ");
}

/** A label with the field's name and its required or optional mark. */
function labelFor(forId, name, s, required) {
  const title = s.title || humanize(name);
  return h("label", { for: forId },
    title, name !== title ? [" ", h("code", {}, name)] : null, " ",
    required ? h("span", { class: "req" }, "required") : h("span", { class: "opt" }, "optional"));
}

/** Wraps a control with its label, hint and error line. */
function wrap(node, name, s, required, kind, { group = false } = {}) {
  const id = node.id;
  node.required = required;
  const hint = hintFor(s, kind);
  const hintId = `${id}-hint`;
  const errId = `${id}-error`;
  const err = h("p", { class: "error-text", id: errId, hidden: true });
  const field = h("div", { class: "field", "data-field": name },
    group ? null : labelFor(id, name, s, required),
    node.el,
    hint ? h("p", { class: "hint", id: hintId }, rich(hint)) : null,
    node.after,
    err);
  if (node.focusable) {
    node.focusable.setAttribute("aria-describedby", [hint ? hintId : null, node.describedBy, errId].filter(Boolean).join(" "));
    if (required) node.focusable.setAttribute("aria-required", "true");
  }
  const validate = node.validate || (() => []);
  const wrapped = {
    ...node, el: field, name, required,
    validate(path) {
      const problems = validate(path);
      // Required may change after building (an action tool's fields).
      if (wrapped.required && !problems.length && node.get() === undefined) problems.push(...requiredMissing(path, node));
      const own = problems.filter((p) => p.own);
      err.hidden = own.length === 0;
      err.textContent = own.map((p) => p.message).join(" ");
      node.focusable?.setAttribute("aria-invalid", own.length ? "true" : "false");
      return problems.map((p) => ({ ...p, own: false, focus: p.focus || node.focusable }));
    },
  };
  return wrapped;
}

/** Builds the node for one schema. */
function build(schema, root, name, required) {
  let s = resolve(schema, root);
  const branches = s.oneOf || s.anyOf;
  if (branches) {
    const merged = mergeScalars(branches, root);
    if (merged) s = { ...s, ...merged, oneOf: undefined, anyOf: undefined };
    else {
      const union = taggedUnion(branches, root);
      if (union) return wrap(unionNode(s, union, root, name, required), name, s, required, "union", { group: true });
      return wrap(jsonNode(s, name), name, s, required, "json");
    }
  }
  const type = typeOf(s);
  if (s.const !== undefined) return constNode(s, name);
  if (s.enum) return wrap(enumNode(s, name, required), name, s, required, "enum");
  switch (type) {
    case "boolean": return wrap(booleanNode(s, name, required), name, s, required, "boolean");
    case "integer":
    case "number": return wrap(numberNode(s, name, type, required), name, s, required, type);
    case "string": return wrap(stringNode(s, name, required), name, s, required, "string");
    case "array": {
      const items = resolve(s.items || {}, root);
      if (items.enum && items.enum.every((v) => typeof v === "string")) {
        return wrap(multiNode(s, items, name), name, s, required, "array", { group: true });
      }
      if (Array.isArray(s.prefixItems) || s.items === false) return wrap(jsonNode(s, name), name, s, required, "json");
      return wrap(arrayNode(s, items, root, name, required), name, s, required, "array", { group: true });
    }
    case "object":
      if (s.properties && Object.keys(s.properties).length) {
        return wrap(objectNode(s, root, name, required), name, s, required, "object", { group: true });
      }
      return wrap(jsonNode(s, name), name, s, required, "json");
    default:
      return wrap(jsonNode(s, name), name, s, required, "json");
  }
}

function requiredMissing(path, node) {
  return [{ path, message: "Required.", own: true, focus: node.focusable }];
}

function enumNode(s, name, required) {
  const id = nextId(name);
  const values = s.enum;
  const select = h("select", { id, name },
    required && s.default === undefined ? h("option", { value: "" }, "Choose…") : null,
    !required ? h("option", { value: "" }, s.default !== undefined ? `(default: ${s.default})` : "(not set)") : null,
    values.map((v, i) => h("option", { value: String(i) }, v === null ? "null" : String(v))));
  // A required enum with a default starts at (and falls back to) it.
  const fallback = required && values.includes(s.default) ? String(values.indexOf(s.default)) : "";
  select.value = fallback;
  // The chosen value's meaning, under the select.
  const meanings = valueMeanings(`${s.description || ""}\n${s.typeDescription || ""}`);
  const meaning = h("p", { class: "hint", id: `${id}-meaning`, "aria-live": "polite" });
  const explain = () => {
    const v = node.get() ?? s.default;
    const text = meanings.get(String(v));
    meaning.replaceChildren(...(text ? [`${v}: `, ...rich(text)] : []));
    meaning.hidden = !text;
  };
  select.addEventListener("change", explain);
  const node = {
    id, el: select, after: meanings.size ? meaning : undefined, focusable: select,
    describedBy: meanings.size ? meaning.id : undefined,
    get: () => (select.value === "" ? undefined : values[Number(select.value)]),
    set: (v) => {
      const i = values.findIndex((x) => JSON.stringify(x) === JSON.stringify(v));
      select.value = i < 0 ? fallback : String(i);
      explain();
    },
    validate: (path) => (required && node.get() === undefined ? requiredMissing(path, node) : []),
  };
  explain();
  return node;
}

function constNode(s, name) {
  // A fixed value (a variant's tag): sent as is, shown as text.
  return { el: h("input", { type: "hidden", name }), name, isConst: true, get: () => s.const, set: () => {}, validate: () => [] };
}

function booleanNode(s, name, required) {
  const id = nextId(name);
  if (required) {
    const box = h("input", { type: "checkbox", id, name });
    if (s.default === true) box.checked = true;
    const el = h("div", { class: "row" }, box, h("span", { class: "hint" }, "checked means true"));
    return { id, el, focusable: box, get: () => box.checked, set: (v) => { box.checked = v === true; } };
  }
  // Optional: "not set" stays apart from false.
  const select = h("select", { id, name },
    h("option", { value: "" }, s.default !== undefined ? `(default: ${s.default})` : "(not set)"),
    h("option", { value: "true" }, "true"), h("option", { value: "false" }, "false"));
  return {
    id, el: select, focusable: select,
    get: () => (select.value === "" ? undefined : select.value === "true"),
    set: (v) => { select.value = v === true ? "true" : v === false ? "false" : ""; },
  };
}

function numberNode(s, name, type, required) {
  const id = nextId(name);
  const input = h("input", {
    id, name, type: "number", inputmode: type === "integer" ? "numeric" : "decimal",
    step: type === "integer" ? "1" : "any",
    min: s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum : undefined),
    max: s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum : undefined),
    placeholder: s.default !== undefined ? String(s.default) : undefined,
  });
  const node = {
    id, el: input, focusable: input,
    get: () => (input.value.trim() === "" ? undefined : Number(input.value)),
    set: (v) => { input.value = typeof v === "number" ? String(v) : ""; },
    validate: (path) => {
      const raw = input.value.trim();
      const bad = (message) => [{ path, message, own: true }];
      // What the browser could not read as a number reads as "" here.
      if (input.validity.badInput) return bad("Not a number.");
      if (raw === "") return required ? requiredMissing(path, node) : [];
      const n = Number(raw);
      if (!Number.isFinite(n)) return bad("Not a number.");
      if (type === "integer" && !Number.isInteger(n)) return bad("Must be a whole number.");
      if (s.minimum !== undefined && n < s.minimum) return bad(`Must be at least ${s.minimum}.`);
      if (s.maximum !== undefined && n > s.maximum) return bad(`Must be at most ${s.maximum}.`);
      if (s.exclusiveMinimum !== undefined && n <= s.exclusiveMinimum) return bad(`Must be more than ${s.exclusiveMinimum}.`);
      if (s.exclusiveMaximum !== undefined && n >= s.exclusiveMaximum) return bad(`Must be less than ${s.exclusiveMaximum}.`);
      return [];
    },
  };
  return node;
}

function stringNode(s, name, required) {
  const id = nextId(name);
  const long = (s.maxLength ?? 0) > 400 || /\n/.test(s.default ?? "");
  const input = h(long ? "textarea" : "input", {
    id, name, type: long ? undefined : "text", rows: long ? 4 : undefined,
    minlength: s.minLength, maxlength: s.maxLength, spellcheck: "false",
    placeholder: s.default !== undefined ? String(s.default) : undefined,
  });
  const node = {
    id, el: input, focusable: input,
    get: () => (input.value === "" ? undefined : input.value),
    set: (v) => { input.value = typeof v === "string" ? v : v === undefined || v === null ? "" : String(v); },
    validate: (path) => {
      const v = input.value;
      if (v === "") return required ? requiredMissing(path, node) : [];
      const bad = (message) => [{ path, message, own: true }];
      const length = [...v].length;
      if (s.minLength !== undefined && length < s.minLength) return bad(`At least ${s.minLength} characters.`);
      if (s.maxLength !== undefined && length > s.maxLength) return bad(`At most ${s.maxLength} characters.`);
      if (s.pattern) {
        let re;
        try { re = new RegExp(s.pattern, "u"); } catch { re = null; }
        if (re && !re.test(v)) return bad(`Must match ${s.pattern}.`);
      }
      return [];
    },
  };
  return node;
}

/** A field whose kind has no control: its JSON, typed in a box. */
function jsonNode(s, name) {
  const id = nextId(name);
  const box = h("textarea", { id, name, class: "json", rows: 3, spellcheck: "false", placeholder: "JSON" });
  const node = {
    id, el: box, focusable: box,
    get: () => {
      if (box.value.trim() === "") return undefined;
      try { return JSON.parse(box.value); } catch { return undefined; }
    },
    set: (v) => { box.value = v === undefined ? "" : JSON.stringify(v, null, 2); },
    validate: (path) => {
      if (box.value.trim() === "") return node.required ? requiredMissing(path, node) : [];
      try { JSON.parse(box.value); return []; } catch { return [{ path, message: "Not valid JSON.", own: true }]; }
    },
  };
  return node;
}

/** An array of enum values: one checkbox each. */
function multiNode(s, items, name) {
  const id = nextId(name);
  const boxes = items.enum.map((v) => h("input", { type: "checkbox", value: v, id: nextId(`${name}-${v}`) }));
  const legend = h("legend", {}, s.title || humanize(name), " ", h("code", {}, name), " ", h("span", { class: "opt" }, "any of"));
  const el = h("fieldset", { id }, legend,
    h("div", { class: "row" }, boxes.map((b) => h("label", { class: "check", for: b.id }, b, b.value))));
  return {
    id, el, focusable: boxes[0],
    get: () => {
      const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
      return chosen.length ? chosen : undefined;
    },
    set: (v) => { for (const b of boxes) b.checked = Array.isArray(v) && v.includes(b.value); },
  };
}

function arrayNode(s, items, root, name, required) {
  const id = nextId(name);
  const list = h("ol", { class: "items" });
  const rows = [];
  const add = (value) => {
    const child = build(items, root, `${name}[${rows.length}]`, true);
    const remove = h("button", { type: "button", class: "small", "aria-label": `Remove item from ${name}` }, "Remove");
    const li = h("li", {}, child.el, remove);
    const row = { child, li };
    remove.addEventListener("click", () => {
      rows.splice(rows.indexOf(row), 1);
      li.remove();
      syncJson();
    });
    rows.push(row);
    list.append(li);
    if (value !== undefined) child.set(value);
    return child;
  };
  const addButton = h("button", { type: "button", class: "small" }, `Add item`);
  addButton.addEventListener("click", () => {
    const child = add();
    syncJson();
    child.focusable?.focus();
  });
  const legend = h("legend", {}, s.title || humanize(name), " ", h("code", {}, name), " ",
    required ? h("span", { class: "req" }, "required") : h("span", { class: "opt" }, "optional"));
  const el = h("fieldset", { id }, legend, list, addButton);
  return {
    id, el, focusable: addButton,
    get: () => {
      if (!rows.length) return required ? untyped([]) : undefined;
      return rows.map((r) => r.child.get());
    },
    set: (v) => {
      for (const r of rows) r.li.remove();
      rows.length = 0;
      if (Array.isArray(v)) for (const x of v) add(x);
    },
    validate: (path) => {
      const problems = [];
      if (s.minItems !== undefined && rows.length < s.minItems) problems.push({ path, message: `At least ${s.minItems} items.`, own: true });
      if (s.maxItems !== undefined && rows.length > s.maxItems) problems.push({ path, message: `At most ${s.maxItems} items.`, own: true });
      rows.forEach((r, i) => problems.push(...r.child.validate(`${path}[${i}]`)));
      return problems;
    },
  };
}

/** An object's fields, each built from its property schema. */
function fieldsOf(s, root) {
  const req = new Set(s.required || []);
  return Object.entries(s.properties || {}).map(([key, prop]) => {
    const node = build(prop, root, key, req.has(key));
    node.key = key;
    return node;
  });
}

function objectNode(s, root, name, required) {
  const id = nextId(name);
  const fields = fieldsOf(s, root);
  const legend = h("legend", {}, s.title || humanize(name), " ", h("code", {}, name), " ",
    required ? h("span", { class: "req" }, "required") : h("span", { class: "opt" }, "optional"));
  const el = h("fieldset", { id }, legend, fields.map((f) => f.el));
  return {
    id, el, focusable: fields[0]?.focusable,
    get: () => readFields(fields, required),
    set: (v) => writeFields(fields, v),
    validate: (path) => {
      // An optional object left empty is left out, with no complaint.
      if (!required && readFields(fields, false) === undefined) return [];
      return fields.flatMap((f) => f.validate(`${path}.${f.key}`));
    },
  };
}

// Values nobody typed: the {} or [] a required object or list stands for
// while empty. An optional object holding only these (and fixed tags) was
// not filled in, and is left out.
const implicit = new WeakSet();
const isImplicit = (v) => v !== null && typeof v === "object" && implicit.has(v);
const untyped = (v) => { implicit.add(v); return v; };

function readFields(fields, required) {
  const out = {};
  let given = false;
  for (const f of fields) {
    if (f.el.hidden) continue;
    const v = f.get();
    if (v === undefined) continue;
    out[f.key] = v;
    if (!f.isConst && !isImplicit(v)) given = true;
  }
  if (given) return out;
  return required ? untyped(out) : undefined;
}

function writeFields(fields, v) {
  const obj = v && typeof v === "object" && !Array.isArray(v) ? v : {};
  for (const f of fields) f.set(obj[f.key]);
}

/** A tagged enum: a select of the variants, then the chosen one's fields.
 *  An optional one starts unset and is left out until a variant is chosen. */
function unionNode(s, union, root, name, required) {
  const id = nextId(name);
  const select = h("select", { id: `${id}-tag`, "aria-label": `${s.title || humanize(name)}: ${union.tag}` },
    required ? null : h("option", { value: "" }, "(not set)"),
    union.variants.map((v, i) => h("option", { value: String(i) }, String(v.value))));
  const variants = union.variants.map((v) => {
    const fields = fieldsOf(v.schema, root).filter((f) => f.key !== union.tag);
    return { value: v.value, fields, el: h("div", {}, fields.map((f) => f.el)) };
  });
  const holder = h("div");
  const current = () => (select.value === "" ? null : variants[Number(select.value)]);
  const show = () => holder.replaceChildren(...(current() ? [current().el] : []));
  select.addEventListener("change", show);
  show();
  const legend = h("legend", {}, s.title || humanize(name), " ", h("code", {}, name), " ",
    required ? h("span", { class: "req" }, "required") : h("span", { class: "opt" }, "optional"));
  const el = h("fieldset", { id }, legend,
    h("label", { for: select.id }, humanize(union.tag)), select, holder);
  return {
    id, el, focusable: select,
    get: () => {
      if (!current()) return undefined;
      const fields = readFields(current().fields, true);
      const value = { [union.tag]: current().value, ...fields };
      return isImplicit(fields) && required ? untyped(value) : value;
    },
    set: (v) => {
      const i = variants.findIndex((x) => v && x.value === v[union.tag]);
      select.value = i < 0 ? (required ? "0" : "") : String(i);
      show();
      if (i >= 0) writeFields(variants[i].fields, v);
    },
    validate: (path) => (current() ? current().fields.flatMap((f) => f.validate(`${path}.${f.key}`)) : []),
  };
}

// ---- The root form ------------------------------------------------------

const rootSchema = tool.inputSchema || { type: "object" };
const rootFields = fieldsOf(resolve(rootSchema, rootSchema), rootSchema);
$("fields").append(...rootFields.map((f) => f.el));
if (!rootFields.length) $("fields").append(h("p", { class: "muted" }, "This tool takes no arguments."));

// An action tool (one `action` enum; each field says "Used by: `x`") shows
// only the chosen action's fields.
const actionField = rootFields.find((f) => f.key === "action");
function usedBy(description) {
  const m = /Used by: (.*)$/m.exec(description || "") || /^Only with (.*?):/m.exec(description || "");
  if (!m) return null;
  const uses = new Map();
  for (const [, action, req] of m[1].matchAll(/`([^`]+)`( \(required\))?/g)) uses.set(action, Boolean(req));
  return uses;
}
const uses = new Map(Object.entries(resolve(rootSchema, rootSchema).properties || {})
  .map(([k, p]) => [k, usedBy(resolve(p, rootSchema).description)]));
function showAction() {
  if (!actionField) return;
  const action = actionField.get();
  for (const f of rootFields) {
    const u = uses.get(f.key);
    if (f === actionField || !u) continue;
    f.el.hidden = action === undefined ? false : !u.has(action);
    const mark = f.el.querySelector(":scope > label .req, :scope > label .opt, :scope > fieldset > legend .req, :scope > fieldset > legend .opt");
    const req = action !== undefined && u.get(action) === true;
    f.required = req;
    if (mark) {
      mark.className = req ? "req" : "opt";
      mark.textContent = req ? "required" : "optional";
    }
  }
}

function readArgs() {
  const out = {};
  for (const f of rootFields) {
    if (f.el.hidden) continue;
    const v = f.get();
    if (v !== undefined) out[f.key] = v;
  }
  return out;
}

function writeArgs(args) {
  const obj = args && typeof args === "object" ? args : {};
  if (actionField) { actionField.set(obj.action); showAction(); showTiming(); }
  for (const f of rootFields) if (f !== actionField) f.set(obj[f.key]);
  syncJson();
}

function validateArgs() {
  return rootFields.filter((f) => !f.el.hidden).flatMap((f) => f.validate(f.key));
}

// The JSON view follows the form, and the form follows the JSON view.
const jsonBox = $("json");
function syncJson() {
  if (document.activeElement !== jsonBox) jsonBox.value = JSON.stringify(readArgs(), null, 2);
  $("json-error").textContent = "";
  jsonBox.removeAttribute("aria-invalid");
}
$("form").addEventListener("input", (e) => { if (e.target !== jsonBox) syncJson(); });
$("form").addEventListener("change", (e) => {
  if (e.target === actionField?.focusable) { showAction(); showTiming(); }
  if (e.target !== jsonBox) syncJson();
});
jsonBox.addEventListener("input", () => {
  let value;
  try { value = JSON.parse(jsonBox.value); } catch (err) {
    $("json-error").textContent = `Not valid JSON: ${err.message}`;
    jsonBox.setAttribute("aria-invalid", "true");
    return;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    $("json-error").textContent = "The arguments are one JSON object.";
    jsonBox.setAttribute("aria-invalid", "true");
    return;
  }
  $("json-error").textContent = "";
  jsonBox.removeAttribute("aria-invalid");
  writeArgs(value);
});
jsonBox.addEventListener("blur", syncJson);
