// The constraint vectors written by the Rust suite: every `@range`,
// `@length` and `@pattern` a request of the reference catalogue can hold,
// exactly at its bounds (accepted) and just beyond (refused), so that the
// TypeScript validators agree value for value with the Rust server.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { ValidationError, requestFromJson } from "../../generated/typescript/src/index.js";
import { readJson } from "./support.js";

type Recipe =
  | { json: unknown }
  | { repeat: { text: string; times: number } }
  | { bytes: { count: number } }
  | { list: { item: unknown; times: number } }
  | { map: { item: unknown; times: number } };

interface ConstraintCase {
  name: string;
  request: string;
  at: (string | number)[];
  value: Recipe;
  valid: boolean;
  field: string;
  constraint: "range" | "length" | "pattern";
}

const vectors = readJson("tests", "vectors", "constraints.json") as { format: number; cases: ConstraintCase[] };

function expand(recipe: Recipe): unknown {
  if ("json" in recipe) return recipe.json;
  if ("repeat" in recipe) return recipe.repeat.text.repeat(recipe.repeat.times);
  if ("bytes" in recipe) return Buffer.alloc(recipe.bytes.count).toString("base64");
  if ("list" in recipe) return Array.from({ length: recipe.list.times }, () => recipe.list.item);
  return Object.fromEntries(Array.from({ length: recipe.map.times }, (_, i) => [`k${i}`, recipe.map.item]));
}

/** The request's JSON text with the case's value in place (key order kept: the tags stay first). */
function requestText(c: ConstraintCase): string {
  const request = JSON.parse(c.request) as Record<string, unknown>;
  let slot: Record<string | number, unknown> = request;
  for (const step of c.at.slice(0, -1)) slot = slot[step] as Record<string | number, unknown>;
  slot[c.at[c.at.length - 1]!] = expand(c.value);
  return JSON.stringify(request);
}

describe("constraint vectors", () => {
  it("are there", () => {
    assert.equal(vectors.format, 1);
    assert.ok(vectors.cases.filter((c) => !c.valid).length > 50);
  });

  for (const c of vectors.cases) {
    it(c.name, () => {
      const text = requestText(c);
      if (c.valid) {
        requestFromJson(text);
        return;
      }
      assert.throws(
        () => requestFromJson(text),
        (e: unknown) => {
          assert.ok(e instanceof ValidationError, String(e));
          assert.ok(e.message.includes(c.field), `${c.name}: the error does not name ${c.field}: ${e.message}`);
          return true;
        },
      );
    });
  }
});

interface PatternVector {
  pattern: string;
  strings: { text: string; matches: boolean }[];
}

// Patterns where engines read `\d \w \s . \b $` differently: the Rust
// translation's verdicts (in the file) must be ECMA-262's own, which is what
// JSON Schema validators and these bindings run.
const patterns = readJson("tests", "vectors", "patterns.json") as { format: number; patterns: PatternVector[] };

describe("pattern vectors: Rust's translation matches what ECMA-262 matches", () => {
  for (const p of patterns.patterns) {
    it(p.pattern, () => {
      const re = new RegExp(p.pattern, "u");
      for (const { text, matches } of p.strings) {
        assert.equal(re.test(text), matches, `${p.pattern} on ${JSON.stringify(text)}`);
      }
    });
  }
});
