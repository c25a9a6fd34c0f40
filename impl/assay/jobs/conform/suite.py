"""Conformance suites: the committed golden fixtures as cases an implementation must reproduce.

A :class:`Case` is one fixture case (``fixtures/<metric>/<family>.json``, format
``assay-fixtures/1``) with its expected values per tool version, each with its own tolerance.
Case ids are ``<metric>/<family>/<fixture id>`` so ``--run``/``--skip`` globs (fnmatch) can select
by metric, fixture file or id. The fixtures are found in ``$ASSAY_FIXTURES``, next to the
installed package (``assay/_fixtures``, wheel builds) or in the source checkout (``fixtures/``).

A case is *at its profile's defaults* when the profile plus the case's knobs give the same
configuration as the profile alone (at the case's level). An implementation that does not take
knob hints is run only on such cases: a knob-free NLTK ``corpus_bleu`` cannot answer a case
that asks for smoothing method 3.
"""
from __future__ import annotations

import fnmatch
import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

from assay.core.errors import InputError, KnobError
from assay.core.io import read_utf8
from assay.core.knobs import hashable
from assay.core.paths import bundled_fixture_dirs
from assay.engine.api import make_config

FORMAT = "assay-fixtures/1"
#: fixture folders that are not ``assay.score`` cases
NOT_SCORE_FIXTURES = ("sample", "tokenizers", "significance")
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
    root = root or fixtures_root()
    return sorted(p.name for p in root.iterdir() if p.is_dir() and p.name not in NOT_SCORE_FIXTURES)


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


# ----------------------------------------------------------------------------- configurations
@lru_cache(maxsize=4096)
def _config_key(metric: str, profile: str, level: str, knobs_json: str) -> tuple[Any, ...] | None:
    try:
        config, _ = make_config(metric, profile, level, **json.loads(knobs_json))
    except KnobError:
        return None
    skip = REPORT_ONLY_KNOBS.get(metric, frozenset())
    return tuple(sorted((k, hashable(v)) for k, v in config.as_dict().items() if k not in skip))




def config_key(metric: str, profile: str, level: str, knobs: dict[str, Any]) -> tuple[Any, ...] | None:
    """A hashable view of the full configuration (report-only knobs left out)."""
    return _config_key(metric, profile, level, json.dumps(knobs, sort_keys=True))


_AT_DEFAULTS: dict[tuple[str, str | None, str], bool] = {}


def at_defaults(case: Case, profile: str | None = None, knobs: dict[str, Any] | None = None) -> bool:
    """True when ``case`` asks for exactly ``profile`` (default: its own) + ``knobs`` (default none)."""
    if case.profile is None:
        return False
    key = (case.id, profile, json.dumps(knobs, sort_keys=True) if knobs else "")
    hit = _AT_DEFAULTS.get(key)
    if hit is None:
        hit = _AT_DEFAULTS[key] = _at_defaults(case, profile, knobs)
    return hit


def _at_defaults(case: Case, profile: str | None, knobs: dict[str, Any] | None) -> bool:
    want = config_key(case.metric, profile or case.profile, case.level, knobs or {})
    return want is not None and _config_key(case.metric, case.profile, case.level, case.knobs_json) == want


# ----------------------------------------------------------------------------- selection
@dataclass
class Selection:
    """Which cases to run: metric, profiles, fixed knobs, id globs, levels."""

    metric: str
    profiles: Sequence[str] | None = None
    knobs: dict[str, Any] | None = None
    run: Sequence[str] = ()
    skip: Sequence[str] = ()
    levels: Sequence[str] = ("corpus", "sentence")
    with_knobs: bool = False          # the implementation follows knob hints: every case qualifies

    def matches_id(self, case_id: str) -> bool:
        if self.run and not any(fnmatch.fnmatchcase(case_id, g) for g in self.run):
            return False
        return True

    def skipped_by_glob(self, case_id: str) -> bool:
        return any(fnmatch.fnmatchcase(case_id, g) for g in self.skip)


def select(selection: Selection, cases: Iterable[Case] | None = None) -> list[Case]:
    """Cases that match the selection (``--skip`` matches are kept; the runner reports them skipped)."""
    pool = load_cases(selection.metric) if cases is None else list(cases)
    out = []
    for case in pool:
        if case.profile is None or case.level not in selection.levels or not selection.matches_id(case.id):
            continue
        if selection.profiles:
            wanted = [p.split("/")[-1] for p in selection.profiles]
            if selection.with_knobs:
                if case.profile not in wanted:
                    continue
            elif not any(at_defaults(case, p, selection.knobs) for p in wanted):
                continue
        elif not selection.with_knobs and not at_defaults(case, None, selection.knobs):
            continue
        out.append(case)
    return out


def read_expect_fail(path: str | os.PathLike[str]) -> list[str]:
    """A known-failure list: one case id or glob per line; ``#`` starts a comment; blank lines and
    a leading byte-order mark are ignored.

    Every problem is an :class:`InputError` naming the file, and the line where there is one: a
    missing, unreadable or directory path, invalid UTF-8, an entry holding whitespace or control
    characters (a case id has neither: two ids on one line, or a stray tab, would silently match
    nothing)."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"expect-fail file: expected a path, got {type(path).__name__}")
    try:
        text = read_utf8(path)
    except InputError as exc:
        raise InputError(f"cannot read expect-fail file {exc}") from None
    name = str(path)
    out = []
    for lineno, line in enumerate(text.removeprefix("\ufeff").split("\n"), 1):
        entry = line.split("#", 1)[0].strip()
        if not entry:
            continue
        bad = next((c for c in entry if c.isspace() or not c.isprintable()), None)
        if bad is not None:
            raise InputError(f"{name}:{lineno}: expected one case id or glob per line, got {entry[:80]!r} "
                             f"(it holds U+{ord(bad):04X})")
        out.append(entry)
    return out
