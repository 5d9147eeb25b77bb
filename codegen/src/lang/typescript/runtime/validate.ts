// zod building blocks for the IDL's scalar types and constraints.

import { z } from "zod";

const INT_RANGES = {
  i8: [-128, 127],
  i16: [-32768, 32767],
  i32: [-2147483648, 2147483647],
  i64: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  u8: [0, 255],
  u16: [0, 65535],
  u32: [0, 4294967295],
  u64: [0, Number.MAX_SAFE_INTEGER],
} as const;

/** An IDL integer type. */
export type IntType = keyof typeof INT_RANGES;

/**
 * An integer of `type`, within `[min, max]` when given (`@range`). 64-bit
 * types are limited to ±(2^53−1), which JavaScript numbers hold exactly.
 */
export function int(type: IntType, min?: number, max?: number): z.ZodNumber {
  const [lo, hi] = INT_RANGES[type];
  const wide = type === "i64" || type === "u64";
  return z
    .number()
    .int({
      error: wide
        ? `expected an integer (${type}) within ±(2^53−1): larger 64-bit values cannot be held exactly by JavaScript numbers`
        : `expected an integer (${type})`,
    })
    .min(Math.max(lo, min ?? lo), { error: `expected an integer (${type}) of at least ${Math.max(lo, min ?? lo)}` })
    .max(Math.min(hi, max ?? hi), { error: `expected an integer (${type}) of at most ${Math.min(hi, max ?? hi)}` });
}

/** A finite float, within `[min, max]` when given. `f32` values beyond its range are refused. */
export function float(type: "f32" | "f64", min?: number, max?: number): z.ZodNumber {
  let schema = z.number();
  if (type === "f32") schema = schema.min(-3.4028234663852886e38).max(3.4028234663852886e38);
  if (min !== undefined) schema = schema.min(min);
  if (max !== undefined) schema = schema.max(max);
  return schema;
}

/**
 * A string of `min..=max` characters (code points, not UTF-16 units) that
 * matches `pattern` somewhere, read as ECMA-262 with the `u` flag as JSON
 * Schema does.
 */
export function string(min?: number, max?: number, pattern?: string): z.ZodType<string> {
  let schema: z.ZodType<string> = z.string();
  if (pattern !== undefined) schema = z.string().regex(new RegExp(pattern, "u"));
  if (min === undefined && max === undefined) return schema;
  return schema.refine(
    (s) => {
      const n = countChars(s);
      return n >= (min ?? 0) && n <= (max ?? Infinity);
    },
    { error: `expected ${min ?? 0} to ${max ?? "any number of"} characters` },
  );
}

function countChars(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

/** `bytes`: a `Uint8Array` of `min..=max` bytes. */
export function bytes(min?: number, max?: number): z.ZodType<Uint8Array> {
  const schema = z.instanceof(Uint8Array, { error: "expected a Uint8Array" });
  if (min === undefined && max === undefined) return schema;
  return schema.refine((b) => b.length >= (min ?? 0) && b.length <= (max ?? Infinity), {
    error: `expected ${min ?? 0} to ${max ?? "any number of"} bytes`,
  });
}

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** `json`: any JSON value. */
export const json: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(json), z.record(z.string(), json)]),
);

/** A list of `min..=max` entries. */
export function list<T>(item: z.ZodType<T>, min?: number, max?: number): z.ZodType<T[]> {
  let schema = z.array(item);
  if (min !== undefined) schema = schema.min(min);
  if (max !== undefined) schema = schema.max(max);
  return schema;
}

/** A `map<T>` (string keys) of `min..=max` entries. */
export function map<T>(value: z.ZodType<T>, min?: number, max?: number): z.ZodType<Record<string, T>> {
  const schema = z.record(z.string(), value);
  if (min === undefined && max === undefined) return schema;
  return schema.refine((m) => {
    const n = Object.keys(m).length;
    return n >= (min ?? 0) && n <= (max ?? Infinity);
  }, { error: `expected ${min ?? 0} to ${max ?? "any number of"} entries` });
}

/** Turns a zod failure into one readable line naming the field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.map(String).join(".")}: ${issue.message}`))
    .join("; ");
}
