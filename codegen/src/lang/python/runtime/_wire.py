"""Building blocks of the generated models: scalar types with the IDL's
widths, base classes that fix how unknown keys are treated, externally
tagged unions, and the envelopes of tool calls and results.

The generated modules import this one as ``wire``; nothing here is specific
to a catalogue.
"""

import base64
import binascii
import math
import struct
from collections.abc import Callable
from typing import Annotated, Any, ClassVar, Final

import pydantic

OPTIONAL: Final = 1
"""Layout flag: the field is ``T?``; writers leave it out when it is None."""
SINGLE: Final = 2
"""Layout flag: floats in the field are ``f32`` (float 32 in MsgPack, f32
precision in JSON)."""

Layout = tuple[tuple[str, str, int], ...]
"""A model's fields in declaration order: (attribute, wire name, flags)."""


def _bytes_in(value: Any) -> Any:
    # JSON carries bytes as standard base64; some MsgPack writers send an
    # array of integers instead of bin.
    if isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError) as e:
            raise ValueError(f"bytes are written as standard base64 in JSON: {e}") from None
    if isinstance(value, list):
        if all(type(b) is int and 0 <= b <= 255 for b in value):
            return bytes(value)
        raise ValueError("bytes written as an array hold integers from 0 to 255")
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    return value


def _bytes_out(value: bytes) -> str:
    return base64.b64encode(value).decode("ascii")


_FLOAT32: Final = struct.Struct("<f")
_F32_MAX: Final = 3.4028234663852886e38
_F32_OVERFLOW: Final = 3.4028235677973366e38


def to_f32(value: float) -> float:
    """``value`` rounded to the nearest ``f32``; ``ValueError`` beyond its
    range."""
    if math.isnan(value) or math.isinf(value):
        return value
    try:
        rounded: float = _FLOAT32.unpack(_FLOAT32.pack(value))[0]
    except OverflowError:
        # `struct` refuses values just above the largest f32 that still
        # round to it; beyond the halfway point to 2**128 they do not.
        if abs(value) < _F32_OVERFLOW:
            return math.copysign(_F32_MAX, value)
        raise ValueError(f"{value} is outside the range of f32") from None
    return rounded


def _int(name: str, low: int, high: int) -> Any:
    # A validator rather than `ge`/`le`: those would merge with (and be
    # overridden by) a field's own `@range`.
    def check(value: int) -> int:
        if not low <= value <= high:
            raise ValueError(f"{value} does not fit {name} ({low} to {high})")
        return value

    return pydantic.AfterValidator(check)


Bool = Annotated[bool, pydantic.Strict()]
"""IDL ``bool``."""
I8 = Annotated[int, pydantic.Strict(), _int("i8", -(2**7), 2**7 - 1)]
"""IDL ``i8``."""
I16 = Annotated[int, pydantic.Strict(), _int("i16", -(2**15), 2**15 - 1)]
"""IDL ``i16``."""
I32 = Annotated[int, pydantic.Strict(), _int("i32", -(2**31), 2**31 - 1)]
"""IDL ``i32``."""
I64 = Annotated[int, pydantic.Strict(), _int("i64", -(2**63), 2**63 - 1)]
"""IDL ``i64``."""
U8 = Annotated[int, pydantic.Strict(), _int("u8", 0, 2**8 - 1)]
"""IDL ``u8``."""
U16 = Annotated[int, pydantic.Strict(), _int("u16", 0, 2**16 - 1)]
"""IDL ``u16``."""
U32 = Annotated[int, pydantic.Strict(), _int("u32", 0, 2**32 - 1)]
"""IDL ``u32``."""
U64 = Annotated[int, pydantic.Strict(), _int("u64", 0, 2**64 - 1)]
"""IDL ``u64``."""
F32 = Annotated[float, pydantic.Strict(), pydantic.AfterValidator(to_f32)]
"""IDL ``f32``: held at f32 precision (integers are accepted)."""
F64 = Annotated[float, pydantic.Strict()]
"""IDL ``f64`` (integers are accepted)."""
Str = Annotated[str, pydantic.Strict()]
"""IDL ``string``."""
Bytes = Annotated[
    bytes,
    pydantic.Strict(),
    pydantic.BeforeValidator(_bytes_in),
    pydantic.PlainSerializer(_bytes_out, return_type=str, when_used="json"),
]
"""IDL ``bytes``: MsgPack bin, base64 in JSON."""
Json = pydantic.JsonValue
"""IDL ``json``: any JSON value."""


class WireModel(pydantic.BaseModel):
    """Every generated model: fields by their Python names or their wire
    names, written with their wire names."""

    model_config = pydantic.ConfigDict(
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        extra="forbid",
    )
    __wire__: ClassVar[Layout] = ()


class RequestModel(WireModel):
    """A struct a request can contain: unknown keys are rejected, so a
    misspelled optional argument is never silently ignored."""

    model_config = pydantic.ConfigDict(extra="forbid")


class ResponseModel(WireModel):
    """A struct only responses contain: unknown keys are ignored, so an
    older client reads a newer server's responses."""

    model_config = pydantic.ConfigDict(extra="ignore")


class Variant(WireModel):
    """One variant of a union or error: on the wire a map with one entry,
    the variant's name, holding a map of its fields."""

    __tag__: ClassVar[str] = ""

    @pydantic.model_serializer(mode="wrap")
    def _tagged(self, handler: pydantic.SerializerFunctionWrapHandler) -> dict[str, Any]:
        return {self.__tag__: handler(self)}


class ToolError(ResponseModel):
    """A failed call: ``{"code": str, "message": str, "details"?: any}``."""

    code: Str
    """Stable, machine-readable code (``NOT_FOUND``, ``INVALID_REQUEST``)."""
    message: Str
    """What went wrong, for people."""
    details: Json | None = None
    """The error value, for errors a tool declares."""

    __wire__: ClassVar[Layout] = (
        ("code", "code", 0),
        ("message", "message", 0),
        ("details", "details", OPTIONAL),
    )


class ErrorVariant(Variant):
    """A variant of an IDL ``error``, with its wire code and message."""

    __code__: ClassVar[str] = ""
    __message__: ClassVar[str] = ""

    @property
    def code(self) -> str:
        """The stable wire code: the variant's name in SCREAMING_SNAKE_CASE."""
        return self.__code__

    def to_tool_error(self) -> ToolError:
        """The error as a call's failure: its code, the first paragraph of
        its documentation as the message (else the code), the error value
        as ``details``."""
        details = self.model_dump(mode="json")
        return ToolError(code=self.__code__, message=self.__message__, details=details)


class _Untagged(dict[str, Any]):
    """A variant's fields, with the name they were found under."""

    tag: str = ""


def unwrap_variant(value: Any) -> Any:
    """Before validation of a union: ``{"name": {fields}}`` becomes the
    fields, remembering the name for ``variant_tag``."""
    if isinstance(value, dict) and not isinstance(value, _Untagged):
        if len(value) != 1:
            raise ValueError(
                "a union value is an object with exactly one key, the variant's name"
            )
        ((tag, fields),) = value.items()
        if fields is None:
            fields = {}
        if not isinstance(fields, dict):
            raise ValueError(f"the variant `{tag}` holds an object of its fields")
        out = _Untagged(fields)
        out.tag = tag
        return out
    return value


def variant_tag(value: Any) -> str | None:
    """The discriminator of a union: the variant's name."""
    if isinstance(value, _Untagged):
        return value.tag
    if isinstance(value, Variant):
        return value.__tag__
    return None


def only_variant(tag: str) -> Callable[[Any], Any]:
    """Before validation of a union with one variant: unwraps it and checks
    its name."""

    def check(value: Any) -> Any:
        out = unwrap_variant(value)
        if isinstance(out, _Untagged) and out.tag != tag:
            raise ValueError(f"unknown variant `{out.tag}`; expected `{tag}`")
        return out

    return check


class _Envelope(WireModel):
    """What calls and results share: the tool (and action) they are of."""

    __tool__: ClassVar[str] = ""
    __action__: ClassVar[str | None] = None
    __body__: ClassVar[str] = ""

    @pydantic.model_validator(mode="before")
    @classmethod
    def _from_wire(cls, data: Any) -> Any:
        # The wire form `{"tool": name, ["action": name,] ...fields}`; a
        # model built from its own fields has no `tool` key.
        if not isinstance(data, dict) or "tool" not in data:
            return data
        fields = dict(data)
        tool = fields.pop("tool")
        if tool != cls.__tool__:
            raise ValueError(f"expected tool `{cls.__tool__}`, found `{tool}`")
        if cls.__action__ is not None:
            action = fields.pop("action", None)
            if action != cls.__action__:
                raise ValueError(f"expected action `{cls.__action__}`, found `{action}`")
        if cls.__body__ in cls.model_fields:
            return {cls.__body__: fields}
        if fields:
            keys = ", ".join(f"`{k}`" for k in fields)
            raise ValueError(f"tool `{cls.__tool__}` takes no fields; found {keys}")
        return {}

    @pydantic.model_serializer(mode="wrap")
    def _to_wire(self, handler: pydantic.SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = {"tool": self.__tool__}
        if self.__action__ is not None:
            out["action"] = self.__action__
        body = handler(self).get(self.__body__)
        if isinstance(body, dict):
            out.update(body)
        return out


class ToolCall(_Envelope):
    """One tool's request, as ``ToolRequest`` holds it: the request struct
    in ``args`` (absent for tools without arguments). On the wire ``{"tool":
    name, ["action": name,] ...fields}``."""

    __body__: ClassVar[str] = "args"


class ToolResult(_Envelope):
    """One tool's response, as ``ToolResponse`` holds it: the response
    struct in ``data`` (absent for acknowledgements). On the wire
    ``{"tool": name, ["action": name,] ...fields}``."""

    __body__: ClassVar[str] = "data"


def envelope_discriminator(action_tools: frozenset[str]) -> Callable[[Any], str | None]:
    """The discriminator of ``ToolRequest`` / ``ToolResponse``: ``tool``, or
    ``tool.action`` for the tools in ``action_tools``."""

    def tag(value: Any) -> str | None:
        tool: Any
        action: Any
        if isinstance(value, _Envelope):
            tool, action = value.__tool__, value.__action__
        elif isinstance(value, dict):
            tool, action = value.get("tool"), value.get("action")
            if not isinstance(tool, str):
                return None
        else:
            return None
        if tool in action_tools:
            return f"{tool}.{action}"
        return str(tool)

    return tag
