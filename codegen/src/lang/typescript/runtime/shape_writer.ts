// The one walk of a value by its shape, for both canonical encodings: the
// checks and their errors, fields in declaration order, absent optionals
// left out, `map<T>` and `json` object keys sorted, a union as its one
// variant key. A `ShapeSink` only spells what the walk finds: JSON text
// (json_writer.ts) or MsgPack bytes (msgpack_writer.ts).

import { ValidationError } from "./errors.js";
import { type FieldShape, type Shape, type ShapeTable, isRecord, sortedKeys, typeShape } from "./shape.js";

/** Where a value sits in the one being written, for errors. */
export type Path = (string | number)[];

/** What an encoding writes for each thing the walk meets, in order. */
export interface ShapeSink {
  /** `null`. */
  nil(): void;
  /** `true` / `false`. */
  bool(value: boolean): void;
  /** A safe integer. */
  int(value: number): void;
  /** A finite number of an `f32` field. */
  f32(value: number): void;
  /** A finite number of an `f64` field, or a fraction in a `json` value. */
  f64(value: number): void;
  /** A string. */
  str(value: string): void;
  /** The value of a `bytes` field. */
  bin(value: Uint8Array): void;
  /** Bytes met inside a `json` value: MsgPack has a type for them, JSON has none. */
  anyBytes(value: Uint8Array, path: Path): void;
  /** Opens an array of `length` items; `item` comes before each one. */
  array(length: number): void;
  /** Before each item of the open array. */
  item(): void;
  /** Closes the array. */
  arrayEnd(): void;
  /** Opens a map of `size` entries; `key` comes before each value. */
  map(size: number): void;
  /** The key of an entry of the open map, before its value. */
  key(name: string): void;
  /** Closes the map. */
  mapEnd(): void;
}

/** Writes `value`, of type `shape`. */
export function writeShape(out: ShapeSink, value: unknown, shape: Shape, table: ShapeTable, path: Path = []): void {
  if (typeof shape === "string") {
    switch (shape) {
      case "bool":
        if (typeof value !== "boolean") throw expected(path, "a boolean", value);
        return out.bool(value);
      case "string":
        if (typeof value !== "string") throw expected(path, "a string", value);
        return out.str(value);
      case "f64":
        if (typeof value !== "number" || !Number.isFinite(value)) throw expected(path, "a finite number", value);
        return out.f64(value);
      case "f32":
        if (typeof value !== "number" || !Number.isFinite(value)) throw expected(path, "a finite number", value);
        return out.f32(value);
      case "bytes":
        if (!(value instanceof Uint8Array)) throw expected(path, "a Uint8Array", value);
        return out.bin(value);
      case "json":
        return writeAny(out, value, path);
      default:
        if (typeof value !== "number" || !Number.isSafeInteger(value)) {
          throw expected(path, `an integer (${shape}) within ±(2^53−1)`, value);
        }
        return out.int(value);
    }
  }
  switch (shape[0]) {
    case "opt":
      return value === null || value === undefined ? out.nil() : writeShape(out, value, shape[1], table, path);
    case "list": {
      if (!Array.isArray(value)) throw expected(path, "an array", value);
      out.array(value.length);
      for (let i = 0; i < value.length; i++) {
        out.item();
        path.push(i);
        writeShape(out, value[i], shape[1], table, path);
        path.pop();
      }
      return out.arrayEnd();
    }
    case "map": {
      if (!isRecord(value)) throw expected(path, "an object", value);
      const keys = sortedKeys(value);
      out.map(keys.length);
      for (const key of keys) {
        out.key(key);
        path.push(key);
        writeShape(out, value[key], shape[1], table, path);
        path.pop();
      }
      return out.mapEnd();
    }
    case "ref": {
      const def = typeShape(table, shape[1]);
      switch (def.kind) {
        case "enum":
          if (typeof value !== "string") throw expected(path, `a ${shape[1]} value`, value);
          return out.str(value);
        case "struct":
          if (!isRecord(value)) throw expected(path, `a ${shape[1]} object`, value);
          return writeStruct(out, value, def.fields, table, path);
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
          out.map(1);
          out.key(tag);
          path.push(tag);
          writeStruct(out, inner, fields, table, path);
          path.pop();
          return out.mapEnd();
        }
      }
    }
  }
}

/** Writes a struct value: a map of its present fields. */
export function writeStruct(
  out: ShapeSink,
  value: Record<string, unknown>,
  fields: readonly FieldShape[],
  table: ShapeTable,
  path: Path = [],
): void {
  out.map(presentFields(value, fields).length);
  writeFields(out, value, fields, table, path);
  out.mapEnd();
}

/**
 * Writes the present fields as map entries: the caller opens and closes
 * the map, and writes any entries before them (an action tool's `action`).
 */
export function writeFields(
  out: ShapeSink,
  value: Record<string, unknown>,
  fields: readonly FieldShape[],
  table: ShapeTable,
  path: Path = [],
): void {
  for (const [name, shape] of fields) {
    const field = value[name];
    if (!isPresent(field, shape)) continue;
    out.key(name);
    path.push(name);
    writeShape(out, field, shape, table, path);
    path.pop();
  }
}

/** Writes any JSON value as Rust writes a `serde_json::Value`: keys sorted, whole numbers as integers. */
export function writeAny(out: ShapeSink, value: unknown, path: Path = []): void {
  switch (typeof value) {
    case "string":
      return out.str(value);
    case "boolean":
      return out.bool(value);
    case "number":
      if (!Number.isFinite(value)) throw new ValidationError(path, `${value} is not a JSON number`);
      return Number.isSafeInteger(value) ? out.int(value) : out.f64(value);
    case "object": {
      if (value === null) return out.nil();
      if (Array.isArray(value)) {
        out.array(value.length);
        for (let i = 0; i < value.length; i++) {
          out.item();
          path.push(i);
          writeAny(out, value[i], path);
          path.pop();
        }
        return out.arrayEnd();
      }
      if (value instanceof Uint8Array) return out.anyBytes(value, path);
      const record = value as Record<string, unknown>;
      const keys = sortedKeys(record);
      let count = 0;
      for (const key of keys) if (record[key] !== undefined) count++;
      out.map(count);
      for (const key of keys) {
        const v = record[key];
        if (v === undefined) continue;
        out.key(key);
        path.push(key);
        writeAny(out, v, path);
        path.pop();
      }
      return out.mapEnd();
    }
    default:
      throw new ValidationError(path, `a ${typeof value} is not a JSON value`);
  }
}

/** True when a field is written: present, and not `null` in an optional field (absent, then). */
function isPresent(field: unknown, shape: Shape): boolean {
  return field !== undefined && !(field === null && typeof shape !== "string" && shape[0] === "opt");
}

/** The fields of a struct value that are written, in declaration order. */
export function presentFields(value: Record<string, unknown>, fields: readonly FieldShape[]): FieldShape[] {
  return fields.filter(([name, shape]) => isPresent(value[name], shape));
}

/** The error for a value of the wrong kind. */
export function expected(path: readonly (string | number)[], what: string, value: unknown): ValidationError {
  const got = value === null ? "null" : Array.isArray(value) ? "an array" : value instanceof Uint8Array ? "bytes" : typeof value;
  return new ValidationError(path, `expected ${what}, got ${got}`);
}
