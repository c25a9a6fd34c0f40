"""Conformance suites: the committed golden fixtures as cases an implementation must reproduce.

A :class:`Case` is one fixture case (``fixtures/<metric>/<family>.json``, format
``assay-fixtures/1``) with its expected values per tool version, each with its own tolerance.
Case ids are ``<metric>/<family>/<fixture id>`` so ``--run``/``--skip`` globs (fnmatch) can select
by metric, fixture file or id. The fixtures are found in ``$ASSAY_FIXTURES``, next to the
installed package (``assay/_fixtures``, wheel builds) or in the source checkout (``fixtures/``).
:func:`select` adds the third-party recordings a profile lists (``Profile.recorded``,
``fixtures/thirdparty``) as cases ``<metric>/thirdparty/<recording>/...`` (:mod:`.recorded`).

A case is *at its profile's defaults* when the profile plus the case's knobs give the same
configuration as the profile alone (at the case's level). An implementation that does not take
knob hints is run only on such cases: a knob-free NLTK ``corpus_bleu`` cannot answer a case
that asks for smoothing method 3.
"""
from __future__ import annotations

import fnmatch
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Sequence

from assay.core.errors import InputError, KnobError
from assay.core.io import read_utf8
from assay.core.knobs import hashable
from assay.engine.api import make_config
# re-exported: the cases are read in .cases, selected here
from assay.jobs.conform.cases import (FORMAT, REPORT_ONLY_KNOBS, Case, Expected, fixtures_root, load_cases,
                                        metrics_with_fixtures, report_knobs)  # noqa: F401
from assay.jobs.conform.recorded import recorded_cases


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
    """Cases that match the selection (``--skip`` matches are kept; the runner reports them skipped).
    Without ``cases``: the metric's fixture cases, then its profiles' recorded cases."""
    if cases is None:
        pool = load_cases(selection.metric) + recorded_cases(selection.metric)
    else:
        pool = list(cases)
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
