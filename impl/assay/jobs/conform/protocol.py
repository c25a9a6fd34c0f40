"""The ``assay conform`` JSON-lines protocol (version 1), modelled on bowtie's IHOP.

One JSON object per line. The runner writes ``start``, then one ``case`` per fixture case, then
``stop``; the implementation answers ``start`` with its metadata and each ``case`` with a result
(``{"id", "score", "components"?}``), an error (``{"id", "error"}``) or a skip
(``{"id", "skipped"}``). The schema ships in the package: ``schema/protocol-v1.json``.

:func:`validate` checks a message against one definition of that schema with ``jsonschema``
(Draft 2020-12; the protocol's ``number`` is a finite double) and names the first violation.

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
def is_number(value: Any) -> bool:
    """A finite int or float (not a bool) that a double can hold: the protocol's ``number``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:            # an int beyond the range of a double
        return False


@lru_cache(maxsize=None)
def _validator(definition: str) -> Any:
    """A ``jsonschema`` Draft 2020-12 validator of one definition, whose ``number`` is
    :func:`is_number` (finite, not a bool, within a double: JSON Schema's own ``number`` takes
    any Python int or float, NaN included)."""
    from jsonschema import Draft202012Validator, validators

    checker = Draft202012Validator.TYPE_CHECKER.redefine("number", lambda _checker, v: is_number(v))
    cls = validators.extend(Draft202012Validator, type_checker=checker)
    root = schema()
    return cls({"$defs": root["$defs"], "$ref": f"#/$defs/{definition}"})


def validate(message: Any, definition: str) -> None:
    """Raise :class:`ProtocolError` unless ``message`` is a valid ``definition`` (start, started,
    case, result, error, skipped, stop, reply), checked by ``jsonschema`` against the shipped schema.

    The error names the first violation as a path into the message and a short reason
    (``invalid result message: $.score: expected number or array, got str '1.5'``)."""
    if definition not in schema()["$defs"]:
        raise KeyError(definition)
    from jsonschema.exceptions import relevance

    errors = list(_validator(definition).iter_errors(message))
    if errors:
        raise ProtocolError(f"invalid {definition} message: {_describe(min(errors, key=relevance))}")


def is_valid(message: Any, definition: str) -> bool:
    try:
        validate(message, definition)
    except ProtocolError:
        return False
    return True


def _where(error: Any) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)


def _describe(error: Any) -> str:
    """One readable line for a ``jsonschema`` error: where, then why (values cut by :func:`short`)."""
    where, value, kind, rule = _where(error), error.instance, error.validator, error.validator_value
    if kind == "oneOf":
        if not error.context:
            return f"{where}: matches more than one of the alternatives"
        from jsonschema.exceptions import best_match
        return f"{where}: matches 0 of the alternatives (e.g. {_describe(best_match(error.context))})"
    if kind == "type":
        types = rule if isinstance(rule, list) else [rule]
        return f"{where}: expected {' or '.join(types)}, got {type(value).__name__} {short(value)}"
    if kind == "const":
        return f"{where}: must be {rule!r}, got {short(value)}"
    if kind == "enum":
        return f"{where}: must be one of {rule}, got {short(value)}"
    if kind == "required":
        missing = next((k for k in rule if isinstance(value, dict) and k not in value), rule[0])
        return f"{where}: missing required field {missing!r}"
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = error.schema.get("properties", {})
        extra = next((k for k in value if k not in allowed), "?")
        return f"{where}: unexpected field {short(extra)}"
    text = error.message
    return f"{where}: {text if len(text) <= 120 else text[:117] + '...'}"


def short(value: Any) -> str:
    """``repr(value)`` cut to 60 characters (a value too large to print is named by its type)."""
    try:
        text = repr(value)
    except ValueError:               # an int too long to print (sys.get_int_max_str_digits)
        text = f"<{type(value).__name__} too large to show>"
    return text if len(text) <= 60 else text[:57] + "..."
