// Turns a decoded JSON or MsgPack value into the shape the types declare,
// before validation: base64 strings (JSON) or byte arrays (some MsgPack
// writers) become `Uint8Array`s, `null` optionals become absent, 64-bit
// integers become numbers when JavaScript holds them exactly and an error
// otherwise. Anything else is passed through for the validator to judge,
// unknown keys included.

import { base64ToBytes } from "./base64.js";
import { ValidationError } from "./errors.js";
import { shortestF32Number } from "./floats.js";
import { type FieldShape, type Shape, type ShapeTable, isRecord, setOwn, typeShape } from "./shape.js";

type Path = (string | number)[];

/** Where a value was read from: `bytes` are base64 in JSON and bin in MsgPack. */
export type WireFormat = "json" | "msgpack";

/** Normalizes `value`, read from `format`, to the shape of `shape`. */
export function readWire(value: unknown, shape: Shape, table: ShapeTable, format: WireFormat): unknown {
  return read(value, shape, table, format, []);
}

/** Normalizes the fields of a struct value; unknown keys are kept. */
export function readWireFields(
  value: Record<string, unknown>,
  fields: readonly FieldShape[],
  table: ShapeTable,
  format: WireFormat,
  path: Path = [],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = fields.find(([name]) => name === key);
    const v = value[key];
    if (field === undefined) {
      setOwn(out, key, v);
      continue;
    }
    const shape = field[1];
    if (v === null && typeof shape !== "string" && shape[0] === "opt") continue;
    path.push(key);
    setOwn(out, key, read(v, shape, table, format, path));
    path.pop();
  }
  return out;
}

/** A 64-bit integer from the MsgPack reader as a number, or a clear error. */
export function safeInteger(value: bigint, path: readonly (string | number)[]): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new ValidationError(
      path,
      `the integer ${value} is beyond ±(2^53−1), which JavaScript numbers cannot hold exactly`,
    );
  }
  return Number(value);
}

/**
 * Replaces the bigints of a freshly decoded value with numbers (or an
 * error), in place: the decoder's output is not shared.
 */
export function readAnyJson(value: unknown, path: Path = []): unknown {
  if (typeof value === "bigint") return safeInteger(value, path);
  if (typeof value !== "object" || value === null || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === "bigint" || (typeof v === "object" && v !== null)) {
        path.push(i);
        value[i] = readAnyJson(v, path);
        path.pop();
      }
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const v = record[key];
    if (typeof v === "bigint" || (typeof v === "object" && v !== null)) {
      path.push(key);
      const r = readAnyJson(v, path);
      if (r !== v) setOwn(record, key, r);
      path.pop();
    }
  }
  return value;
}

function read(value: unknown, shape: Shape, table: ShapeTable, format: WireFormat, path: Path): unknown {
  if (typeof shape === "string") {
    switch (shape) {
      case "bool":
      case "string":
        return value;
      case "json":
        return readAnyJson(value, path);
      case "bytes":
        return readBytes(value, format, path);
      case "f32":
        // A float 32 from MsgPack arrives widened (0.949999988079071 for
        // 0.95); its shortest decimal is the same f32 and equals what JSON gives.
        if (typeof value === "bigint") return safeInteger(value, path);
        return typeof value === "number" && Number.isFinite(value) ? shortestF32Number(value) : value;
      default:
        // Integers and floats: MsgPack's 64-bit encodings arrive as bigints.
        return typeof value === "bigint" ? safeInteger(value, path) : value;
    }
  }
  switch (shape[0]) {
    case "opt":
      return value === null ? undefined : read(value, shape[1], table, format, path);
    case "list":
      if (!Array.isArray(value)) return value;
      return value.map((v, i) => {
        path.push(i);
        const r = read(v, shape[1], table, format, path);
        path.pop();
        return r;
      });
    case "map": {
      if (!isRecord(value)) return value;
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        path.push(key);
        setOwn(out, key, read(value[key], shape[1], table, format, path));
        path.pop();
      }
      return out;
    }
    case "ref": {
      const def = typeShape(table, shape[1]);
      if (def.kind === "enum" || !isRecord(value)) return value;
      if (def.kind === "struct") return readWireFields(value, def.fields, table, format, path);
      const keys = Object.keys(value);
      const tag = keys[0];
      const fields = tag === undefined ? undefined : def.variants[tag];
      const inner = tag === undefined ? undefined : value[tag];
      if (keys.length !== 1 || tag === undefined || fields === undefined || !isRecord(inner)) return value;
      path.push(tag);
      const body = readWireFields(inner, fields, table, format, path);
      path.pop();
      const out: Record<string, unknown> = {};
      setOwn(out, tag, body);
      return out;
    }
  }
}

function readBytes(value: unknown, format: WireFormat, path: Path): unknown {
  if (value instanceof Uint8Array) return value;
  if (format === "json" && typeof value === "string") {
    const bytes = base64ToBytes(value);
    if (bytes === undefined) throw new ValidationError(path, "expected standard base64 text for a `bytes` field");
    return bytes;
  }
  // docs/wire.md: a reader also accepts an array of integers 0–255.
  if (Array.isArray(value) && value.every((b) => typeof b === "number" && Number.isInteger(b) && b >= 0 && b <= 255)) {
    return Uint8Array.from(value as number[]);
  }
  return value;
}
