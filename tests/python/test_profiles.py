"""The provider profiles the package ships, and a model's strict-mode
arguments read back into typed requests."""

import pydantic
import pytest

from toolwright_catalogue import profiles, registry, tools
from toolwright_catalogue.tools import ToolRequest

ADAPTER: pydantic.TypeAdapter[ToolRequest] = pydantic.TypeAdapter(ToolRequest)


def test_every_profile_lists_every_tool() -> None:
    names = [t.name for t in registry.TOOLS]
    assert [t["function"]["name"] for t in profiles.tools("openai")] == names
    assert [t["name"] for t in profiles.tools("anthropic")] == names
    assert [t["name"] for t in profiles.tools("gemini")] == names
    with pytest.raises(ValueError):
        profiles.tools("mistral")  # type: ignore[arg-type]


def test_strict_mode_nulls_read_as_absent() -> None:
    strict = profiles.arguments("cas_store", {"data": "aGVsbG8=", "mime_type": None})
    assert strict == {"data": "aGVsbG8="}
    call = ADAPTER.validate_python({"tool": "cas_store", **strict})
    assert isinstance(call, tools.CasStoreCall)
    assert call.args.mime_type == "application/octet-stream"
    # As sent, the null is refused: the field takes a string.
    with pytest.raises(pydantic.ValidationError):
        ADAPTER.validate_python({"tool": "cas_store", "data": "aGVsbG8=", "mime_type": None})


def test_a_null_the_schema_admits_is_kept_and_the_input_is_not_changed() -> None:
    sent = {"data": "aGVsbG8=", "mime_type": None, "unknown": None}
    assert profiles.arguments("cas_store", sent) == {"data": "aGVsbG8=", "unknown": None}
    assert sent["mime_type"] is None
    assert profiles.arguments("no_such_tool", {"a": None}) == {"a": None}
    assert profiles.input_schema("no_such_tool") is None


def test_a_defaulted_enum_left_out_takes_its_default() -> None:
    strict = profiles.arguments(
        "garden_create_region",
        {"start_beat": 0.0, "length_beats": 4.0, "behavior": None, "content_id": "a", "name": None},
    )
    assert "behavior" not in strict and "name" not in strict
    call = ADAPTER.validate_python({"tool": "garden_create_region", **strict})
    assert isinstance(call, tools.GardenCreateRegionCall)
    assert call.args.behavior.value == "play_content"
