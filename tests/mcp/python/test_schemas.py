"""Every JSON Schema the generator writes under generated/schemas/ is valid
against the 2020-12 meta-schema: each schema file, the inputSchema and
outputSchema of every tool in a tools list (tools.json), and the schemas of
the OpenAI and Anthropic profiles (profiles/openai.json's `parameters`,
profiles/anthropic.json's `input_schema`). profiles/gemini.json holds
Gemini's OpenAPI 3.0 schema subset, not JSON Schema; codegen/tests/
profiles.rs checks it against Gemini's rules. Until the generator has
written that folder there is nothing to check; once it exists it must hold
schemas."""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from conftest import ROOT

SCHEMA_DIR = ROOT / "generated" / "schemas"


def schemas_in(document: Any) -> list[tuple[str, Any]]:
    """The schemas of a file: the file itself, or for a tools list the
    inputSchema and outputSchema of each tool."""
    if isinstance(document, list):
        found = []
        for tool in document:
            if isinstance(tool, dict) and tool.get("type") == "function":
                function = tool["function"]
                found.append((f" {function['name']}.parameters", function["parameters"]))
                continue
            if isinstance(tool, dict) and "input_schema" in tool:
                found.append((f" {tool['name']}.input_schema", tool["input_schema"]))
                continue
            assert isinstance(tool, dict) and "name" in tool and "inputSchema" in tool, f"not a tool: {tool!r:.200}"
            for key in ("inputSchema", "outputSchema"):
                if key in tool:
                    found.append((f" {tool['name']}.{key}", tool[key]))
        return found
    return [("", document)]


def test_generated_schemas_are_valid_2020_12() -> None:
    if not SCHEMA_DIR.exists():
        return
    paths = sorted(p for p in SCHEMA_DIR.rglob("*.json") if p.name != "gemini.json")
    assert paths, f"{SCHEMA_DIR} exists but holds no .json file"
    invalid = []
    for path in paths:
        document = json.loads(path.read_text())
        for where, schema in schemas_in(document):
            try:
                Draft202012Validator.check_schema(schema)
            except SchemaError as error:
                invalid.append(f"{path.relative_to(ROOT)}{where}: {error.message}")
    assert not invalid, "\n".join(invalid)
