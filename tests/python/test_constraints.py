"""The constraint vectors written by the Rust suite: every ``@range``,
``@length`` and ``@pattern`` a request of the reference catalogue can hold,
exactly at its bounds (accepted) and just beyond (refused), so that the
Python validators agree value for value with the Rust server."""

from __future__ import annotations

import base64
import json
from typing import Annotated, Any

import pydantic
import pytest

from conftest import VECTORS
from toolwright_catalogue import codec
from toolwright_catalogue.errors import WireError

CASES: list[dict[str, Any]] = json.loads((VECTORS / "constraints.json").read_text("utf-8"))["cases"]


def expand(recipe: dict[str, Any]) -> Any:
    if "json" in recipe:
        return recipe["json"]
    if "repeat" in recipe:
        return recipe["repeat"]["text"] * recipe["repeat"]["times"]
    if "bytes" in recipe:
        return base64.b64encode(bytes(recipe["bytes"]["count"])).decode("ascii")
    if "list" in recipe:
        return [recipe["list"]["item"]] * recipe["list"]["times"]
    return {f"k{i}": recipe["map"]["item"] for i in range(recipe["map"]["times"])}


def request_text(case: dict[str, Any]) -> str:
    """The request with the case's value in place; dicts keep their order, so the tags stay first."""
    request = json.loads(case["request"])
    slot = request
    for step in case["at"][:-1]:
        slot = slot[step]
    slot[case["at"][-1]] = expand(case["value"])
    return json.dumps(request, ensure_ascii=False)


def test_the_vectors_refuse_enough() -> None:
    assert len([c for c in CASES if not c["valid"]]) > 50


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["name"])
def test_constrained_values_are_accepted_at_their_bounds_and_refused_beyond(case: dict[str, Any]) -> None:
    text = request_text(case)
    if case["valid"]:
        codec.request_from_json(text)
        return
    with pytest.raises(WireError) as raised:
        codec.request_from_json(text)
    assert raised.value.code == "INVALID_REQUEST", raised.value
    assert case["field"] in raised.value.message, raised.value


PATTERNS: list[dict[str, Any]] = json.loads((VECTORS / "patterns.json").read_text("utf-8"))["patterns"]


@pytest.mark.parametrize("vector", PATTERNS, ids=lambda vector: vector["pattern"])
def test_the_python_translation_of_a_pattern_matches_what_ecma_262_matches(vector: dict[str, Any]) -> None:
    """What the generated models hand pydantic (its default engine, the
    ``regex`` crate) agrees with the Rust translation, which the TypeScript
    suite checks against ECMA-262 itself."""
    adapter: pydantic.TypeAdapter[str] = pydantic.TypeAdapter(
        Annotated[str, pydantic.StringConstraints(pattern=vector["python"])]
    )
    for case in vector["strings"]:
        try:
            adapter.validate_python(case["text"])
            matched = True
        except pydantic.ValidationError:
            matched = False
        assert matched == case["matches"], (vector["pattern"], case["text"])
