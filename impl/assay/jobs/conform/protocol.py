"""The ``assay conform`` JSON-lines protocol (version 1), modelled on bowtie's IHOP.

One JSON object per line. The runner writes ``start``, then one ``case`` per fixture case, then
``stop``; the implementation answers ``start`` with its metadata and each ``case`` with a result
(``{"id", "score", "components"?}``), an error (``{"id", "error"}``) or a skip
(``{"id", "skipped"}``). The schema ships in the package: ``schema/protocol-v1.json``.

:func:`validate` checks a message against one definition of that schema with a small validator
for the JSON Schema subset the schema uses (type, const, enum, required, properties,
additionalProperties, items, oneOf, $ref), so the runner needs no third-party package.
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

VERSION = 1
SCHEMA_PATH = Path(__file__).resolve().parent / "schema" / f"protocol-v{VERSION}.json"


class ProtocolError(ValueError):
    """A message that does not follow the protocol (the reason names the offending field)."""


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


def loads(line: str | bytes) -> Any:
    """Parse one line; NaN/Infinity (Python's json extensions) are a protocol error."""
    try:
        return json.loads(line, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON ({exc.msg} at column {exc.colno})") from None


# ----------------------------------------------------------------------------- validation
_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
}


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
            return f"{where}: expected {' or '.join(types)}, got {type(value).__name__} {_short(value)}"
    if "const" in node and value != node["const"]:
        return f"{where}: must be {node['const']!r}, got {_short(value)}"
    if "enum" in node and value not in node["enum"]:
        return f"{where}: must be one of {node['enum']}, got {_short(value)}"
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


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
