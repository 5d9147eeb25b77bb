// Canonical MsgPack (docs/wire.md): smallest integer encodings, `f32`
// fields as float 32 and `f64` as float 64, bytes as bin, struct fields in
// declaration order, map keys sorted, absent optionals left out. The walk
// is shape_writer.ts's, shared with JSON; this file only spells what it
// finds as bytes, and writes the frames' own maps (wire.ts, calls.ts).

import type { Shape, ShapeTable } from "./shape.js";
import { type ShapeSink, writeShape } from "./shape_writer.js";

const utf8 = new TextEncoder();

/** A growable byte buffer with the MsgPack primitives. */
export class MsgpackWriter implements ShapeSink {
  private buf: Uint8Array;
  private view: DataView;
  private len = 0;

  /** @param capacity the initial size of the buffer. */
  constructor(capacity = 256) {
    this.buf = new Uint8Array(capacity);
    this.view = new DataView(this.buf.buffer);
  }

  /** The bytes written so far (a view, not a copy). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }

  private reserve(extra: number): void {
    const need = this.len + extra;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  /** Appends raw bytes. */
  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length);
    this.buf.set(bytes, this.len);
    this.len += bytes.length;
  }

  /** Appends one byte. */
  byte(b: number): void {
    this.reserve(1);
    this.buf[this.len++] = b;
  }

  /** `nil` */
  nil(): void {
    this.byte(0xc0);
  }

  /** `true` / `false` */
  bool(value: boolean): void {
    this.byte(value ? 0xc3 : 0xc2);
  }

  /** An integer in its smallest encoding (safe integers only). */
  int(value: number): void {
    this.reserve(9);
    const b = this.buf;
    const v = this.view;
    let o = this.len;
    if (value >= 0) {
      if (value < 0x80) b[o++] = value;
      else if (value < 0x100) (b[o++] = 0xcc), (b[o++] = value);
      else if (value < 0x10000) (b[o++] = 0xcd), v.setUint16(o, value), (o += 2);
      else if (value < 0x100000000) (b[o++] = 0xce), v.setUint32(o, value), (o += 4);
      else (b[o++] = 0xcf), v.setBigUint64(o, BigInt(value)), (o += 8);
    } else {
      if (value >= -32) b[o++] = value & 0xff;
      else if (value >= -0x80) (b[o++] = 0xd0), v.setInt8(o, value), (o += 1);
      else if (value >= -0x8000) (b[o++] = 0xd1), v.setInt16(o, value), (o += 2);
      else if (value >= -0x80000000) (b[o++] = 0xd2), v.setInt32(o, value), (o += 4);
      else (b[o++] = 0xd3), v.setBigInt64(o, BigInt(value)), (o += 8);
    }
    this.len = o;
  }

  /** A float 32. */
  f32(value: number): void {
    this.reserve(5);
    this.buf[this.len] = 0xca;
    this.view.setFloat32(this.len + 1, value);
    this.len += 5;
  }

  /** A float 64. */
  f64(value: number): void {
    this.reserve(9);
    this.buf[this.len] = 0xcb;
    this.view.setFloat64(this.len + 1, value);
    this.len += 9;
  }

  /** A `str`. */
  str(value: string): void {
    const n = value.length;
    if (n < 32) {
      // Short strings, most keys and values: a plain loop beats encodeInto's call cost.
      this.reserve(2 + 3 * n);
      const b = this.buf;
      const start = this.len;
      let o = start + 2;
      for (let i = 0; i < n; i++) {
        let c = value.charCodeAt(i);
        if (c < 0x80) b[o++] = c;
        else if (c < 0x800) (b[o++] = 0xc0 | (c >> 6)), (b[o++] = 0x80 | (c & 63));
        else {
          const next = value.charCodeAt(i + 1);
          if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
            c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
            i++;
            b[o++] = 0xf0 | (c >> 18);
            b[o++] = 0x80 | ((c >> 12) & 63);
          } else {
            if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate, as TextEncoder writes it
            b[o++] = 0xe0 | (c >> 12);
          }
          b[o++] = 0x80 | ((c >> 6) & 63);
          b[o++] = 0x80 | (c & 63);
        }
      }
      const size = o - start - 2;
      if (size < 32) {
        b.copyWithin(start + 1, start + 2, o);
        b[start] = 0xa0 | size;
        this.len = o - 1;
      } else {
        b[start] = 0xd9;
        b[start + 1] = size;
        this.len = o;
      }
      return;
    }
    // UTF-8 takes at most 3 bytes per UTF-16 unit; write the longest
    // header that could be needed, then shrink it to the real length.
    const max = n * 3;
    this.reserve(max + 5);
    const start = this.len;
    const head = max < 32 ? 1 : max < 0x100 ? 2 : max < 0x10000 ? 3 : 5;
    const { written } = utf8.encodeInto(value, this.buf.subarray(start + head));
    const size = written;
    const need = size < 32 ? 1 : size < 0x100 ? 2 : size < 0x10000 ? 3 : 5;
    if (need !== head) this.buf.copyWithin(start + need, start + head, start + head + size);
    const b = this.buf;
    if (need === 1) b[start] = 0xa0 | size;
    else if (need === 2) (b[start] = 0xd9), (b[start + 1] = size);
    else if (need === 3) (b[start] = 0xda), this.view.setUint16(start + 1, size);
    else (b[start] = 0xdb), this.view.setUint32(start + 1, size);
    this.len = start + need + size;
  }

  /** A `bin`. */
  bin(value: Uint8Array): void {
    const n = value.length;
    if (n < 0x100) this.byte(0xc4), this.byte(n);
    else if (n < 0x10000) this.byte(0xc5), this.u16(n);
    else this.byte(0xc6), this.u32(n);
    this.raw(value);
  }

  /** Bytes inside a `json` value: a `bin`, as Rust writes them. */
  anyBytes(value: Uint8Array): void {
    this.bin(value);
  }

  /** An array header. */
  array(n: number): void {
    if (n < 16) this.byte(0x90 | n);
    else if (n < 0x10000) this.byte(0xdc), this.u16(n);
    else this.byte(0xdd), this.u32(n);
  }

  /** Nothing: the header counted the items. */
  item(): void {}

  /** Nothing: the header counted the items. */
  arrayEnd(): void {}

  /** A map header. */
  map(n: number): void {
    if (n < 16) this.byte(0x80 | n);
    else if (n < 0x10000) this.byte(0xde), this.u16(n);
    else this.byte(0xdf), this.u32(n);
  }

  /** A map key: a `str`. */
  key(name: string): void {
    this.str(name);
  }

  /** Nothing: the header counted the entries. */
  mapEnd(): void {}

  private u16(n: number): void {
    this.reserve(2);
    this.view.setUint16(this.len, n);
    this.len += 2;
  }

  private u32(n: number): void {
    this.reserve(4);
    this.view.setUint32(this.len, n);
    this.len += 4;
  }
}

/** Writes `value`, of type `shape`, as canonical MsgPack. */
export function writeMsgpack(value: unknown, shape: Shape, table: ShapeTable, out = new MsgpackWriter()): Uint8Array {
  writeShape(out, value, shape, table);
  return out.bytes();
}
