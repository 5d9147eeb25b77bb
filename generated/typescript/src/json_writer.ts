// Canonical JSON: serde_json's compact output of the Rust value. Struct
// fields in declaration order, absent optionals left out, `map<T>` and
// `json` object keys sorted, floats as Rust writes them, bytes as base64,
// non-ASCII as UTF-8.

import { bytesToBase64 } from "./base64.js";
import { ValidationError } from "./errors.js";
import { formatF32, formatF64 } from "./floats.js";
import { type FieldShape, type Shape, type ShapeTable, isRecord, sortedKeys, typeShape } from "./shape.js";

type Path = (string | number)[];

/** Writes `value`, of type `shape`, as canonical JSON text. */
export function writeJson(value: unknown, shape: Shape, table: ShapeTable): string {
  return write(value, shape, table, []);
}

/** Writes the fields of a struct value (without braces), for payloads that prepend a tag. */
export function writeJsonFields(
  value: Record<string, unknown>,
  fields: readonly FieldShape[],
  table: ShapeTable,
  path: Path = [],
): string[] {
  const parts: string[] = [];
  for (const [name, shape] of fields) {
    const field = value[name];
    if (field === undefined || (field === null && isOptional(shape))) continue;
    path.push(name);
    parts.push(`${JSON.stringify(name)}:${write(field, shape, table, path)}`);
    path.pop();
  }
  return parts;
}

/** Writes any JSON value as Rust's `serde_json::Value` does: object keys sorted. */
export function writeAnyJson(value: unknown, path: Path = []): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "number":
      if (!Number.isFinite(value)) throw new ValidationError(path, `${value} is not a JSON number`);
      return Number.isSafeInteger(value) ? String(value) : formatF64(value);
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          path.push(i);
          out += (i === 0 ? "" : ",") + writeAnyJson(value[i], path);
          path.pop();
        }
        return out + "]";
      }
      if (value instanceof Uint8Array) {
        throw new ValidationError(path, "bytes cannot appear in a `json` value");
      }
      const record = value as Record<string, unknown>;
      let out = "{";
      let first = true;
      for (const key of sortedKeys(record)) {
        const v = record[key];
        if (v === undefined) continue;
        path.push(key);
        out += (first ? "" : ",") + JSON.stringify(key) + ":" + writeAnyJson(v, path);
        path.pop();
        first = false;
      }
      return out + "}";
    }
    default:
      throw new ValidationError(path, `a ${typeof value} is not a JSON value`);
  }
}

function isOptional(shape: Shape): boolean {
  return typeof shape !== "string" && shape[0] === "opt";
}

function write(value: unknown, shape: Shape, table: ShapeTable, path: Path): string {
  if (typeof shape === "string") {
    switch (shape) {
      case "bool":
        if (typeof value !== "boolean") throw expected(path, "a boolean", value);
        return value ? "true" : "false";
      case "string":
        if (typeof value !== "string") throw expected(path, "a string", value);
        return JSON.stringify(value);
      case "f64":
        if (typeof value !== "number" || !Number.isFinite(value)) throw expected(path, "a finite number", value);
        return formatF64(value);
      case "f32":
        if (typeof value !== "number" || !Number.isFinite(value)) throw expected(path, "a finite number", value);
        return formatF32(value);
      case "bytes":
        if (!(value instanceof Uint8Array)) throw expected(path, "a Uint8Array", value);
        return `"${bytesToBase64(value)}"`;
      case "json":
        return writeAnyJson(value, path);
      default:
        if (typeof value !== "number" || !Number.isSafeInteger(value)) {
          throw expected(path, `an integer (${shape}) within ±(2^53−1)`, value);
        }
        return String(value === 0 ? 0 : value);
    }
  }
  switch (shape[0]) {
    case "opt":
      return value === null || value === undefined ? "null" : write(value, shape[1], table, path);
    case "list": {
      if (!Array.isArray(value)) throw expected(path, "an array", value);
      const parts = new Array<string>(value.length);
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        parts[i] = write(value[i], shape[1], table, path);
        path.pop();
      }
      return `[${parts.join(",")}]`;
    }
    case "map": {
      if (!isRecord(value)) throw expected(path, "an object", value);
      const parts: string[] = [];
      for (const key of sortedKeys(value)) {
        path.push(key);
        parts.push(`${JSON.stringify(key)}:${write(value[key], shape[1], table, path)}`);
        path.pop();
      }
      return `{${parts.join(",")}}`;
    }
    case "ref": {
      const def = typeShape(table, shape[1]);
      switch (def.kind) {
        case "enum":
          if (typeof value !== "string") throw expected(path, `a ${shape[1]} value`, value);
          return JSON.stringify(value);
        case "struct":
          if (!isRecord(value)) throw expected(path, `a ${shape[1]} object`, value);
          return `{${writeJsonFields(value, def.fields, table, path).join(",")}}`;
        case "union": {
          if (!isRecord(value)) throw expected(path, `a ${shape[1]} object`, value);
          const keys = Object.keys(value);
          const tag = keys[0];
          const fields = tag === undefined ? undefined : def.variants[tag];
          if (keys.length !== 1 || tag === undefined || fields === undefined) {
            throw new ValidationError(path, `a ${shape[1]} is an object with exactly one variant key`);
          }
          const inner = value[tag];
          if (!isRecord(inner)) throw expected([...path, tag], "an object of the variant's fields", inner);
          path.push(tag);
          const body = writeJsonFields(inner, fields, table, path).join(",");
          path.pop();
          return `{${JSON.stringify(tag)}:{${body}}}`;
        }
      }
    }
  }
}

/** The error for a value of the wrong kind. */
export function expected(path: readonly (string | number)[], what: string, value: unknown): ValidationError {
  const got = value === null ? "null" : Array.isArray(value) ? "an array" : value instanceof Uint8Array ? "bytes" : typeof value;
  return new ValidationError(path, `expected ${what}, got ${got}`);
}
