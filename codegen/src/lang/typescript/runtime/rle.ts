// The run-length encoding TOON compresses payloads with (both versions).
//
// The encoder walks its input; at each position it takes the run of
// identical bytes starting there, at most 255 long. A run of at least 4
// bytes, or any run of 0xFF bytes, is written as `FF <byte> <count>`; a
// shorter run is copied as it is. So 257 × `a` is `FF 61 FF 61 61`, and a
// lone `FF` is `FF FF 01`.

import { TOONError } from "./errors.js";

/** The byte that starts an encoded run. */
export const RLE_ESCAPE = 0xff;
/** The shortest run written as `FF <byte> <count>` (other than of 0xFF). */
export const RLE_MIN_RUN = 4;
/** The longest run one `FF <byte> <count>` holds. */
export const RLE_MAX_RUN = 255;

/**
 * Encodes `input` when the result is shorter than `limit` bytes; returns
 * `undefined` as soon as it would not be, so an incompressible payload
 * costs one scan and one buffer of `limit` bytes at most.
 */
export function rleEncodeShorterThan(input: Uint8Array, limit: number): Uint8Array | undefined {
  const n = input.length;
  const out = new Uint8Array(Math.max(0, Math.min(limit, 3 * n)));
  let o = 0;
  let literal = 0; // start of the bytes not written yet
  let i = 0;
  const last = n - 3; // positions below it have three bytes after them
  while (i < n) {
    const b = input[i]!;
    // Most bytes start no run: test the next three before measuring
    // (reading past the end of a typed array is slow, hence `last`).
    if (b !== RLE_ESCAPE && (i >= last || input[i + 1] !== b || input[i + 2] !== b || input[i + 3] !== b)) {
      i++;
      continue;
    }
    let end = i + 1;
    const cap = Math.min(n, i + RLE_MAX_RUN);
    while (end < cap && input[end] === b) end++;
    const run = end - i;
    if (run < RLE_MIN_RUN && b !== RLE_ESCAPE) {
      i = end;
      continue;
    }
    const pending = i - literal;
    if (o + pending + 3 >= limit) return undefined;
    if (pending > 0) {
      out.set(input.subarray(literal, i), o);
      o += pending;
    }
    out[o] = RLE_ESCAPE;
    out[o + 1] = b;
    out[o + 2] = run;
    o += 3;
    i = end;
    literal = end;
  }
  const pending = n - literal;
  if (o + pending >= limit) return undefined;
  out.set(input.subarray(literal, n), o);
  o += pending;
  return out.subarray(0, o);
}

/** Encodes `input` whatever the result's size. */
export function rleEncode(input: Uint8Array): Uint8Array {
  // Every input byte costs at most three output bytes.
  return rleEncodeShorterThan(input, 3 * input.length + 1) ?? new Uint8Array(0);
}

/**
 * Decodes `input`, refusing to produce more than `maxSize` bytes.
 *
 * @throws {TOONError} `bad_compression` for an escape without its two
 *   bytes or with a count of 0; `decompressed_too_large` before the output
 *   would pass `maxSize`.
 */
export function rleDecode(input: Uint8Array, maxSize: number): Uint8Array {
  // First pass: validate and measure, so the output is allocated once.
  const n = input.length;
  let size = 0;
  let i = 0;
  while (i < n) {
    const next = input.indexOf(RLE_ESCAPE, i);
    const stop = next === -1 ? n : next;
    size += stop - i;
    if (size > maxSize) throw tooLarge(maxSize);
    if (next === -1) break;
    if (next + 2 >= n) {
      throw new TOONError(
        "bad_compression",
        `the escape byte 0xFF at offset ${next} must be followed by a byte and a count`,
      );
    }
    const count = input[next + 2]!;
    if (count === 0) {
      throw new TOONError("bad_compression", `the run at offset ${next} has a count of 0`);
    }
    size += count;
    if (size > maxSize) throw tooLarge(maxSize);
    i = next + 3;
  }
  const out = new Uint8Array(size);
  let o = 0;
  i = 0;
  while (i < n) {
    const next = input.indexOf(RLE_ESCAPE, i);
    const stop = next === -1 ? n : next;
    out.set(input.subarray(i, stop), o);
    o += stop - i;
    if (next === -1) break;
    const count = input[next + 2]!;
    out.fill(input[next + 1]!, o, o + count);
    o += count;
    i = next + 3;
  }
  return out;
}

function tooLarge(maxSize: number): TOONError {
  return new TOONError(
    "decompressed_too_large",
    `the payload decompresses to more than the limit of ${maxSize} bytes`,
  );
}
