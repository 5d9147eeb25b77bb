"""The smallest instance of a tool's inputSchema: required properties only,
the first enum value or anyOf branch, the lower bound of a range, the
shortest string (from `pattern_samples` when the schema has a pattern)."""

from __future__ import annotations

from typing import Any


def minimal_instance(schema: dict[str, Any], samples: dict[str, str], root: dict[str, Any] | None = None) -> Any:
    root = root if root is not None else schema
    if "$ref" in schema:
        ref = schema["$ref"]
        assert ref.startswith("#/$defs/"), f"unsupported $ref {ref}"
        return minimal_instance(root["$defs"][ref.removeprefix("#/$defs/")], samples, root)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    if "anyOf" in schema:
        branches = [b for b in schema["anyOf"] if b.get("type") != "null"]
        return minimal_instance(branches[0], samples, root)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next(k for k in kind if k != "null")
    if kind == "object":
        properties = schema.get("properties", {})
        return {name: minimal_instance(properties[name], samples, root) for name in schema.get("required", [])}
    if kind == "array":
        count = schema.get("minItems", 0)
        return [minimal_instance(schema.get("items", {}), samples, root) for _ in range(count)]
    if kind == "string":
        if "pattern" in schema:
            pattern = schema["pattern"]
            assert pattern in samples, f"add a sample for the pattern {pattern!r} to cases.json"
            return samples[pattern]
        if schema.get("contentEncoding") == "base64":
            return "AA==" if schema.get("minLength", 0) > 0 else ""
        return "a" * schema.get("minLength", 0)
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    if kind == "boolean":
        return False
    raise AssertionError(f"no minimal instance for {schema!r}")
