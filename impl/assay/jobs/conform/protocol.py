"""The ``assay conform`` JSON-lines protocol (version 1), modelled on bowtie's IHOP.

One JSON object per line. The runner writes ``start``, then one ``case`` per fixture case, then
``stop``; the implementation answers ``start`` with its metadata and each ``case`` with a result
(``{"id", "score", "components"?}``), an error (``{"id", "error"}``) or a skip
(``{"id", "skipped"}``). The schema ships in the package: ``schema/protocol-v1.json``.

:func:`validate` checks a message against one definition of that schema with a small validator
for the JSON Schema subset the schema uses (type, const, enum, required, properties,
additionalProperties, items, oneOf, $ref), so the runner needs no third-party package.

:func:`loads` is the only reader of what an implementation writes, so it is hostile-input proof
(fuzzed by ``conformance/fuzz/conform_protocol.py``): anything but one strict-JSON value of at most
:data:`MAX_DEPTH` levels whose numbers a double can hold is a :class:`ProtocolError`, never another
exception.
"""
from __future__ import annotations

import json
import math
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from assay.core.coco_json import json_depth
from assay.core.errors import InputError

VERSION = 1
SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / f"protocol-v{VERSION}.json"
MAX_DEPTH = 64
"""Deepest nesting of arrays and objects in one message (a case nests 4 deep: refs, stream, tokens);
Python's ``json`` recurses once per level, so a deeper line could end in a RecursionError."""


class ProtocolError(InputError, ValueError):
    """A message that does not follow the protocol (the reason names the offending field).

    An :class:`~assay.core.errors.InputError` (bad input from the implementation under test) and,
    as before, a ``ValueError``."""


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (draft 2020-12)."""
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


# ----------------------------------------------------------------------------- messages
def start_message() -> dict[str, Any]:
    return {"cmd": "start", "version": VERSION}


def stop_message() -> dict[str, Any]:
    return {"cmd": "stop"}


def case_message(case_id: str, metric: str, level: str, hyps: list[Any], refs: list[list[Any]],
                 profile: str | None = None, knobs: dict[str, Any] | None = None,
                 input: dict[str, Any] | None = None) -> dict[str, Any]:
    message = {"cmd": "case", "id": case_id, "metric": metric, "profile": profile, "knobs": knobs or {},
               "level": level, "hyps": hyps, "refs": refs}
    if input:
        message["input"] = input
    return message


def dumps(message: dict[str, Any]) -> str:
    """One protocol line (no NaN: the protocol is strict JSON)."""
    return json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _reject_constant(name: str) -> Any:
    raise ProtocolError(f"{name} is not JSON (the protocol is strict JSON: no NaN or Infinity)")


def _parse_int(text: str) -> int:
    """A JSON integer, which must fit a double like every protocol number (``1`` followed by 400
    zeros is valid JSON, but no score; Python would refuse 4,300 digits with a ValueError)."""
    try:
        value = int(text)
    except ValueError:
        raise ProtocolError(f"an integer of {len(text)} digits is too long for a number") from None
    if abs(value) > sys.float_info.max:
        raise ProtocolError(f"the integer {text[:12]}... ({len(text)} digits) is too large for a number")
    return value


def loads(line: str | bytes) -> Any:
    """Parse one line (bytes must be UTF-8); NaN/Infinity (Python's json extensions), nesting deeper
    than :data:`MAX_DEPTH` and integers no double can hold are protocol errors."""
    if isinstance(line, (bytes, bytearray)):
        try:
            line = bytes(line).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ProtocolError(f"not UTF-8 (byte 0x{line[exc.start]:02x} at offset {exc.start})") from None
    if json_depth(line, MAX_DEPTH) > MAX_DEPTH:
        raise ProtocolError(f"nested deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(line, parse_constant=_reject_constant, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:          # unreachable after the depth check; kept as the last guard
        raise ProtocolError("nested too deeply to read") from None


# ----------------------------------------------------------------------------- validation
_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: is_number(v),
}


def is_number(value: Any) -> bool:
    """A finite int or float (not a bool) that a double can hold: the protocol's ``number``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:            # an int beyond the range of a double
        return False


def validate(message: Any, definition: str) -> None:
    """Raise :class:`ProtocolError` unless ``message`` is a valid ``definition`` (start, started,
    case, result, error, skipped, stop, reply)."""
    root = schema()
    if definition not in root["$defs"]:
        raise KeyError(definition)
    problem = _check(message, root["$defs"][definition], root, "$")
    if problem:
        raise ProtocolError(f"invalid {definition} message: {problem}")


def is_valid(message: Any, definition: str) -> bool:
    try:
        validate(message, definition)
    except ProtocolError:
        return False
    return True


def _check(value: Any, node: dict[str, Any], root: dict[str, Any], where: str) -> str | None:
    """The first violation of ``node`` by ``value`` (a readable path + reason), or None."""
    if "$ref" in node:
        target: Any = root
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        return _check(value, target, root, where)
    if "oneOf" in node:
        problems = [_check(value, sub, root, where) for sub in node["oneOf"]]
        matched = sum(p is None for p in problems)
        if matched != 1:
            return f"{where}: matches {matched} of the alternatives" + (
                f" (e.g. {problems[0]})" if matched == 0 else "")
    if "type" in node:
        types = node["type"] if isinstance(node["type"], list) else [node["type"]]
        if not any(_TYPES[t](value) for t in types):
            return f"{where}: expected {' or '.join(types)}, got {type(value).__name__} {short(value)}"
    if "const" in node and value != node["const"]:
        return f"{where}: must be {node['const']!r}, got {short(value)}"
    if "enum" in node and value not in node["enum"]:
        return f"{where}: must be one of {node['enum']}, got {short(value)}"
    if isinstance(value, dict):
        for key in node.get("required", ()):
            if key not in value:
                return f"{where}: missing required field {key!r}"
        props = node.get("properties", {})
        for key, sub in value.items():
            if key in props:
                problem = _check(sub, props[key], root, f"{where}.{key}")
                if problem:
                    return problem
            elif node.get("additionalProperties", True) is False:
                return f"{where}: unexpected field {key!r}"
    if isinstance(value, list) and "items" in node:
        for i, item in enumerate(value):
            problem = _check(item, node["items"], root, f"{where}[{i}]")
            if problem:
                return problem
    return None


def short(value: Any) -> str:
    """``repr(value)`` cut to 60 characters (a value too large to print is named by its type)."""
    try:
        text = repr(value)
    except ValueError:               # an int too long to print (sys.get_int_max_str_digits)
        text = f"<{type(value).__name__} too large to show>"
    return text if len(text) <= 60 else text[:57] + "..."
