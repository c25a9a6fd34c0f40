"""Third-party packages' recorded answers as conformance cases of the profiles that reproduce them.

A recording (``fixtures/thirdparty/<name>.json``, format ``assay-thirdparty/1``) holds what one real
package answered, called as its documentation shows, on every distinct input of its metric's fixture
cases: the score and the components it returned, the exception it raised, or ``skipped`` where its
call cannot express the input. It names the package, its version and the call (provenance); the
answers are keyed by :func:`case_key`. ``python -m conformance.regen thirdparty`` writes them; assay
never computes them.

A profile lists the recordings of its tool in :attr:`assay.profiles.registry.Profile.recorded`.
Each recorded answer becomes a :class:`~assay.jobs.conform.suite.Case` of that profile:

- id ``<metric>/thirdparty/<recording>/<family>/<fixture id>`` (the fixture case whose input was
  recorded), family ``thirdparty``, the profile's name, and only the source case's report-only
  knobs (the package got no other hint: the case is at the profile's defaults);
- one :class:`~assay.jobs.conform.suite.Expected` per case: tool = the package, version = its
  recorded version, command = the recorded call, the recorded score and components, tolerance
  ``{"rel": profile.recorded_tolerance}``;
- a recorded exception is an expected error (``error`` = its class name: the implementation passes
  by failing too, see :mod:`assay.jobs.conform.judge`); a skipped input is no case, nor is an
  answer whose input the fixtures no longer hold (:func:`stale_answers`).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from assay.core.errors import InputError
from assay.jobs.conform.cases import Case, Expected, fixtures_root, load_cases, report_knobs
from assay.profiles.registry import Profile, profiles_of

FORMAT = "assay-thirdparty/1"
FOLDER = "thirdparty"
FAMILY = "thirdparty"


def case_key(metric: str, level: str, hyps: Any, refs: Any, knobs: dict[str, Any] | None) -> str:
    """The lookup key of one recorded input: the first 20 hex digits of the sha1 of the compact JSON of
    ``[metric, level, hyps, reference streams, report-only knobs]`` (keys sorted, UTF-8 unescaped)."""
    blob = json.dumps([metric.lower(), level, hyps, refs, report_knobs(metric.lower(), knobs or {})],
                      sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha1(blob.encode("utf-8")).hexdigest()[:20]


@dataclass(frozen=True)
class Source:
    """Where one recording's expected values come from (``assay conform`` prints it)."""

    name: str               # recording name (fixtures/thirdparty/<name>.json)
    metric: str             # the metric whose fixture inputs were recorded
    package: str
    version: str
    call: str

    @property
    def file(self) -> str:
        return f"{FOLDER}/{self.name}.json"

    def describe(self) -> str:
        return f"{self.package} {self.version}, recorded as {self.call} ({self.file})"


def recording_path(name: str, root: Path | None = None) -> Path:
    return (root or fixtures_root()) / FOLDER / f"{name}.json"


@lru_cache(maxsize=64)
def _load(path: str) -> dict[str, Any]:
    file = Path(path)
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{file}: recording not found (a profile lists it in `recorded`; "
                         "record it with python -m conformance.regen thirdparty)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{file}: unreadable recording ({type(exc).__name__}: {exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise InputError(f"{file}: not an {FORMAT} file")
    for key in ("metric", "package", "version", "call", "answers"):
        if not doc.get(key):
            raise InputError(f"{file}: recording without {key!r}")
    return doc


def load_recording(name: str, root: Path | None = None) -> dict[str, Any]:
    """The recorded document ``fixtures/thirdparty/<name>.json`` (checked: format and provenance)."""
    return _load(str(recording_path(name, root)))


def source_of(name: str, root: Path | None = None) -> Source:
    doc = load_recording(name, root)
    return Source(name, doc["metric"], doc["package"], str(doc["version"]), doc["call"])


@lru_cache(maxsize=16)
def _inputs(root: str, metric: str) -> dict[str, Case]:
    """One fixture case per recorded key (file-input cases have no recording), the first in file order."""
    seen: dict[str, Case] = {}
    for case in load_cases(metric, Path(root)):
        if not case.input:
            seen.setdefault(case_key(metric, case.level, case.hyps, case.refs, case.knobs), case)
    return seen


def recorded_inputs(metric: str, root: Path | None = None) -> dict[str, Case]:
    """``case_key -> fixture case`` over the distinct inputs of ``metric`` (what a recording answers)."""
    return _inputs(str(root or fixtures_root()), metric.lower())


def _expected(source: Source, answer: dict[str, Any], tolerance: float) -> Expected:
    tol = {"rel": tolerance}
    if "error" in answer:
        return Expected(source.package, source.version, None, {}, str(answer["error"]), tol, source.call)
    return Expected(source.package, source.version, answer.get("score"), dict(answer.get("components") or {}),
                    None, tol, source.call)


def cases_of(profile: Profile, name: str, root: Path | None = None) -> list[Case]:
    """The cases of one recording of ``profile`` (skipped inputs left out), by id."""
    root = root or fixtures_root()
    source = source_of(name, root)
    inputs = recorded_inputs(source.metric, root)
    out: list[Case] = []
    for key, answer in sorted(load_recording(name, root)["answers"].items()):
        if "skipped" in answer:
            continue
        src = inputs.get(key)
        if src is None:         # an input the fixtures no longer hold (see stale_answers)
            continue
        knobs = report_knobs(profile.metric, src.knobs)
        out.append(Case(f"{profile.metric}/{FAMILY}/{name}/{src.id.split('/', 1)[1]}", profile.metric, FAMILY,
                        profile.name, knobs, src.level, src.hyps, src.refs,
                        (_expected(source, answer, profile.recorded_tolerance),),
                        f"recorded from {source.describe()}", {}, json.dumps(knobs, sort_keys=True)))
    return sorted(out, key=lambda c: c.id)


def stale_answers(name: str, root: Path | None = None) -> list[str]:
    """The answer keys of recording ``name`` that match no fixture input of its metric any more (the
    fixtures changed since it was recorded: record it again). They are no case."""
    root = root or fixtures_root()
    doc = load_recording(name, root)
    inputs = recorded_inputs(doc["metric"], root)
    return sorted(key for key in doc["answers"] if key not in inputs)


@lru_cache(maxsize=16)
def _recorded(root: str, metric: str) -> tuple[Case, ...]:
    return tuple(case for profile in profiles_of(metric) for name in profile.recorded
                 for case in cases_of(profile, name, Path(root)))


def recorded_cases(metric: str, root: Path | None = None) -> list[Case]:
    """Every recorded case of ``metric``: the recordings its profiles list in ``recorded``."""
    return list(_recorded(str(root or fixtures_root()), metric.lower()))


def recorded_sources(metric: str | None = None, root: Path | None = None) -> list[tuple[Profile, Source]]:
    """(profile, source) for every recording a profile of ``metric`` (None: of any metric) lists."""
    return [(p, source_of(name, root)) for p in profiles_of(metric) for name in p.recorded]


def source_name(case: Case) -> str | None:
    """The recording a recorded case comes from (None: a fixture case)."""
    if case.family != FAMILY:
        return None
    return case.id.split("/")[2]


def provenance(cases: Iterable[Case]) -> list[dict[str, Any]]:
    """Where the expected values of the recorded ``cases`` come from: one entry per recording
    (``recording``, ``package``, ``version``, ``call``, ``file``, ``cases``: how many), in order of
    appearance; fixture cases are left out (their provenance is in their fixture file)."""
    found: dict[str, dict[str, Any]] = {}
    for case in cases:
        name = source_name(case)
        if name is None:
            continue
        if name not in found:
            exp = case.expected[0]
            source = Source(name, case.metric, exp.tool, exp.version, exp.command)
            found[name] = {"recording": name, "package": source.package, "version": source.version,
                           "call": source.call, "file": source.file, "cases": 0,
                           "text": source.describe()}
        found[name]["cases"] += 1
    return list(found.values())


def provenance_lines(cases: Iterable[Case]) -> list[str]:
    """:func:`provenance` as text lines (``assay conform``'s report)."""
    return [f"expected values of {p['cases']} case(s): {p['text']}" for p in provenance(cases)]
