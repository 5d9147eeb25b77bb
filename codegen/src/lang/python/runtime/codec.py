"""Typed reading and writing: ``ToolRequest`` and ``ToolResponse`` as JSON
and MsgPack, and the TOON frames that carry them (``TOOL_CALL``,
``TOOL_RESULT``).

Every reader validates what it reads (types, widths, ranges, lengths,
patterns, unknown keys of request structs) and fills in defaults; bad input
raises ``WireError`` (requests and responses) or ``TOONError`` (frames),
never a bare exception.
"""

import difflib
import json
from dataclasses import dataclass
from typing import Any, Final, cast

import msgpack
import pydantic

from . import toon
from ._canonical import Body, json_text, msgpack_bytes
from ._wire import ToolCall, ToolError, ToolResult, _Envelope
from .errors import ErrorKind, TOONError, WireError
from .tools import ACTION_TOOLS, CALLS, RESULTS, ToolRequest, ToolResponse

INVALID_REQUEST: Final = "INVALID_REQUEST"
"""Malformed bytes or fields in a request."""
INVALID_RESPONSE: Final = "INVALID_RESPONSE"
"""Malformed bytes or fields in a response."""
UNKNOWN_TOOL: Final = "UNKNOWN_TOOL"
"""No tool has this name."""
UNKNOWN_ACTION: Final = "UNKNOWN_ACTION"
"""The tool has no such action."""

Pairs = list[tuple[str, Any]]


class _PairIndex:
    """Parses JSON or MsgPack keeping, for every object, its key-value pairs
    in order (duplicates included): a request's tag must come first, and a
    field may share its name with the tag (``job_list``'s ``tool``)."""

    def __init__(self) -> None:
        self.pairs: dict[int, Pairs] = {}

    def hook(self, pairs: Pairs) -> dict[str, Any]:
        obj = dict(pairs)
        self.pairs[id(obj)] = pairs
        return obj

    def of(self, obj: Any) -> Pairs | None:
        return self.pairs.get(id(obj)) if isinstance(obj, dict) else None


def _parse(data: str | bytes, msgpack_format: bool, code: str) -> tuple[Any, _PairIndex]:
    index = _PairIndex()
    try:
        if msgpack_format:
            value = msgpack.unpackb(
                data, raw=False, strict_map_key=True, object_pairs_hook=index.hook
            )
        else:
            value = json.loads(data, object_pairs_hook=index.hook)
    except (ValueError, TypeError, RecursionError, msgpack.ExtraData) as e:
        kind = "MsgPack" if msgpack_format else "JSON"
        # msgpack's errors may have no text (nesting too deep): name them.
        raise WireError(code, f"invalid {kind}: {str(e) or type(e).__name__}") from None
    return value, index


def _from_pairs(
    pairs: Pairs | None, table: dict[str, type[ToolCall]] | dict[str, type[ToolResult]], code: str
) -> _Envelope:
    what = "request" if code == INVALID_REQUEST else "response"
    if not pairs or pairs[0][0] != "tool":
        raise WireError(code, f"a {what} is a map whose first key is `tool`")
    tool = pairs[0][1]
    if not isinstance(tool, str):
        raise WireError(code, f"the `tool` of a {what} is a string")
    rest = pairs[1:]
    if tool in ACTION_TOOLS:
        if not rest or rest[0][0] != "action" or not isinstance(rest[0][1], str):
            raise WireError(code, f"the second key of a `{tool}` {what} is `action`, a string")
        action = rest[0][1]
        key = f"{tool}.{action}"
        rest = rest[1:]
        if key not in table:
            actions = [k.split(".", 1)[1] for k in table if k.startswith(f"{tool}.")]
            hint = _did_you_mean(str(action), actions)
            raise WireError(UNKNOWN_ACTION, f"tool `{tool}` has no action `{action}`{hint}")
    else:
        key = tool
        if key not in table:
            hint = _did_you_mean(tool, [k for k in table if "." not in k] + sorted(ACTION_TOOLS))
            raise WireError(UNKNOWN_TOOL, f"no tool is named `{tool}`{hint}")
    cls = table[key]
    fields = dict(rest)
    if len(fields) != len(rest):
        seen: set[str] = set()
        dup = next(k for k, _ in rest if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise WireError(code, f"duplicate field `{dup}`")
    try:
        if cls.__body__ in cls.model_fields:
            return cls.model_validate({cls.__body__: fields})
        if fields:
            names = ", ".join(f"`{k}`" for k in fields)
            raise WireError(code, f"tool `{tool}` takes no fields; found {names}")
        return cls.model_validate({})
    except pydantic.ValidationError as e:
        raise WireError(code, _describe(e)) from None


def _did_you_mean(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1)
    return f"; did you mean `{close[0]}`?" if close else ""


def _describe(error: pydantic.ValidationError) -> str:
    parts = []
    for item in error.errors(include_url=False):
        where = ".".join(str(p) for p in item["loc"][1:])
        parts.append(f"{where or 'value'}: {item['msg']}")
    return "; ".join(parts)


# ---------------------------------------------------------------------------
# Requests and responses.
# ---------------------------------------------------------------------------


def request_to_json(request: ToolRequest) -> str:
    """The canonical JSON text of a request: ``{"tool": name, ...fields}``."""
    return json_text(request)


def request_to_msgpack(request: ToolRequest) -> bytes:
    """The canonical MsgPack of a request."""
    return msgpack_bytes(request)


def request_from_json(data: str | bytes) -> ToolRequest:
    """Reads and validates a request from JSON. Raises ``WireError``."""
    value, index = _parse(data, False, INVALID_REQUEST)
    return cast(ToolRequest, _from_pairs(index.of(value), CALLS, INVALID_REQUEST))


def request_from_msgpack(data: bytes) -> ToolRequest:
    """Reads and validates a request from MsgPack. Raises ``WireError``."""
    value, index = _parse(data, True, INVALID_REQUEST)
    return cast(ToolRequest, _from_pairs(index.of(value), CALLS, INVALID_REQUEST))


def response_to_json(response: ToolResponse) -> str:
    """The canonical JSON text of a response: ``{"tool": name, ...fields}``."""
    return json_text(response)


def response_to_msgpack(response: ToolResponse) -> bytes:
    """The canonical MsgPack of a response."""
    return msgpack_bytes(response)


def response_from_json(data: str | bytes) -> ToolResponse:
    """Reads and validates a response from JSON. Raises ``WireError``."""
    value, index = _parse(data, False, INVALID_RESPONSE)
    return cast(ToolResponse, _from_pairs(index.of(value), RESULTS, INVALID_RESPONSE))


def response_from_msgpack(data: bytes) -> ToolResponse:
    """Reads and validates a response from MsgPack. Raises ``WireError``."""
    value, index = _parse(data, True, INVALID_RESPONSE)
    return cast(ToolResponse, _from_pairs(index.of(value), RESULTS, INVALID_RESPONSE))


# ---------------------------------------------------------------------------
# TOON frames.
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CallMessage:
    """A decoded ``TOOL_CALL`` frame."""

    header: toon.Header
    """The frame's header."""
    request: ToolRequest
    """The call, validated."""
    compressed: bool
    """True when the payload was compressed."""


@dataclass(frozen=True)
class ResultMessage:
    """A decoded ``TOOL_RESULT`` frame."""

    header: toon.Header
    """The frame's header."""
    tool: str
    """The tool that ran (``toolName``)."""
    outcome: ToolResponse | ToolError
    """The response, validated, or why the call failed."""
    duration_ms: int
    """How long the call took, in milliseconds (``duration``)."""
    compressed: bool
    """True when the payload was compressed."""


def encode_tool_call(
    request: ToolRequest,
    *,
    version: int = toon.TOON_VERSION,
    sequence_id: int = 0,
    timestamp: int | None = None,
    compress: bool = True,
) -> bytes:
    """A ``TOOL_CALL`` frame: ``{"toolName": name, "args": {...fields}}``
    (``args`` starts with ``action`` for an action tool)."""
    payload = {"toolName": request.__tool__, "args": Body(request)}
    return toon.encode(
        toon.MessageType.TOOL_CALL,
        payload,
        sequence_id,
        version=version,
        timestamp=timestamp,
        compress=compress,
    )


def encode_tool_result(
    outcome: ToolResponse | ToolError,
    *,
    duration_ms: int,
    tool: str | None = None,
    version: int = toon.TOON_VERSION,
    sequence_id: int = 0,
    timestamp: int | None = None,
    compress: bool = True,
) -> bytes:
    """A ``TOOL_RESULT`` frame: ``{"success": true, "toolName", "data",
    "duration"}`` for a response, ``{"success": false, "toolName", "error",
    "duration"}`` for a ``ToolError`` (then ``tool`` names the tool)."""
    if isinstance(outcome, ToolError):
        if tool is None:
            raise ValueError("a failed result names its tool: pass `tool=`")
        payload: dict[str, Any] = {
            "success": False,
            "toolName": tool,
            "error": outcome,
            "duration": duration_ms,
        }
    else:
        if tool is not None and tool != outcome.__tool__:
            raise ValueError(
                f"the result is of tool `{tool}` but its response is of tool `{outcome.__tool__}`"
            )
        payload = {
            "success": True,
            "toolName": outcome.__tool__,
            "data": Body(outcome),
            "duration": duration_ms,
        }
    return toon.encode(
        toon.MessageType.TOOL_RESULT,
        payload,
        sequence_id,
        version=version,
        timestamp=timestamp,
        compress=compress,
    )


def _payload(
    buffer: bytes, expected: toon.MessageType, limits: dict[str, Any]
) -> tuple[toon.Frame, Any, _PairIndex]:
    frame = toon.decode_frame(buffer, **limits)
    header = frame["header"]
    if header["type"] != expected:
        raise TOONError(
            ErrorKind.INVALID_PAYLOAD,
            f"expected a {expected.name} frame, found a {header['type'].name} frame",
        )
    msgpack_format = header["version"] != toon.TOON_VERSION
    try:
        value, index = _parse(frame["payload"], msgpack_format, INVALID_REQUEST)
    except WireError as e:
        raise TOONError(ErrorKind.INVALID_PAYLOAD, e.message) from None
    toon.check_payload(expected, value)
    return frame, value, index


def decode_tool_call(
    buffer: bytes,
    *,
    max_payload: int = toon.DEFAULT_MAX_PAYLOAD,
    versions: tuple[int, ...] = toon.VERSIONS,
    max_decompressed: int | None = None,
) -> CallMessage:
    """Reads a ``TOOL_CALL`` frame into a validated ``ToolRequest``.
    Raises ``TOONError`` (``invalid_payload`` for a frame of another type
    or a call that does not validate)."""
    limits = {
        "max_payload": max_payload,
        "versions": versions,
        "max_decompressed": max_decompressed,
    }
    frame, value, index = _payload(buffer, toon.MessageType.TOOL_CALL, limits)
    pairs = [("tool", value["toolName"]), *(index.of(value["args"]) or [])]
    try:
        request = cast(ToolRequest, _from_pairs(pairs, CALLS, INVALID_REQUEST))
    except WireError as e:
        raise TOONError(ErrorKind.INVALID_PAYLOAD, f"{e.code}: {e.message}") from None
    return CallMessage(header=frame["header"], request=request, compressed=frame["compressed"])


def decode_tool_result(
    buffer: bytes,
    *,
    max_payload: int = toon.DEFAULT_MAX_PAYLOAD,
    versions: tuple[int, ...] = toon.VERSIONS,
    max_decompressed: int | None = None,
) -> ResultMessage:
    """Reads a ``TOOL_RESULT`` frame into a validated ``ToolResponse`` or
    ``ToolError``. Raises ``TOONError``."""
    limits = {
        "max_payload": max_payload,
        "versions": versions,
        "max_decompressed": max_decompressed,
    }
    frame, value, index = _payload(buffer, toon.MessageType.TOOL_RESULT, limits)
    tool = value["toolName"]
    outcome: ToolResponse | ToolError
    try:
        if value["success"]:
            pairs = [("tool", tool), *(index.of(value["data"]) or [])]
            outcome = cast(ToolResponse, _from_pairs(pairs, RESULTS, INVALID_RESPONSE))
        else:
            outcome = ToolError.model_validate(value["error"])
    except WireError as e:
        raise TOONError(ErrorKind.INVALID_PAYLOAD, f"{e.code}: {e.message}") from None
    except pydantic.ValidationError as e:
        raise TOONError(ErrorKind.INVALID_PAYLOAD, f"the error: {_describe(e)}") from None
    return ResultMessage(
        header=frame["header"],
        tool=tool,
        outcome=outcome,
        duration_ms=value["duration"],
        compressed=frame["compressed"],
    )
