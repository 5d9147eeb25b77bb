// Canonical JSON: serde_json's compact output of the Rust value. Struct
// fields in declaration order, absent optionals left out, `map<T>` and
// `json` object keys sorted, floats as Rust writes them, bytes as base64,
// non-ASCII as UTF-8. The walk is shape_writer.ts's, shared with MsgPack;
// this file only spells what it finds as text.

import { bytesToBase64 } from "./base64.js";
import { ValidationError } from "./errors.js";
import { formatF32, formatF64 } from "./floats.js";
import type { Shape, ShapeTable } from "./shape.js";
import { type Path, type ShapeSink, writeShape } from "./shape_writer.js";

/** Compact JSON text, built as the walk goes. */
export class JsonWriter implements ShapeSink {
  private out = "";
  // Whether each open array or map, innermost last, has an entry yet:
  // every entry but the first is preceded by a comma.
  private readonly entered: boolean[] = [];

  /** The text written so far. */
  text(): string {
    return this.out;
  }

  /** `null` */
  nil(): void {
    this.out += "null";
  }

  /** `true` / `false` */
  bool(value: boolean): void {
    this.out += value ? "true" : "false";
  }

  /** A safe integer; `-0` is `0`. */
  int(value: number): void {
    this.out += String(value === 0 ? 0 : value);
  }

  /** A float as Rust writes an `f32`. */
  f32(value: number): void {
    this.out += formatF32(value);
  }

  /** A float as Rust writes an `f64`. */
  f64(value: number): void {
    this.out += formatF64(value);
  }

  /** A string. */
  str(value: string): void {
    this.out += JSON.stringify(value);
  }

  /** Bytes, as a base64 string. */
  bin(value: Uint8Array): void {
    this.out += `"${bytesToBase64(value)}"`;
  }

  /** JSON has no bytes: a `json` value cannot hold them. */
  anyBytes(_value: Uint8Array, path: Path): void {
    throw new ValidationError(path, "bytes cannot appear in a `json` value");
  }

  /** `[` */
  array(): void {
    this.out += "[";
    this.entered.push(false);
  }

  /** The comma before every item but the first. */
  item(): void {
    this.comma();
  }

  /** `]` */
  arrayEnd(): void {
    this.entered.pop();
    this.out += "]";
  }

  /** `{` */
  map(): void {
    this.out += "{";
    this.entered.push(false);
  }

  /** `"name":`, after a comma but for the first key. */
  key(name: string): void {
    this.comma();
    this.out += `${JSON.stringify(name)}:`;
  }

  /** `}` */
  mapEnd(): void {
    this.entered.pop();
    this.out += "}";
  }

  private comma(): void {
    const last = this.entered.length - 1;
    if (this.entered[last]) this.out += ",";
    else this.entered[last] = true;
  }
}

/** Writes `value`, of type `shape`, as canonical JSON text. */
export function writeJson(value: unknown, shape: Shape, table: ShapeTable): string {
  const out = new JsonWriter();
  writeShape(out, value, shape, table);
  return out.text();
}
