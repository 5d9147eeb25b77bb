// A TOON payload in the encoding of its frame's version: the caller says
// what to write once, to a `ShapeSink`, and gets JSON text (version 1) or
// MsgPack (version 2) of it.

import { JsonWriter } from "./json_writer.js";
import { MsgpackWriter } from "./msgpack_writer.js";
import type { ShapeSink } from "./shape_writer.js";
import type { WireFormat } from "./wire_reader.js";

const utf8 = new TextEncoder();

/** The encoding of a payload in frames of `version`: JSON in 1, MsgPack in 2. */
export function formatOf(version: number): WireFormat {
  return version === 1 ? "json" : "msgpack";
}

/** The bytes of what `write` writes, as canonical JSON or MsgPack. */
export function writeCanonical(format: WireFormat, write: (out: ShapeSink) => void): Uint8Array {
  if (format === "json") {
    const out = new JsonWriter();
    write(out);
    return utf8.encode(out.text());
  }
  const out = new MsgpackWriter();
  write(out);
  return out.bytes();
}
