// TOON: an 18-byte little-endian header (`<BBIQI`: version, type,
// payloadLength, timestamp in ms, sequenceId) and a payload. Version 1
// carries UTF-8 JSON, compressed when it starts with 0x5A; version 2 carries
// MsgPack after one coding byte (0x00 plain, 0x5A compressed). Payloads over
// 1,024 bytes are RLE-compressed when that makes them shorter.

import { decode as decodeMsgpack } from "@msgpack/msgpack";

import { TOONError } from "./errors.js";
import { formatOf, writeCanonical } from "./canonical.js";
import { rleDecode, rleEncodeShorterThan } from "./rle.js";
import { type FieldShape, type ShapeTable, isRecord } from "./shape.js";
import { writeAny, writeStruct } from "./shape_writer.js";
import { readAnyJson } from "./wire_reader.js";

/** What a frame carries. */
export enum MessageType {
  /** Orchestrator → subagent: `{"instruction": str}`. */
  INSTRUCTION = 0x01,
  /** Subagent → orchestrator: `{"toolName": str, "args": {...}}`. */
  TOOL_CALL = 0x02,
  /** Orchestrator → subagent: `{"success", "toolName", "data" | "error", "duration"}`. */
  TOOL_RESULT = 0x03,
  /** Subagent → orchestrator: `{"status": str, "progress"?: number}`. */
  STATUS = 0x04,
  /** Either way: `{"code": str, "message": str}`. */
  ERROR = 0x05,
  /** Either way: `{}`. */
  HEARTBEAT = 0x06,
  /** Subagent → orchestrator: any JSON object. */
  CONTEXT_REQUEST = 0x07,
  /** Orchestrator → subagent: any JSON object. */
  CONTEXT_RESPONSE = 0x08,
}

/** Size of the fixed header, in bytes. */
export const HEADER_SIZE = 18;
/** The version the seed specification defines (JSON payloads). */
export const TOON_VERSION = 1;
/** Payloads longer than this many bytes are tried with compression. */
export const COMPRESSION_THRESHOLD = 1024;
/** The first payload byte of a compressed payload (and of nothing else in version 1). */
export const COMPRESSED_MAGIC = 0x5a;
/** The coding byte of an uncompressed version 2 payload. */
export const PLAIN_CODING = 0x00;
/** The default limit on a payload, compressed or not: 64 MiB. */
export const DEFAULT_MAX_PAYLOAD = 64 * 1024 * 1024;

/** A TOON version: 1 (JSON payloads) or 2 (MsgPack payloads). */
export type TOONVersion = 1 | 2;

/** The fixed header of every frame. */
export interface TOONHeader {
  /** Protocol version (uint8). */
  version: number;
  /** Message type (uint8). */
  type: MessageType;
  /** Length of the payload as sent, in bytes (uint32). */
  payloadLength: number;
  /**
   * Unix time in milliseconds as a number: exact up to 2^53−1 (the year
   * 287,396), the nearest double beyond. `timestampBig` holds every uint64
   * exactly.
   */
  timestamp: number;
  /** Unix time in milliseconds (uint64), exactly. */
  timestampBig: bigint;
  /** Sequence number (uint32). */
  sequenceId: number;
}

/** A frame whose payload has been decompressed but not parsed. */
export interface TOONFrame {
  /** The header. */
  header: TOONHeader;
  /** True when the payload was RLE-compressed. */
  compressed: boolean;
  /** The JSON text (version 1) or MsgPack bytes (version 2), decompressed. */
  body: Uint8Array;
  /** Bytes the frame takes in its input (header and payload). */
  size: number;
}

/** A decoded frame: its header and its parsed payload. */
export interface TOONMessage<P = unknown> {
  /** The header. */
  header: TOONHeader;
  /** The payload, parsed. */
  payload: P;
  /** True when the payload was RLE-compressed. */
  compressed: boolean;
}

/** How to encode. */
export interface EncodeOptions {
  /** 1 (JSON, the default) or 2 (MsgPack). */
  version?: TOONVersion;
  /**
   * Milliseconds since the epoch; `Date.now()` when left out. A number must
   * be a safe integer; a bigint may be any uint64.
   */
  timestamp?: number | bigint;
  /** Compress payloads over 1,024 bytes when that makes them shorter (default true). */
  compression?: boolean;
}

/** Limits a decoder enforces before it allocates. */
export interface DecodeOptions {
  /** Versions accepted (default both, 1 and 2). */
  versions?: readonly TOONVersion[];
  /** Largest `payloadLength` accepted, in bytes (default 64 MiB). */
  maxPayload?: number;
  /** Largest payload after decompression, in bytes (default `maxPayload`). */
  maxDecompressed?: number;
}

const utf8Strict = new TextDecoder("utf-8", { fatal: true });

// The payloads of the message types, for the canonical writers.
const STRING_FIELD = (name: string): FieldShape => [name, "string"];
const PAYLOADS: ShapeTable = {
  Instruction: { kind: "struct", fields: [STRING_FIELD("instruction")] },
  Status: { kind: "struct", fields: [STRING_FIELD("status"), ["progress", ["opt", "f64"]]] },
  Error: { kind: "struct", fields: [STRING_FIELD("code"), STRING_FIELD("message")] },
  ToolCall: { kind: "struct", fields: [STRING_FIELD("toolName"), ["args", "json"]] },
  ToolSuccess: {
    kind: "struct",
    fields: [["success", "bool"], STRING_FIELD("toolName"), ["data", "json"], ["duration", "u64"]],
  },
  ToolFailure: {
    kind: "struct",
    fields: [["success", "bool"], STRING_FIELD("toolName"), ["error", ["ref", "ToolError"]], ["duration", "u64"]],
  },
  ToolError: {
    kind: "struct",
    fields: [STRING_FIELD("code"), STRING_FIELD("message"), ["details", ["opt", "json"]]],
  },
};

function payloadFields(type: MessageType, payload: unknown): readonly FieldShape[] | undefined {
  const name =
    type === MessageType.INSTRUCTION
      ? "Instruction"
      : type === MessageType.STATUS
        ? "Status"
        : type === MessageType.ERROR
          ? "Error"
          : type === MessageType.TOOL_CALL
            ? "ToolCall"
            : type === MessageType.TOOL_RESULT
              ? isRecord(payload) && payload["success"] === false
                ? "ToolFailure"
                : "ToolSuccess"
              : undefined;
  const shape = name === undefined ? undefined : PAYLOADS[name];
  return shape?.kind === "struct" ? shape.fields : undefined;
}

/**
 * Writes a payload in its canonical form: the seed's keys in their order
 * for the typed message types, keys sorted for `json` values.
 */
export function writePayload(type: MessageType, payload: unknown, version: TOONVersion): Uint8Array {
  const fields = payloadFields(type, payload);
  return writeCanonical(formatOf(version), (out) => {
    if (fields !== undefined && isRecord(payload)) writeStruct(out, payload, fields, PAYLOADS);
    else writeAny(out, payload);
  });
}

/** Encodes TOON frames. */
export class TOONEncoder {
  private readonly options: EncodeOptions;

  /** @param options defaults for every frame (version 1, compression on). */
  constructor(options: EncodeOptions = {}) {
    this.options = options;
  }

  /** Encodes a frame of `type` carrying `payload` (any JSON value). */
  encode(type: MessageType, payload: unknown, sequenceId: number, options?: EncodeOptions): Uint8Array {
    const opts = { ...this.options, ...options };
    return frameBody(type, writePayload(type, payload, opts.version ?? 1), sequenceId, opts);
  }

  /**
   * Frames an already written payload: JSON text (version 1) or MsgPack
   * (version 2), compressing it when that pays.
   */
  frame(type: MessageType, body: Uint8Array, sequenceId: number, options?: EncodeOptions): Uint8Array {
    return frameBody(type, body, sequenceId, { ...this.options, ...options });
  }

  /** An `INSTRUCTION` frame. */
  static encodeInstruction(instruction: string, sequenceId: number, options?: EncodeOptions): Uint8Array {
    return new TOONEncoder(options).encode(MessageType.INSTRUCTION, { instruction }, sequenceId);
  }

  /**
   * A `TOOL_CALL` frame with untyped arguments (keys written sorted). The
   * catalogue's `encodeToolCall` writes typed requests in field order.
   */
  static encodeToolCall(
    toolName: string,
    args: Readonly<Record<string, unknown>>,
    sequenceId: number,
    options?: EncodeOptions,
  ): Uint8Array {
    return new TOONEncoder(options).encode(MessageType.TOOL_CALL, { toolName, args }, sequenceId);
  }

  /** A `STATUS` frame; `progress` runs from 0 to 1. */
  static encodeStatus(status: string, progress: number | undefined, sequenceId: number, options?: EncodeOptions): Uint8Array {
    const payload = progress === undefined ? { status } : { status, progress };
    return new TOONEncoder(options).encode(MessageType.STATUS, payload, sequenceId);
  }

  /** An `ERROR` frame. */
  static encodeError(code: string, message: string, sequenceId: number, options?: EncodeOptions): Uint8Array {
    return new TOONEncoder(options).encode(MessageType.ERROR, { code, message }, sequenceId);
  }

  /** A `HEARTBEAT` frame. */
  static encodeHeartbeat(sequenceId: number, options?: EncodeOptions): Uint8Array {
    return new TOONEncoder(options).encode(MessageType.HEARTBEAT, {}, sequenceId);
  }
}

function frameBody(type: MessageType, raw: Uint8Array, sequenceId: number, options: EncodeOptions): Uint8Array {
  const version = options.version ?? 1;
  if (version !== 1 && version !== 2) throw new RangeError(`TOON version ${String(version)} does not exist`);
  if (!Number.isInteger(sequenceId) || sequenceId < 0 || sequenceId > 0xffffffff) {
    throw new RangeError(`sequenceId ${sequenceId} is not a uint32`);
  }
  const timestamp = stampOf(options.timestamp ?? Date.now());
  if (version === 1 && raw[0] === COMPRESSED_MAGIC) {
    throw new RangeError("a version 1 payload is JSON text, which cannot start with 0x5A");
  }
  let packed: Uint8Array | undefined;
  if (options.compression !== false && raw.length > COMPRESSION_THRESHOLD) {
    // Used only when the magic byte and the encoding are shorter than the raw payload.
    packed = rleEncodeShorterThan(raw, raw.length - 1);
  }
  const prefix = packed !== undefined || version === 2 ? 1 : 0;
  const body = packed ?? raw;
  const payloadLength = prefix + body.length;
  if (payloadLength > 0xffffffff) throw new RangeError("the payload is longer than 4 GiB");
  const frame = new Uint8Array(HEADER_SIZE + payloadLength);
  const view = new DataView(frame.buffer);
  view.setUint8(0, version);
  view.setUint8(1, type);
  view.setUint32(2, payloadLength, true);
  view.setBigUint64(6, timestamp, true);
  view.setUint32(14, sequenceId, true);
  if (prefix === 1) frame[HEADER_SIZE] = packed !== undefined ? COMPRESSED_MAGIC : PLAIN_CODING;
  frame.set(body, HEADER_SIZE + prefix);
  return frame;
}

/** A timestamp as the uint64 the header holds. */
function stampOf(timestamp: number | bigint): bigint {
  if (typeof timestamp === "bigint") {
    if (timestamp < BigInt(0) || timestamp > BigInt.asUintN(64, BigInt(-1))) {
      throw new RangeError(`timestamp ${timestamp} is not a uint64 number of milliseconds`);
    }
    return timestamp;
  }
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(
      `timestamp ${timestamp} is not a whole number of milliseconds within 0..2^53−1; pass a bigint for larger ones`,
    );
  }
  return BigInt(timestamp);
}

/** Reads the header at the start of `bytes`. */
export function readHeader(bytes: Uint8Array): TOONHeader {
  if (bytes.length < HEADER_SIZE) {
    throw new TOONError(
      "truncated_header",
      `a frame starts with an ${HEADER_SIZE}-byte header; only ${bytes.length} bytes were given`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER_SIZE);
  const version = view.getUint8(0);
  if (version !== 1 && version !== 2) {
    throw new TOONError("unsupported_version", `version ${version} is not a TOON version (1 or 2)`);
  }
  const type = view.getUint8(1);
  if (type < MessageType.INSTRUCTION || type > MessageType.CONTEXT_RESPONSE) {
    throw new TOONError("unknown_type", `message type ${type} is not one of 1..8`);
  }
  const timestampBig = view.getBigUint64(6, true);
  return {
    version,
    type: type as MessageType,
    payloadLength: view.getUint32(2, true),
    timestamp: Number(timestampBig),
    timestampBig,
    sequenceId: view.getUint32(14, true),
  };
}

/** Decodes TOON frames, checking every length against its limits before allocating. */
export class TOONDecoder {
  private readonly versions: readonly TOONVersion[];
  private readonly maxPayload: number;
  private readonly maxDecompressed: number;

  /** @param options accepted versions and size limits. */
  constructor(options: DecodeOptions = {}) {
    this.versions = options.versions ?? [1, 2];
    this.maxPayload = options.maxPayload ?? DEFAULT_MAX_PAYLOAD;
    this.maxDecompressed = options.maxDecompressed ?? this.maxPayload;
  }

  /**
   * Reads the frame at the start of `bytes`: its header and its payload,
   * decompressed. Bytes after the frame are not looked at.
   *
   * @throws {TOONError} any kind but `invalid_payload` (except for a version 2
   *   payload without a known coding byte).
   */
  decodeFrame(bytes: Uint8Array): TOONFrame {
    const header = readHeader(bytes);
    if (!this.versions.includes(header.version as TOONVersion)) {
      throw new TOONError(
        "unsupported_version",
        `version ${header.version} frames are not accepted here (accepted: ${this.versions.join(", ") || "none"})`,
      );
    }
    if (header.payloadLength > this.maxPayload) {
      throw new TOONError(
        "payload_too_large",
        `the header announces a payload of ${header.payloadLength} bytes; the limit is ${this.maxPayload} bytes`,
      );
    }
    const available = bytes.length - HEADER_SIZE;
    if (available < header.payloadLength) {
      throw new TOONError(
        "truncated_payload",
        `the header announces a payload of ${header.payloadLength} bytes; only ${available} follow it`,
      );
    }
    const payload = bytes.subarray(HEADER_SIZE, HEADER_SIZE + header.payloadLength);
    let compressed: boolean;
    let data: Uint8Array;
    if (header.version === 1) {
      compressed = payload[0] === COMPRESSED_MAGIC;
      data = compressed ? payload.subarray(1) : payload;
    } else {
      const coding = payload[0];
      if (coding === undefined) {
        throw new TOONError("invalid_payload", "a version 2 payload starts with a coding byte; this one is empty");
      }
      if (coding !== PLAIN_CODING && coding !== COMPRESSED_MAGIC) {
        throw new TOONError(
          "invalid_payload",
          `a version 2 payload starts with the coding byte 0x00 or 0x5a, not 0x${coding.toString(16).padStart(2, "0")}`,
        );
      }
      compressed = coding === COMPRESSED_MAGIC;
      data = payload.subarray(1);
    }
    const body = compressed ? rleDecode(data, this.maxDecompressed) : data;
    return { header, compressed, body, size: HEADER_SIZE + header.payloadLength };
  }

  /**
   * Decodes the frame at the start of `bytes` and parses its payload (JSON
   * in version 1, MsgPack in version 2).
   *
   * @throws {TOONError} with the kind of the first problem found.
   */
  decode(bytes: Uint8Array): TOONMessage {
    const frame = this.decodeFrame(bytes);
    return { header: frame.header, compressed: frame.compressed, payload: parseBody(frame) };
  }

  /** True when `bytes` starts with a frame this decoder accepts (header, lengths, compression). */
  validate(bytes: Uint8Array): boolean {
    try {
      this.decodeFrame(bytes);
      return true;
    } catch (error) {
      if (error instanceof TOONError) return false;
      throw error;
    }
  }
}

/**
 * Parses a frame's payload: JSON text (version 1) or MsgPack (version 2).
 * 64-bit integers beyond ±(2^53−1) are refused rather than rounded.
 *
 * @throws {TOONError} `invalid_payload`.
 */
export function parseBody(frame: TOONFrame): unknown {
  try {
    if (frame.header.version === 1) return JSON.parse(utf8Strict.decode(frame.body));
    return readAnyJson(decodeMsgpack(frame.body, { useBigInt64: true }));
  } catch (error) {
    if (error instanceof TOONError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    const what = frame.header.version === 1 ? "JSON text" : "MsgPack";
    throw new TOONError("invalid_payload", `the payload is not valid ${what}: ${reason}`, { cause: error });
  }
}
