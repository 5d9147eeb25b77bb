// The provider profiles the package ships, and a model's strict-mode
// arguments read back into typed requests.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  ANTHROPIC_TOOLS,
  GEMINI_TOOLS,
  OPENAI_TOOLS,
  PROFILES,
  RegionSpecSchema,
  TOOLS,
  type JsonValue,
  profileArguments,
  profileTools,
} from "../../generated/typescript/src/index.js";

function field(value: JsonValue | undefined, key: string): JsonValue | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value[key] : undefined;
}

describe("provider profiles", () => {
  it("list every tool of the catalogue, in order", () => {
    const names = TOOLS.map((t) => t.name);
    assert.deepEqual(OPENAI_TOOLS.map((t) => field(field(t, "function"), "name")), names);
    assert.deepEqual(ANTHROPIC_TOOLS.map((t) => field(t, "name")), names);
    assert.deepEqual(GEMINI_TOOLS.map((t) => field(t, "name")), names);
    assert.deepEqual(PROFILES, ["openai", "anthropic", "gemini"]);
    assert.equal(profileTools("gemini"), GEMINI_TOOLS);
  });

  it("read a strict-mode null as the property left out", () => {
    const sent = { start_beat: 0, length_beats: 4, behavior: null, content_id: "a", name: null, unknown: null };
    const args = profileArguments("garden_create_region", sent);
    assert.deepEqual(args, { start_beat: 0, length_beats: 4, content_id: "a", unknown: null });
    assert.equal(sent.behavior, null, "the input is not changed");
    const { unknown: _, ...known } = args;
    const request = RegionSpecSchema.parse(known);
    assert.equal(request.behavior, "play_content");
    // As sent, the null is refused: the field takes one of its values.
    assert.equal(RegionSpecSchema.safeParse({ ...known, behavior: null }).success, false);
    assert.deepEqual(profileArguments("no_such_tool", { a: null }), { a: null });
  });
});
