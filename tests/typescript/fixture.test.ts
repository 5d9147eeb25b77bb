// The fixture catalogue (tests/typescript/fixtures/names.tool): fields,
// variants, actions and types named after reserved words keep their wire
// names and round-trip.

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import {
  type Keywords,
  KeywordErrorCodes,
  Promise_Schema,
  decodeToolCall,
  encodeToolCall,
  requestFromJson,
  requestToJson,
} from "./fixture-out/typescript/src/index.js";

const keywords: Keywords = {
  type: "t",
  from: 1,
  class: "function",
  default: true,
  async: 2,
  delete: ["x"],
  function: { b: 2, a: 1 },
  await: new Uint8Array([1, 2, 3]),
  new: 0.5,
  in: -2,
  self: "me",
  none: "n",
};

describe("reserved words as names", () => {
  it("keeps wire names, in declaration order", () => {
    const json = requestToJson({ tool: "keyword_tool", args: { type: "x", from: keywords, function: { void: {} } } });
    assert.equal(
      json,
      '{"tool":"keyword_tool","type":"x","from":{"type":"t","from":1,"class":"function","default":true,"async":2.0,' +
        '"delete":["x"],"function":{"a":1,"b":2},"await":"AQID","new":0.5,"in":-2,"self":"me","none":"n"},"function":{"void":{}}}',
    );
    assert.deepEqual(requestFromJson(json), requestFromJson(requestToJson(requestFromJson(json))));
  });

  it("round-trips through TOON in both versions, with defaults", () => {
    for (const version of [1, 2] as const) {
      const request = { tool: "keyword_tool" as const, args: { type: "y", from: { type: "t", from: 0, async: 1, delete: [] } } };
      const decoded = decodeToolCall(encodeToolCall(request, 1, { version })).request;
      assert.deepEqual(decoded, {
        tool: "keyword_tool",
        args: { type: "y", from: { type: "t", from: 0, class: "default", default: false, async: 1, delete: [], new: 1, in: -1 } },
      });
      const action = decodeToolCall(encodeToolCall({ tool: "keyword_actions", action: "delete", args: { class: "c" } }, 2, { version }));
      assert.deepEqual(action.request, { tool: "keyword_actions", action: "delete", args: { class: "c" } });
    }
  });

  it("escapes type names that would shadow globals, and keeps error codes", () => {
    assert.equal(Promise_Schema.safeParse({ then: "x" }).success, true);
    assert.deepEqual(KeywordErrorCodes, { class: "CLASS", delete: "DELETE" });
  });
});
