// The package's entry point: the catalogue's types, schemas, registry and
// typed calls, and the TOON codec.

export * from "./types.js";
export * from "./schemas.js";
export { SHAPES } from "./shapes.js";
export * from "./registry.js";
export * from "./catalogue.js";
export * from "./metadata.js";
export * from "./toon.js";
export * from "./errors.js";
export { bytesToBase64, base64ToBytes } from "./base64.js";
export { type ToolErrorPayload, type ToolResult } from "./calls.js";
export { type ClientOptions, TOONClient, type TOONTransport, ToolCallError, httpTransport } from "./client.js";
export type { CatalogueShape, EndpointShape, FieldShape, Scalar, Shape, ShapeTable, ToolShape, TypeShape } from "./shape.js";
export { type JsonValue } from "./validate.js";
export { rleDecode, rleEncode } from "./rle.js";
export { type Profile, PROFILES, dropAbsentNulls } from "./profile.js";
export { ANTHROPIC_TOOLS, GEMINI_TOOLS, OPENAI_TOOLS, profileArguments, profileTools } from "./profiles.js";
export {
  HttpCaller,
  type HttpCallOptions,
  type SubscribeOptions,
  type ToolCaller,
  type ToolDocument,
  type ToolEventHandlers,
  type ToonSocket,
  type ToonSocketOptions,
  type WebOptions,
  connectToon,
  fetchTools,
  subscribeToolEvents,
} from "./web.js";
