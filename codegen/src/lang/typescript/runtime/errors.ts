// The typed errors of the codec and the client.

/**
 * Why a TOON frame could not be read. The same kinds are used by every
 * Toolwright implementation (Rust, TypeScript, Python).
 */
export type TOONErrorKind =
  | "truncated_header"
  | "unsupported_version"
  | "unknown_type"
  | "truncated_payload"
  | "payload_too_large"
  | "bad_compression"
  | "decompressed_too_large"
  | "invalid_payload";

/** Every {@link TOONErrorKind}, for iteration. */
export const TOON_ERROR_KINDS: readonly TOONErrorKind[] = [
  "truncated_header",
  "unsupported_version",
  "unknown_type",
  "truncated_payload",
  "payload_too_large",
  "bad_compression",
  "decompressed_too_large",
  "invalid_payload",
];

/** A frame or payload that could not be decoded (or a value that cannot be encoded). */
export class TOONError extends Error {
  /** The machine-readable reason. */
  readonly kind: TOONErrorKind;

  /** @param kind the reason; @param message what exactly was wrong, for people. */
  constructor(kind: TOONErrorKind, message: string, options?: { cause?: unknown }) {
    super(`${kind}: ${message}`, options);
    this.name = "TOONError";
    this.kind = kind;
  }
}

/** A value that does not fit its declared type. `path` names the field. */
export class ValidationError extends Error {
  /** Where in the value the problem is: `["items", 3, "name"]`. */
  readonly path: readonly (string | number)[];

  /** @param path where; @param message what. */
  constructor(path: readonly (string | number)[], message: string) {
    super(path.length === 0 ? message : `${path.join(".")}: ${message}`);
    this.name = "ValidationError";
    this.path = path;
  }
}
