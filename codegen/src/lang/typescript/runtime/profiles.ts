// The catalogue's tools as LLM providers take them (docs/schemas.md,
// "Provider profiles"), and a model's arguments read back.

import { dropAbsentNulls, type Profile } from "./profile.js";
import type { JsonValue } from "./validate.js";

/** The tools as OpenAI takes them: `schemas/profiles/openai.json`. */
export const OPENAI_TOOLS: readonly JsonValue[] = [];

/** The tools as Anthropic takes them: `schemas/profiles/anthropic.json`. */
export const ANTHROPIC_TOOLS: readonly JsonValue[] = [];

/** The tools as Gemini takes them: `schemas/profiles/gemini.json`. */
export const GEMINI_TOOLS: readonly JsonValue[] = [];

/** The tool definitions of `profile`. */
export function profileTools(profile: Profile): readonly JsonValue[] {
  switch (profile) {
    case "openai":
      return OPENAI_TOOLS;
    case "anthropic":
      return ANTHROPIC_TOOLS;
    case "gemini":
      return GEMINI_TOOLS;
  }
}

/**
 * A model's arguments for `tool` as the server reads them: each `null` the
 * tool's input schema does not admit left out (OpenAI's strict mode sends one
 * for every property the model leaves out). A copy; `args` is not changed.
 */
export function profileArguments(
  tool: string,
  args: { readonly [key: string]: JsonValue },
): { [key: string]: JsonValue } {
  // The Anthropic profile carries each tool's MCP input schema as it is.
  const entry = ANTHROPIC_TOOLS.find(
    (t) => typeof t === "object" && t !== null && !Array.isArray(t) && t["name"] === tool,
  );
  const schema =
    typeof entry === "object" && entry !== null && !Array.isArray(entry)
      ? entry["input_schema"]
      : undefined;
  return dropAbsentNulls(schema, args);
}
