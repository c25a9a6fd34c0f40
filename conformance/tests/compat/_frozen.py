"""Shared by the compat tests: the frozen outputs of the real libraries (``fixtures/compat``,
written by ``python -m conformance.regen compat``) and the comparison of observed call results."""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from conformance.paths import FIXTURES
from conformance.regen.compat import mismatches

@lru_cache(maxsize=None)
def frozen(name: str) -> dict[str, Any]:
    """``fixtures/compat/<name>.json`` (checked to be the pinned tool's output)."""
    doc = json.loads((FIXTURES / "compat" / f"{name}.json").read_text(encoding="utf-8"))
    assert doc["format"] == "assay-compat/1" and doc["cases"]
    return doc


def assert_same(expected: list[dict[str, Any]], got: list[dict[str, Any]]) -> None:
    """Every observed case of ``got`` equals ``expected``'s (same ids, same order)."""
    assert [c["id"] for c in got] == [c["id"] for c in expected]
    problems = [m for e, g in zip(expected, got) for m in mismatches(e["observed"], g["observed"], e["id"])]
    assert not problems, f"{len(problems)} differences, first: " + "\n".join(problems[:5])
