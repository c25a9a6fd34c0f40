"""Conformance cases: the committed golden fixtures (``fixtures/<metric>/<family>.json``, format
``assay-fixtures/1``) read as :class:`Case` objects with their :class:`Expected` values per tool version.

The fixtures are found in ``$ASSAY_FIXTURES``, next to the installed package (``assay/_fixtures``, wheel
builds) or in the source checkout (``fixtures/``). :mod:`.suite` selects among them; :mod:`.recorded`
turns third-party recordings into cases of the same kind.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from assay.core.errors import InputError
from assay.core.family import METRIC_NAMES
from assay.core.paths import bundled_fixture_dirs

FORMAT = "assay-fixtures/1"
#: knobs that choose what is reported, not how it is computed (ignored when matching configurations)
REPORT_ONLY_KNOBS: dict[str, frozenset[str]] = {
    "rouge": frozenset({"types", "bootstrap_samples", "confidence"}),
}


def report_knobs(metric: str, knobs: dict[str, Any]) -> dict[str, Any]:
    """The knobs of a case that say what to report (not how to compute): every implementation
    answers with them, even one that takes no other knob."""
    keep = REPORT_ONLY_KNOBS.get(metric, frozenset())
    return {k: v for k, v in (knobs or {}).items() if k in keep}


@dataclass(frozen=True)
class Expected:
    """One reference tool's answer for a case (``score`` on the tool's own scale)."""

    tool: str
    version: str
    score: Any
    components: dict[str, Any]
    error: str | None
    tolerance: dict[str, float]
    command: str = ""
    exit_status: Any = None

    @property
    def label(self) -> str:
        return f"{self.tool} {self.version}"


@dataclass(frozen=True)
class Case:
    id: str                         # metric/family/fixture-id
    metric: str
    family: str
    profile: str | None
    knobs: dict[str, Any]
    level: str
    hyps: list[Any]
    refs: list[list[Any]]
    expected: tuple[Expected, ...]
    note: str = ""
    input: dict[str, Any] = field(default_factory=dict)
    knobs_json: str = "{}"          # canonical JSON of ``knobs`` (configuration cache key)

    @property
    def nrefs(self) -> int:
        return len(self.refs)


def fixtures_root() -> Path:
    """The fixture directory (``$ASSAY_FIXTURES`` > installed ``assay/_fixtures`` > checkout)."""
    env = os.environ.get("ASSAY_FIXTURES")
    if env:
        return Path(env)
    for candidate in bundled_fixture_dirs():
        if candidate.is_dir():
            return candidate
    raise InputError("no golden fixtures found: set ASSAY_FIXTURES to the fixtures/ folder")


def metrics_with_fixtures(root: Path | None = None) -> list[str]:
    """The metric families with a fixture folder (``thirdparty``, ``audit``, ... are not metrics)."""
    root = root or fixtures_root()
    return sorted(p.name for p in root.iterdir() if p.is_dir() and p.name in METRIC_NAMES)


@lru_cache(maxsize=16)
def _load_metric(root: str, metric: str) -> tuple[Case, ...]:
    folder = Path(root) / metric
    if not folder.is_dir():
        known = ", ".join(metrics_with_fixtures(Path(root)))
        raise InputError(f"no fixtures for metric {metric!r} in {root}; known: {known}")
    cases: list[Case] = []
    for path in sorted(folder.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("format") != FORMAT:
            raise InputError(f"{path}: not an {FORMAT} file")
        for raw in doc["cases"]:
            expected = tuple(
                Expected(e["tool"], str(e["version"]), e.get("score"), e.get("components") or {},
                         e.get("error"), e.get("tolerance") or {"rel": 1e-9}, e.get("command", ""),
                         e.get("exit_status"))
                for e in raw.get("expected", ()))
            cases.append(Case(f"{metric}/{doc['family']}/{raw['id']}", metric, doc["family"],
                              raw.get("profile"), dict(raw.get("knobs") or {}), raw.get("level", "corpus"),
                              list(raw["hyps"]), [list(s) for s in raw["refs"]], expected,
                              raw.get("note", ""), dict(raw.get("input") or {}),
                              json.dumps(raw.get("knobs") or {}, sort_keys=True)))
    return tuple(cases)


def load_cases(metric: str, root: Path | None = None) -> list[Case]:
    """Every score case of ``metric`` from its fixture files."""
    return list(_load_metric(str(root or fixtures_root()), metric.lower()))
