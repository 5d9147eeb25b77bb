"""The canonical writers: the exact bytes the Rust runtime writes.

JSON is serde_json's compact output: no spaces, struct fields in declaration
order, object keys of ``map`` and ``json`` values sorted, non-ASCII as UTF-8,
floats as Rust prints them (``2.0``, ``1e-7``, ``1e+16``; ``f32`` fields at
f32 precision). MsgPack is rmp-serde's: the smallest integer encodings,
``f32`` fields as float 32 and ``f64`` as float 64, bytes as bin, absent
optionals left out. Plain dicts outside generated models (TOON payloads)
keep their key order.
"""

import base64
import enum
import json.encoder
import math
import struct
from collections.abc import Callable
from typing import Any, Final

from ._wire import OPTIONAL, SINGLE, Variant, WireModel, _Envelope, to_f32

_encode_str: Final[Callable[[str], str]] = json.encoder.encode_basestring
_F32: Final = struct.Struct("<f")


def _layout(text: str, low: int, high: int) -> str:
    """Lays out the shortest digits in ``text`` (a Python float repr or
    ``%e`` form) as Rust does: fixed notation for decimal exponents from
    ``low`` to ``high``, else ``d.ddde±x``."""
    negative = text.startswith("-")
    if negative:
        text = text[1:]
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exponent) if exponent else 0)
    significant = digits.lstrip("0")
    point -= len(digits) - len(significant)
    significant = significant.rstrip("0")
    sign = "-" if negative else ""
    if not significant:
        return f"{sign}0.0"
    exp = point - 1
    if low <= exp <= high:
        if exp >= len(significant) - 1:
            body = significant + "0" * (exp - len(significant) + 1) + ".0"
        elif exp >= 0:
            body = significant[: exp + 1] + "." + significant[exp + 1 :]
        else:
            body = "0." + "0" * (-exp - 1) + significant
    else:
        rest = "." + significant[1:] if len(significant) > 1 else ""
        body = f"{significant[0]}{rest}e{'-' if exp < 0 else '+'}{abs(exp)}"
    return sign + body


def format_f64(value: float) -> str:
    """An f64 as serde_json writes it (``null`` when not finite)."""
    if not math.isfinite(value):
        return "null"
    return _layout(repr(value), -5, 15)


def format_f32(value: float) -> str:
    """An f32 as serde_json writes it: the shortest digits that read back
    as the same f32."""
    single = to_f32(value)
    if not math.isfinite(single):
        return "null"
    text = repr(single)
    for precision in range(9):
        candidate = f"{single:.{precision}e}"
        try:
            if _F32.unpack(_F32.pack(float(candidate)))[0] == single:
                text = candidate
                break
        except OverflowError:
            # Rounded up past the largest f32: not this many digits.
            continue
    return _layout(text, -6, 12)


# ---------------------------------------------------------------------------
# JSON.
# ---------------------------------------------------------------------------


def json_text(value: Any) -> str:
    """The canonical JSON text of ``value``: a generated model, or a plain
    value (dicts keep their key order) that may hold models."""
    out: list[str] = []
    _json(value, out, 0, False)
    return "".join(out)


def json_bytes(value: Any) -> bytes:
    """``json_text`` as UTF-8."""
    return json_text(value).encode("utf-8")


def _json(value: Any, out: list[str], flags: int, sort: bool) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, enum.Enum):
        _json(value.value, out, flags, sort)
    elif isinstance(value, str):
        out.append(_encode_str(value))
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(format_f32(value) if flags & SINGLE else format_f64(value))
    elif isinstance(value, WireModel):
        _json_model(value, out)
    elif isinstance(value, Body):
        out.append("{")
        _json_body_fields(value.envelope, out, True)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _json(item, out, flags, sort)
        out.append("]")
    elif isinstance(value, dict):
        out.append("{")
        keys = sorted(value) if sort else value
        for i, key in enumerate(keys):
            if not isinstance(key, str):
                raise TypeError(f"object keys are strings, not {type(key).__name__}")
            if i:
                out.append(",")
            out.append(_encode_str(key))
            out.append(":")
            _json(value[key], out, flags, sort)
        out.append("}")
    elif isinstance(value, (bytes, bytearray, memoryview)):
        out.append('"' + base64.b64encode(bytes(value)).decode("ascii") + '"')
    else:
        raise TypeError(f"cannot write a {type(value).__name__} as JSON")


def _json_fields(model: WireModel, out: list[str], first: bool) -> None:
    # The instance dict, not getattr: reading a deprecated field through
    # the attribute would warn on every write.
    values = model.__dict__
    for attr, key, flags in type(model).__wire__:
        item = values[attr]
        if item is None and flags & OPTIONAL:
            continue
        if not first:
            out.append(",")
        first = False
        out.append(_encode_str(key))
        out.append(":")
        _json(item, out, flags, True)


def _json_model(model: WireModel, out: list[str]) -> None:
    if isinstance(model, _Envelope):
        out.append('{"tool":')
        out.append(_encode_str(model.__tool__))
        _json_body_fields(model, out, False)
        out.append("}")
    elif isinstance(model, Variant):
        out.append("{")
        out.append(_encode_str(model.__tag__))
        out.append(":{")
        _json_fields(model, out, True)
        out.append("}}")
    else:
        out.append("{")
        _json_fields(model, out, True)
        out.append("}")


def _json_body_fields(envelope: _Envelope, out: list[str], first: bool) -> None:
    if envelope.__action__ is not None:
        if not first:
            out.append(",")
        out.append('"action":')
        out.append(_encode_str(envelope.__action__))
        first = False
    body = getattr(envelope, envelope.__body__, None)
    if isinstance(body, WireModel):
        _json_fields(body, out, first)


class Body:
    """A call's ``args`` or a result's ``data``, for a TOON payload: the
    envelope's wire form without ``tool`` (``action`` first for action
    tools)."""

    __slots__ = ("envelope",)

    def __init__(self, envelope: _Envelope) -> None:
        self.envelope = envelope


# ---------------------------------------------------------------------------
# MsgPack.
# ---------------------------------------------------------------------------

_B: Final = struct.Struct(">B")
_H: Final = struct.Struct(">H")
_I: Final = struct.Struct(">I")
_Q: Final = struct.Struct(">Q")
_b: Final = struct.Struct(">b")
_h: Final = struct.Struct(">h")
_i: Final = struct.Struct(">i")
_q: Final = struct.Struct(">q")
_MF32: Final = struct.Struct(">Bf")
_MF64: Final = struct.Struct(">Bd")


def msgpack_bytes(value: Any) -> bytes:
    """The canonical MsgPack of ``value``: a generated model, or a plain
    value (dicts keep their key order) that may hold models."""
    out: list[bytes] = []
    _pack(value, out, 0, False)
    return b"".join(out)


def _pack_int(n: int, out: list[bytes]) -> None:
    if n >= 0:
        if n < 0x80:
            out.append(_B.pack(n))
        elif n <= 0xFF:
            out.append(b"\xcc" + _B.pack(n))
        elif n <= 0xFFFF:
            out.append(b"\xcd" + _H.pack(n))
        elif n <= 0xFFFF_FFFF:
            out.append(b"\xce" + _I.pack(n))
        elif n <= 0xFFFF_FFFF_FFFF_FFFF:
            out.append(b"\xcf" + _Q.pack(n))
        else:
            raise OverflowError(f"{n} does not fit in 64 bits")
    elif n >= -32:
        out.append(_b.pack(n))
    elif n >= -0x80:
        out.append(b"\xd0" + _b.pack(n))
    elif n >= -0x8000:
        out.append(b"\xd1" + _h.pack(n))
    elif n >= -0x8000_0000:
        out.append(b"\xd2" + _i.pack(n))
    elif n >= -0x8000_0000_0000_0000:
        out.append(b"\xd3" + _q.pack(n))
    else:
        raise OverflowError(f"{n} does not fit in 64 bits")


def _pack_len(n: int, fix: int, fix_max: int, codes: bytes, out: list[bytes]) -> None:
    # `codes` holds the 8-, 16- and 32-bit markers (0 where a kind has none).
    if n <= fix_max:
        out.append(_B.pack(fix | n))
    elif n <= 0xFF and codes[0]:
        out.append(_B.pack(codes[0]) + _B.pack(n))
    elif n <= 0xFFFF:
        out.append(_B.pack(codes[1]) + _H.pack(n))
    elif n <= 0xFFFF_FFFF:
        out.append(_B.pack(codes[2]) + _I.pack(n))
    else:
        raise OverflowError(f"a length of {n} does not fit in 32 bits")


_STR: Final = b"\xd9\xda\xdb"
_ARRAY: Final = b"\x00\xdc\xdd"
_MAP: Final = b"\x00\xde\xdf"


def _pack_str(text: str, out: list[bytes]) -> None:
    data = text.encode("utf-8")
    _pack_len(len(data), 0xA0, 31, _STR, out)
    out.append(data)


def _pack(value: Any, out: list[bytes], flags: int, sort: bool) -> None:
    if value is None:
        out.append(b"\xc0")
    elif value is True:
        out.append(b"\xc3")
    elif value is False:
        out.append(b"\xc2")
    elif isinstance(value, enum.Enum):
        _pack(value.value, out, flags, sort)
    elif isinstance(value, str):
        _pack_str(value, out)
    elif isinstance(value, int):
        _pack_int(value, out)
    elif isinstance(value, float):
        if flags & SINGLE:
            out.append(_MF32.pack(0xCA, value))
        else:
            out.append(_MF64.pack(0xCB, value))
    elif isinstance(value, WireModel):
        _pack_model(value, out)
    elif isinstance(value, Body):
        _pack_body(value.envelope, out)
    elif isinstance(value, (list, tuple)):
        _pack_len(len(value), 0x90, 15, _ARRAY, out)
        for item in value:
            _pack(item, out, flags, sort)
    elif isinstance(value, dict):
        _pack_len(len(value), 0x80, 15, _MAP, out)
        for key in sorted(value) if sort else value:
            if not isinstance(key, str):
                raise TypeError(f"map keys are strings, not {type(key).__name__}")
            _pack_str(key, out)
            _pack(value[key], out, flags, sort)
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        n = len(data)
        if n <= 0xFF:
            out.append(b"\xc4" + _B.pack(n))
        elif n <= 0xFFFF:
            out.append(b"\xc5" + _H.pack(n))
        else:
            out.append(b"\xc6" + _I.pack(n))
        out.append(data)
    else:
        raise TypeError(f"cannot write a {type(value).__name__} as MsgPack")


def _present(model: WireModel) -> list[tuple[str, Any, int]]:
    fields = []
    values = model.__dict__
    for attr, key, flags in type(model).__wire__:
        item = values[attr]
        if item is None and flags & OPTIONAL:
            continue
        fields.append((key, item, flags))
    return fields


def _pack_fields(fields: list[tuple[str, Any, int]], out: list[bytes]) -> None:
    for key, item, flags in fields:
        _pack_str(key, out)
        _pack(item, out, flags, True)


def _pack_model(model: WireModel, out: list[bytes]) -> None:
    if isinstance(model, _Envelope):
        body = getattr(model, model.__body__, None)
        fields = _present(body) if isinstance(body, WireModel) else []
        head: list[tuple[str, Any, int]] = [("tool", model.__tool__, 0)]
        if model.__action__ is not None:
            head.append(("action", model.__action__, 0))
        _pack_len(len(head) + len(fields), 0x80, 15, _MAP, out)
        _pack_fields(head + fields, out)
        return
    fields = _present(model)
    if isinstance(model, Variant):
        out.append(b"\x81")
        _pack_str(model.__tag__, out)
    _pack_len(len(fields), 0x80, 15, _MAP, out)
    _pack_fields(fields, out)


def _pack_body(envelope: _Envelope, out: list[bytes]) -> None:
    body = getattr(envelope, envelope.__body__, None)
    fields = _present(body) if isinstance(body, WireModel) else []
    if envelope.__action__ is not None:
        fields.insert(0, ("action", envelope.__action__, 0))
    _pack_len(len(fields), 0x80, 15, _MAP, out)
    _pack_fields(fields, out)
