// Reading back arguments a model sent in a provider profile's shape.
// OpenAI's strict mode makes a model send every property, `null` for one it
// leaves out (docs/schemas.md, "Provider profiles"). Where the tool's input
// schema admits no `null`, a `null` can only mean "absent": it is left out,
// at every depth the schema describes, so the arguments validate with the
// request's defaults, as the server reads them.

import type { JsonValue } from "./validate.js";

/** A provider profile: OpenAI (strict mode), Anthropic or Gemini. */
export type Profile = "openai" | "anthropic" | "gemini";

/** Every profile. */
export const PROFILES: readonly Profile[] = ["openai", "anthropic", "gemini"];

type JsonObject = { [key: string]: JsonValue };

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function target(reference: string, defs: JsonObject): JsonValue | undefined {
  const prefix = "#/$defs/";
  return reference.startsWith(prefix) ? defs[reference.slice(prefix.length)] : undefined;
}

function resolve(schema: JsonObject, defs: JsonObject): JsonObject | undefined {
  const reference = schema["$ref"];
  if (typeof reference !== "string") return schema;
  const found = target(reference, defs);
  return isObject(found) ? found : undefined;
}

function admitsNull(schema: JsonValue | undefined, defs: JsonObject, depth = 0): boolean {
  if (!isObject(schema)) return schema === true;
  if (Object.keys(schema).length === 0) return true;
  const reference = schema["$ref"];
  if (typeof reference === "string") {
    return depth < 8 && admitsNull(target(reference, defs), defs, depth + 1);
  }
  const type = schema["type"];
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  return ["anyOf", "oneOf"].some((choice) => {
    const branches = schema[choice];
    return Array.isArray(branches) && branches.some((b) => admitsNull(b, defs, depth + 1));
  });
}

function cleanObject(schema: JsonObject, defs: JsonObject, value: JsonObject): void {
  const resolved = resolve(schema, defs);
  if (resolved === undefined) return;
  const properties = resolved["properties"];
  if (isObject(properties)) {
    for (const [key, inner] of Object.entries(value)) {
      const property = properties[key];
      if (inner === null && property !== undefined && !admitsNull(property, defs)) {
        delete value[key];
      } else if (isObject(property)) {
        cleanNested(property, defs, inner);
      }
    }
  }
  // A union's value is one of its branches: the one that names every key.
  for (const choice of ["anyOf", "oneOf"]) {
    const branches = resolved[choice];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      if (!isObject(branch)) continue;
      const chosen = resolve(branch, defs) ?? branch;
      const names = chosen["properties"];
      if (isObject(names) && Object.keys(value).every((k) => k in names)) {
        cleanObject(chosen, defs, value);
        return;
      }
    }
  }
}

function cleanNested(schema: JsonObject, defs: JsonObject, value: JsonValue): void {
  const resolved = resolve(schema, defs);
  if (resolved === undefined) return;
  if (isObject(value)) {
    cleanObject(resolved, defs, value);
  } else if (Array.isArray(value)) {
    const items = resolved["items"];
    if (isObject(items)) for (const item of value) cleanNested(items, defs, item);
  }
}

/**
 * `args` with each `null` that `schema` (a tool's MCP input schema, with
 * its `$defs`) admits nowhere left out; a copy, `args` is not changed.
 */
export function dropAbsentNulls(
  schema: JsonValue | undefined,
  args: { readonly [key: string]: JsonValue },
): { [key: string]: JsonValue } {
  const copy = JSON.parse(JSON.stringify(args)) as JsonObject;
  if (isObject(schema)) {
    const defs = schema["$defs"];
    cleanObject(schema, isObject(defs) ? defs : {}, copy);
  }
  return copy;
}
