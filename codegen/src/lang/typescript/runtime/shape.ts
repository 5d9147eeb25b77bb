// A compact description of every type's wire layout, generated per
// catalogue (`shapes.ts`), which the canonical writers and the wire reader
// walk. Values are not enough to write canonical bytes: `2` in an `f64`
// field is `2.0` in JSON and a float 64 in MsgPack, and fields go in
// declaration order.

/** The scalar types of the IDL. */
export type Scalar =
  | "bool"
  | "i8"
  | "i16"
  | "i32"
  | "i64"
  | "u8"
  | "u16"
  | "u32"
  | "u64"
  | "f32"
  | "f64"
  | "string"
  | "bytes"
  | "json";

/** The type of a field: a scalar, `list<T>`, `map<T>`, `T?` or a named type. */
export type Shape =
  | Scalar
  | readonly ["list", Shape]
  | readonly ["map", Shape]
  | readonly ["opt", Shape]
  | readonly ["ref", string];

/** A field: its wire name and type. */
export type FieldShape = readonly [name: string, shape: Shape];

/** The layout of a named type. */
export type TypeShape =
  | { readonly kind: "struct"; readonly fields: readonly FieldShape[] }
  | { readonly kind: "enum"; readonly values: readonly string[] }
  | { readonly kind: "union"; readonly variants: Readonly<Record<string, readonly FieldShape[]>> };

/** Every named type of a catalogue, by name. */
export type ShapeTable = Readonly<Record<string, TypeShape>>;

/** The request and response types of a tool or action (`null`: none). */
export interface EndpointShape {
  /** The request struct, or `null` for a tool without arguments. */
  readonly request: string | null;
  /** The response struct, or `null` for an acknowledgement. */
  readonly response: string | null;
}

/** A tool: one endpoint, or several actions. */
export type ToolShape =
  | { readonly kind: "single"; readonly endpoint: EndpointShape }
  | { readonly kind: "actions"; readonly actions: Readonly<Record<string, EndpointShape>> };

/** Every tool of a catalogue, by wire name, and the types they use. */
export interface CatalogueShape {
  /** The named types. */
  readonly types: ShapeTable;
  /** The tools. */
  readonly tools: Readonly<Record<string, ToolShape>>;
}

/** Looks up a named type; a missing one is a generator bug, reported as such. */
export function typeShape(table: ShapeTable, name: string): TypeShape {
  const shape = table[name];
  if (shape === undefined) throw new Error(`toolwright: no shape for type ${name}`);
  return shape;
}

/** Compares strings by their UTF-8 bytes, as Rust orders `String` keys. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // UTF-16 orders surrogates (astral characters) below U+E000..U+FFFF;
      // UTF-8 orders them above.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys && (x >= 0xe000 || y >= 0xe000)) return xs ? 1 : -1;
      return x - y;
    }
  }
  return a.length - b.length;
}

const ASTRAL_OR_HIGH = /[\uD800-\uFFFF]/;

/** The keys of a plain object sorted as Rust sorts map keys. */
export function sortedKeys(object: object): string[] {
  const keys = Object.keys(object);
  // UTF-16 order is UTF-8 order unless a key has a surrogate or U+E000..U+FFFF.
  for (const key of keys) if (ASTRAL_OR_HIGH.test(key)) return keys.sort(compareUtf8);
  return keys.sort();
}

/** Sets an own property, even one named `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** True for a non-null object that is not an array or byte array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}
