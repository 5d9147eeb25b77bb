// Shared helpers of the TypeScript test suite.

import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The repository root (the run script sets it). */
export const ROOT = process.env["TOOLWRIGHT_ROOT"] ?? process.cwd();

/** Reads a JSON file under the repository root. */
export function readJson(...path: string[]): unknown {
  return JSON.parse(readFileSync(join(ROOT, ...path), "utf8"));
}

/** Lowercase hex of bytes. */
export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("hex");
}

/** Bytes of lowercase hex (spaces allowed). */
export function unhex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text.replace(/\s+/g, ""), "hex"));
}

/** A header built by hand: version, type, payloadLength, timestamp, sequenceId (little-endian). */
export function header(version: number, type: number, payloadLength: number, timestamp: number, sequenceId: number): Uint8Array {
  const out = new Uint8Array(18);
  const view = new DataView(out.buffer);
  view.setUint8(0, version);
  view.setUint8(1, type);
  view.setUint32(2, payloadLength, true);
  view.setBigUint64(6, BigInt(timestamp), true);
  view.setUint32(14, sequenceId, true);
  return out;
}

/** Concatenates byte arrays. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
