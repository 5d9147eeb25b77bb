"""The catalogue's tools as LLM providers take them, and a model's
arguments read back.

:func:`tools` returns one provider profile: ``"openai"`` (function calling
in strict mode), ``"anthropic"`` (tool use) or ``"gemini"`` (function
declarations), each the JSON array the package ships in ``profiles/``, as
``schemas/profiles/`` holds it (docs/schemas.md, "Provider profiles").

Strict mode makes a model send every property, ``null`` for one it leaves
out. :func:`arguments` drops each ``None`` that the tool's input schema
gives no other meaning, so the arguments validate into the tool's request
model with its defaults, as the server reads them.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Literal, cast

Profile = Literal["openai", "anthropic", "gemini"]

PROFILES: tuple[Profile, ...] = ("openai", "anthropic", "gemini")

Json = Any
Schema = dict[str, Any]


def tools(profile: Profile) -> list[dict[str, Any]]:
    """The tool definitions of `profile`, read afresh from the package."""
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILES)}")
    text = resources.files(__package__).joinpath("profiles", f"{profile}.json").read_text("utf-8")
    return cast("list[dict[str, Any]]", json.loads(text))


def input_schema(tool: str) -> Schema | None:
    """The MCP input schema of `tool` (the Anthropic profile holds it as it
    is), or ``None`` for a tool the catalogue does not have. Read-only: it
    is shared by every call."""
    return _input_schemas().get(tool)


@cache
def _input_schemas() -> dict[str, Schema]:
    # Read once: `arguments` runs on every call a model makes.
    return {entry["name"]: entry["input_schema"] for entry in tools("anthropic")}


def arguments(tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """`args` with each ``None`` its property does not admit left out, at
    every depth the schema describes; a copy, `args` is not changed."""
    schema = input_schema(tool)
    copy = cast("dict[str, Any]", json.loads(json.dumps(args)))
    if schema is not None:
        _object(schema, schema.get("$defs", {}), copy)
    return copy


def _resolve(schema: Schema, defs: dict[str, Json]) -> Schema | None:
    reference = schema.get("$ref")
    if not isinstance(reference, str):
        return schema
    target = _target(reference, defs)
    return target if isinstance(target, dict) else None


def _target(reference: str, defs: dict[str, Json]) -> Json:
    prefix = "#/$defs/"
    return defs.get(reference[len(prefix) :]) if reference.startswith(prefix) else None


def _admits_null(schema: Json, defs: dict[str, Json], depth: int = 0) -> bool:
    if not isinstance(schema, dict):
        return schema is True
    if not schema:
        return True
    reference = schema.get("$ref")
    if isinstance(reference, str):
        return depth < 8 and _admits_null(_target(reference, defs), defs, depth + 1)
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    return any(
        _admits_null(branch, defs, depth + 1)
        for choice in ("anyOf", "oneOf")
        for branch in schema.get(choice, [])
    )


def _object(schema: Schema, defs: dict[str, Json], value: dict[str, Json]) -> None:
    resolved = _resolve(schema, defs)
    if resolved is None:
        return
    properties = resolved.get("properties")
    if isinstance(properties, dict):
        for key in [k for k, v in value.items() if v is None]:
            if key in properties and not _admits_null(properties[key], defs):
                del value[key]
        for key, inner in value.items():
            property_schema = properties.get(key)
            if isinstance(property_schema, dict):
                _nested(property_schema, defs, inner)
    # A union's value is one of its branches: the one that names every key.
    for choice in ("anyOf", "oneOf"):
        for branch in resolved.get(choice, []):
            if not isinstance(branch, dict):
                continue
            branch = _resolve(branch, defs) or branch
            names = branch.get("properties")
            if isinstance(names, dict) and all(k in names for k in value):
                _object(branch, defs, value)
                return


def _nested(schema: Schema, defs: dict[str, Json], value: Json) -> None:
    resolved = _resolve(schema, defs)
    if resolved is None:
        return
    if isinstance(value, dict):
        _object(resolved, defs, value)
    elif isinstance(value, list):
        items = resolved.get("items")
        if isinstance(items, dict):
            for item in value:
                _nested(items, defs, item)
