"""Profile identification: which reference tool does an implementation behave like, and where not?

1. **Identification suite.** Candidate inputs are the fixture cases at their profile's defaults
   (a few per profile and level, smallest first). assay computes every profile of the metric on
   each (one :class:`~assay.engine.evaluate.Evaluator` per input, statistics shared across profiles).
   Two kinds of case are kept:

   - *profile probes*: cases where profiles disagree (on the 0-1 scale), greedily, until every
     pair of profiles is told apart by ``per_pair`` cases (or no candidate separates them), plus a
     few ordinary cases that show a 0-1 vs 0-100 scale;
   - *knob probes* (:meth:`IdentificationSuite.knob_probes`): for every profile, every knob of the
     family (its declared domain: every choice, the other boolean, neighbours of a number, the
     values other profiles and the fixtures use; resample-stage and report-only knobs left out)
     and every such value, the smallest candidate on which changing that knob alone changes the
     profile's value by more than ``tolerance``. So every single-knob departure from any profile
     shows on some case; a change no candidate shows is listed in ``blind``.
2. **Agreement.** The implementation answers every case with no profile hint. Each profile
   scores the fraction of answers it reproduces (within ``tolerance``, after the best of the
   scale factors 1, 100 and 1/100). Differences within the tolerance are not evidence: a median
   difference of 1e-16 ranks like 0.
3. **Departures.** On the cases where a contender disagrees, single-knob changes of it are tried;
   the change that reproduces the most disagreeing cases without breaking an agreeing one is a
   departure, and the search repeats on what is left (up to ``max_departures``).
4. **Ties.** Two explanations (profiles with their departures, or two knob changes of one
   profile) that account for the answers equally are a tie. For each tie the candidates are
   searched for a *distinguishing case* (the two predict different values); when the
   implementation has not answered it yet it is asked and the analysis runs once more, so a tie
   that one case can break is broken. What is left is reported as a tie, with the case that would
   break it (or none: no fixture tells them apart).

The agreement targets are assay's profiles (identification only). Pass/fail is judged by the
suite (:mod:`.runner`), whose expected values are the reference tools' fixture values.
"""
from __future__ import annotations

import functools
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from assay.core.domains import Boolean, Choice, Number
from assay.core.domains import Optional as DomainOptional
from assay.core.errors import InputError, KnobError
from assay.core.knobs import Config
from assay.engine.evaluate import Evaluator
from assay.engine.registry import get_family
from assay.jobs.conform.connect import Implementation
from assay.jobs.conform.judge import Answer
from assay.jobs.conform.runner import case_message
from assay.jobs.conform.suite import REPORT_ONLY_KNOBS, Case, at_defaults, fixtures_root, load_cases, report_knobs
from assay.jobs.conform.values import (ERROR, FACTORS, PER_MEASURE, agrees, differs, distance, median,
                                       normalised, scaled_prediction, value_of)
from assay.profiles.registry import Profile, profiles_of

__all__ = ["Departure", "Identification", "IdentificationSuite", "Tie", "identify", "explain_failures",
           "knob_candidates", "agrees", "ERROR", "FACTORS", "PER_MEASURE"]

TOLERANCE = 1e-6


@dataclass
class Departure:
    knob: str
    value: Any
    profile_value: Any
    cases: list[str]                      # ids of the cases this change explains

    def describe(self) -> str:
        return f"{self.knob}={self.value!r} (profile: {self.profile_value!r}) explains {len(self.cases)} case(s)"


@dataclass
class Tie:
    """Another explanation as good as the one named: ``profile`` (scores x ``factor``) with
    ``departures`` ((knob, value) pairs). ``case`` is a case on which the two predict different
    values (None: no candidate tells them apart); ``answered`` says whether the implementation
    answered it (then it agreed with both or neither)."""

    profile: str
    factor: float
    departures: list[tuple[str, Any]]
    case: str | None = None
    answered: bool = False
    same_configuration: bool = False     # the two are one configuration: no input can tell them apart

    def describe(self, metric: str) -> str:
        how = " + ".join(f"{k}={v!r}" for k, v in self.departures) or "no knob change"
        scale = "" if self.factor == 1 else f" (scores x{self.factor:g})"
        if self.same_configuration:
            why = "the two configurations are the same: no input can tell them apart"
        elif self.case is None:
            why = "no fixture case tells the two apart"
        elif self.answered:
            why = f"case {self.case} would tell them apart, but the implementation's answer fits both or neither"
        else:
            why = f"case {self.case} would tell them apart"
        return f"tie: equally explained as {metric}/{self.profile}{scale} + {how} ({why})"

    def to_json(self) -> dict[str, Any]:
        return {"profile": self.profile, "factor": self.factor,
                "departures": [{"knob": k, "value": _jsonable(v)} for k, v in self.departures],
                "distinguishing_case": self.case, "answered": self.answered,
                "same_configuration": self.same_configuration}


@dataclass
class Identification:
    metric: str
    profile: str | None
    factor: float
    agreement: dict[str, tuple[int, int, float]]     # profile -> (agree, answered, best factor)
    cases: list[Case]
    answers: dict[str, Answer]
    departures: list[Departure] = field(default_factory=list)
    unexplained: list[str] = field(default_factory=list)
    strict_mismatch: list[str] = field(default_factory=list)   # agree loosely but not at 1e-9
    tied: list[str] = field(default_factory=list)              # profiles tied with no departure
    tolerance: float = TOLERANCE
    seconds: float = 0.0
    distance: dict[str, float] = field(default_factory=dict)   # median relative difference per profile
    alternatives: list[tuple[str, float, list[Departure]]] = field(default_factory=list)
    ties: list[Tie] = field(default_factory=list)
    probes: int = 0                                             # knob probes among the cases
    decided_by: list[str] = field(default_factory=list)        # cases asked to break a tie

    def ranking(self) -> list[tuple[str, int, int, float]]:
        rows = [(p, a, n, f) for p, (a, n, f) in self.agreement.items()]

        def gap(p: str) -> float:        # differences within the tolerance are no evidence
            d = self.distance.get(p, 0.0)
            return 0.0 if d <= self.tolerance else d
        return sorted(rows, key=lambda r: (-(r[1] / r[2] if r[2] else 0), gap(r[0]), r[3] != 1.0))

    def to_json(self) -> dict[str, Any]:
        return {"metric": self.metric, "profile": self.profile, "factor": self.factor,
                "tied": self.tied, "ties": [t.to_json() for t in self.ties], "tolerance": self.tolerance,
                "agreement": [{"profile": p, "agree": a, "answered": n, "factor": f} for p, a, n, f in self.ranking()],
                "departures": [{"knob": d.knob, "value": _jsonable(d.value), "profile_value": _jsonable(d.profile_value),
                                "cases": d.cases} for d in self.departures],
                "unexplained": self.unexplained, "strict_mismatch": self.strict_mismatch,
                "cases": [c.id for c in self.cases], "knob_probes": self.probes, "decided_by": self.decided_by,
                "seconds": round(self.seconds, 3)}

    def text(self) -> str:
        lines = [f"identification ({self.metric}): {len(self.cases)} cases ({self.probes} knob probes)"]
        for p, a, n, f in self.ranking()[:8]:
            scale = "" if f == 1 else f" (scores x{f:g})"
            dist = self.distance.get(p, 0.0)
            gap = f", median relative difference {dist:.2g}" if dist > self.tolerance else ""
            lines.append(f"  {p:<22} agrees on {a}/{n}{scale}{gap}")
        if self.profile is None:
            lines.append("closest profile: none (the implementation answered no case)")
            return "\n".join(lines)
        scale = "" if self.factor == 1 else f", after multiplying its scores by {self.factor:g}"
        tie = " (a tie, see below)" if self.ties else ""
        lines.append(f"closest profile: {self.metric}/{self.profile}{scale}{tie}")
        for d in self.departures:
            lines.append(f"  departs on {d.describe()}: {', '.join(d.cases[:5])}" + (" ..." if len(d.cases) > 5 else ""))
        for t in self.ties:
            lines.append("  " + t.describe(self.metric))
        for case_id in self.decided_by:
            lines.append(f"  asked {case_id} to break a tie")
        if self.unexplained:
            lines.append(f"  {len(self.unexplained)} disagreeing case(s) no single knob explains: "
                         + ", ".join(self.unexplained[:5]) + (" ..." if len(self.unexplained) > 5 else ""))
        if self.strict_mismatch:
            lines.append(f"  {len(self.strict_mismatch)} case(s) agree within {self.tolerance:g} but not within 1e-9 "
                         "(floating-point precision, e.g. float32 arithmetic)")
        return "\n".join(lines)


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# ----------------------------------------------------------------------------- the suite
@dataclass
class _Candidate:
    case: Case
    ev: Evaluator
    values: dict[str, Any]                 # profile -> assay value (tool scale)
    norms: dict[str, Any]                  # profile -> value on a 0-1 scale


class IdentificationSuite:
    """Discriminating cases for one metric, with every profile's assay value on each: the profile
    probes (``selected`` before the knob probes) and one knob probe per (profile, knob, value)
    that some candidate shows (``probe_of``; ``blind`` lists the changes no candidate shows)."""

    def __init__(self, metric: str, per_profile: int = 5, per_pair: int = 8, max_cases: int = 80,
                 profiles: Sequence[str] | None = None, levels: Sequence[str] = ("corpus", "sentence"),
                 pool: bool = True, probes: bool = True, tolerance: float = TOLERANCE, probe_search: int = 30,
                 probe_extra: int = 60):
        self.metric = metric.lower()
        self.family = get_family(self.metric)
        all_profiles = profiles_of(self.metric)
        self.profiles: list[Profile] = [p for p in all_profiles if profiles is None or p.name in profiles]
        self.configs: dict[tuple[str, str], Config] = {}
        self._changed: dict[tuple[str, str, str], Config | None] = {}
        self._knob_values: dict[str, dict[str, list[Any]]] = {}
        for p in self.profiles:
            for level in ("corpus", "sentence"):
                self.configs[(p.name, level)] = Config(self.family.name, self.family.knobset,
                                                      {**p.knobs, **(p.sentence_knobs if level == "sentence" else {})})
        self._max_refs = {p.name: p.max_refs for p in self.profiles}
        self.tolerance = tolerance
        cases = self._pool(per_profile, levels) if pool else []
        self.candidates = [self._evaluate(c) for c in cases]
        self.selected = self._select(per_pair, max_cases)
        self.probe_of: dict[tuple[str, str, str], str] = {}     # (profile, knob, repr(value)) -> case id
        self.blind: list[tuple[str, str, Any]] = []
        self.probe_ids: list[str] = []
        self._more: list[list[Any]] = []
        self.tie_search = 600        # fixture inputs searched for a case that breaks a tie
        if probes and self.candidates:
            self.knob_probes(probe_search, probe_extra)

    # ------------------------------------------------------------------ knob probes
    def predict(self, cand: _Candidate, profile: str, changes: dict[str, Any]) -> Any:
        """``profile`` + ``changes`` on a candidate (tool scale); None when it cannot score it."""
        if not changes:
            return cand.values.get(profile)
        if self.rejects(profile, cand.case):
            return None
        config = self.config_with(profile, cand.case, changes)
        return None if config is None else value_of(cand.ev, config, cand.case.level)

    def separating(self, a: tuple[str, dict[str, Any], float], b: tuple[str, dict[str, Any], float],
                   cands: Iterable[_Candidate]) -> _Candidate | None:
        """The first candidate on which explanation ``a`` and ``b`` ((profile, changes, factor))
        predict different answers (beyond the tolerance), then the first of the further fixture
        inputs of the knob probes (evaluated here, and added to ``candidates``); None when none."""
        def split(cand: _Candidate) -> bool:
            va = scaled_prediction(self.predict(cand, a[0], a[1]), a[2])
            vb = scaled_prediction(self.predict(cand, b[0], b[1]), b[2])
            return differs(va, vb, self.tolerance)

        for cand in cands:
            if split(cand):
                return cand
        for entry in self._more:
            case = entry[0]
            if isinstance(entry[1], _Candidate):
                if split(entry[1]):
                    return self._adopt(entry[1])
                continue
            if entry[1] is None:
                entry[1] = Evaluator(self.metric, case.hyps, case.refs)
            values = []
            for profile, changes, factor in (a, b):
                config = None if self.rejects(profile, case) else self.config_with(profile, case, changes)
                values.append(scaled_prediction(None if config is None else value_of(entry[1], config, case.level),
                                                factor))
            if differs(values[0], values[1], self.tolerance):
                entry[1] = self._evaluate(case)
                return self._adopt(entry[1])
        return None

    def same_configuration(self, a: tuple[str, dict[str, Any], float], b: tuple[str, dict[str, Any], float]) -> bool:
        """Whether two explanations are one configuration at both levels (and one scale factor)."""
        if a[2] != b[2]:
            return False
        for level in ("corpus", "sentence"):
            try:
                ca = {**self.configs[(a[0], level)].as_dict(), **a[1]}
                cb = {**self.configs[(b[0], level)].as_dict(), **b[1]}
            except KeyError:
                return False
            if json.dumps(ca, sort_keys=True, default=repr) != json.dumps(cb, sort_keys=True, default=repr):
                return False
        return self._max_refs.get(a[0]) == self._max_refs.get(b[0])

    def _adopt(self, cand: _Candidate) -> _Candidate:
        if cand not in self.candidates:
            self.candidates.append(cand)
        return cand

    def knob_probes(self, search: int = 30, extra: int = 200) -> list[str]:
        """Add, for every (profile, knob, value) of :meth:`knob_candidates`, a case on which that
        change alone moves the profile's value beyond the tolerance: a case already selected when
        one does, else the smallest of the ``search`` smallest candidates, else the smallest of
        ``extra`` more fixture inputs of the metric (any case's text, smallest first; its profile
        and knobs are not used). Returns the ids of the probe cases."""
        chosen = {c.case.id: c for c in self.selected}
        pool = sorted(self.candidates, key=lambda c: (_size(c.case), c.case.id))[:search]
        self._more = self._more_inputs(max(extra, self.tie_search))
        more = self._more[:extra]
        for p in self.profiles:
            for knob, values in self.knob_candidates(p.name).items():
                for value in values:
                    if not self._valid(p.name, {knob: value}):
                        continue          # not a configuration (e.g. weights of another order)
                    hit = self._first_moved(p.name, {knob: value}, itertools.chain(list(chosen.values()), pool))
                    if hit is None:
                        hit = self._first_moved_lazy(p.name, {knob: value}, more)
                    if hit is None:
                        self.blind.append((p.name, knob, value))
                        continue
                    self.probe_of[(p.name, knob, repr(value))] = hit.case.id
                    if hit.case.id not in chosen:
                        chosen[hit.case.id] = hit
                        self.selected.append(hit)
                        if hit not in self.candidates:
                            self.candidates.append(hit)
        self.probe_ids = sorted(set(self.probe_of.values()))
        return self.probe_ids

    def _valid(self, profile: str, changes: dict[str, Any]) -> bool:
        """Whether ``profile`` + ``changes`` is a configuration at some level."""
        for level in ("corpus", "sentence"):
            try:
                Config(self.family.name, self.family.knobset, {**self.configs[(profile, level)].as_dict(), **changes})
                return True
            except (KnobError, ValueError, TypeError):
                continue
        return False

    def _first_moved(self, profile: str, changes: dict[str, Any], cands: Iterable[_Candidate]) -> _Candidate | None:
        for cand in cands:
            base = cand.values.get(profile)
            if base is not None and differs(base, self.predict(cand, profile, changes), self.tolerance):
                return cand
        return None

    def _more_inputs(self, limit: int) -> list[list[Any]]:
        """Fixture inputs beyond the candidates (distinct texts and levels, smallest first), each
        as ``[case, evaluator or None, {profile: value}]`` filled on demand."""
        seen = {(json.dumps([c.case.hyps, c.case.refs]), c.case.level) for c in self.candidates}
        out: list[list[Any]] = []
        for case in sorted(load_cases(self.metric), key=lambda c: (_size(c), c.id)):
            key = (json.dumps([case.hyps, case.refs]), case.level)
            if case.input or key in seen or case.profile is None:
                continue
            seen.add(key)
            out.append([case, None, {}])
            if len(out) >= limit:
                break
        return out

    def _first_moved_lazy(self, profile: str, changes: dict[str, Any], more: list[list[Any]]) -> _Candidate | None:
        """:meth:`_first_moved` over :meth:`_more_inputs`, evaluating a case fully only when it moves."""
        for entry in more:
            case, ev, base_values = entry
            if isinstance(ev, _Candidate):
                if self._first_moved(profile, changes, [ev]) is not None:
                    return ev
                continue
            if self.rejects(profile, case):
                continue
            if ev is None:
                ev = entry[1] = Evaluator(self.metric, case.hyps, case.refs)
            if profile not in base_values:
                config = self.config_with(profile, case, {})
                base_values[profile] = None if config is None else value_of(ev, config, case.level)
            base = base_values[profile]
            if base is None:
                continue
            config = self.config_with(profile, case, changes)
            if config is not None and differs(base, value_of(ev, config, case.level), self.tolerance):
                cand = entry[1] = self._evaluate(case)
                return cand
        return None

    def _pool(self, per_profile: int, levels: Sequence[str]) -> list[Case]:
        by_profile: dict[tuple[str, str], list[Case]] = {}
        names = {p.name for p in self.profiles}
        for case in load_cases(self.metric):
            if case.profile in names and case.level in levels and not case.input and at_defaults(case):
                by_profile.setdefault((case.profile, case.level), []).append(case)
        pool: list[Case] = []
        for key in sorted(by_profile):
            cases = sorted(by_profile[key], key=lambda c: (_size(c), c.id))
            pool.extend(_spread(cases, per_profile))
        return pool

    def rejects(self, profile: str, case: Case) -> bool:
        """The profile's tool cannot take this input (more references than it reads)."""
        limit = self._max_refs.get(profile)
        return limit is not None and case.nrefs > limit

    def _evaluate(self, case: Case) -> _Candidate:
        ev = Evaluator(self.metric, case.hyps, case.refs)
        values: dict[str, Any] = {}
        norms: dict[str, Any] = {}
        for p in self.profiles:
            if p.max_refs is not None and case.nrefs > p.max_refs:
                values[p.name] = None
                norms[p.name] = None
                continue
            config = self.config_with(p.name, case, {})
            values[p.name] = None if config is None else value_of(ev, config, case.level)
            norms[p.name] = normalised(values[p.name], float(config.get("scale", 1) or 1) if config else 1.0)
        return _Candidate(case, ev, values, norms)

    def _select(self, per_pair: int, max_cases: int) -> list[_Candidate]:
        names = [p.name for p in self.profiles]
        need = {pair: per_pair for pair in itertools.combinations(names, 2)}

        def separates(c: _Candidate) -> list[tuple[str, str]]:
            return [pair for pair in need if need[pair] > 0 and c.norms[pair[0]] is not None
                    and c.norms[pair[1]] is not None and c.norms[pair[0]] != c.norms[pair[1]]]

        chosen: list[_Candidate] = []
        remaining = list(self.candidates)
        while remaining and len(chosen) < max_cases:
            best = max(remaining, key=lambda c: len(separates(c)))
            pairs = separates(best)
            if not pairs:
                break
            for pair in pairs:
                need[pair] -= 1
            chosen.append(best)
            remaining.remove(best)
        # scale probes: a few ordinary cases (every profile gives a value strictly between 0 and
        # its maximum), so a 0-1 vs 0-100 difference shows even where profiles differ only in scale
        probes = {"corpus": 2, "sentence": 2}
        for c in remaining:
            if len(chosen) >= max_cases + 4:
                break
            if probes.get(c.case.level, 0) > 0 and all(_ordinary(v) for v in c.norms.values()):
                chosen.append(c)
                probes[c.case.level] -= 1
        return chosen

    def config_with(self, profile: str, case: Case, changes: dict[str, Any]) -> Config | None:
        """The profile's configuration at the case's level, with the case's report-only knobs
        (what to report, e.g. ROUGE types) and ``changes``; None when the combination is invalid."""
        report = report_knobs(self.metric, case.knobs)
        key = (profile, case.level, json.dumps(report, sort_keys=True, default=str),
               json.dumps(changes, sort_keys=True, default=str))
        if key not in self._changed:
            base = self.configs[(profile, case.level)]
            try:
                extra = self.family.knobset.resolve(report, self.metric) if report else {}
                self._changed[key] = Config(self.family.name, self.family.knobset,
                                            {**base.as_dict(), **extra, **changes})
            except (KnobError, ValueError, TypeError):
                self._changed[key] = None
        return self._changed[key]

    def knob_candidates(self, profile: str) -> dict[str, list[Any]]:
        if profile not in self._knob_values:
            self._knob_values[profile] = knob_candidates(self, profile)
        return self._knob_values[profile]

    def fixture_knob_values(self) -> list[tuple[str, Any]]:
        """Every (knob, value) some fixture case of this metric sets (aliases resolved)."""
        out: list[tuple[str, Any]] = []
        seen: set[str] = set()
        for case in load_cases(self.metric):
            key = json.dumps(case.knobs, sort_keys=True)
            if not case.knobs or key in seen:
                continue
            seen.add(key)
            try:
                resolved = self.family.knobset.resolve(case.knobs, self.metric)
            except KnobError:
                continue
            out.extend(resolved.items())
        return out


def _ordinary(norm: Any) -> bool:
    values = norm if isinstance(norm, tuple) else (norm,)
    values = tuple(v[1] if isinstance(v, tuple) else v for v in values)
    return bool(values) and all(isinstance(v, float) and 0.01 < v < 0.99 for v in values)


def _size(case: Case) -> int:
    return sum(len(h) if isinstance(h, str) else len(" ".join(h)) for h in case.hyps) * (1 + case.nrefs)


def _spread(cases: list[Case], n: int) -> list[Case]:
    """``n`` cases spread over the size-sorted list (smallest first, then evenly up to the median)."""
    if len(cases) <= n:
        return cases
    half = cases[: max(n, len(cases) // 2)]
    step = len(half) / n
    return [half[int(i * step)] for i in range(n)]


# ----------------------------------------------------------------------------- departures
def domain_values(domain: Any, around: Any) -> list[Any]:
    """Values of a knob's declared domain worth a probe, near ``around`` (the profile's value):
    both booleans, every choice, ``None`` of an optional domain, and for a number its neighbours
    and multiples (integers: -1, +1, x2, x4, x40: n-gram orders, beams, shift limits; reals: -1, +1,
    /2, x2, 1: weights such as chrF's beta or ROUGE's alpha), kept when the domain accepts them."""
    if isinstance(domain, Boolean):
        return [True, False]
    if isinstance(domain, Choice):
        return list(domain.values)
    if isinstance(domain, DomainOptional):
        return [None, *domain_values(domain.inner, around)]
    if not isinstance(domain, Number):
        return []              # paths, free text, predicates: only values profiles and fixtures use
    numeric = isinstance(around, (int, float)) and not isinstance(around, bool)
    d = around if numeric else 1
    raw = [d - 1, d + 1, 2 * d, 4 * d, 40 * d] if domain.integer else [d - 1.0, d + 1.0, d / 2, 2.0 * d, 1.0]
    out = []
    for v in raw:
        try:
            domain.check(v)
        except ValueError:
            continue
        if v != around and v not in out:
            out.append(v)
    return out


def knob_candidates(suite: "IdentificationSuite", profile: str) -> dict[str, list[Any]]:
    """Values to try per knob of ``profile`` (resample-stage and report-only knobs left out): the
    knob's domain around the profile's value (:func:`domain_values`), then the values other
    profiles and the fixtures use; at most 12 per knob, the profile's own value left out."""
    family, metric = suite.family, suite.metric
    skip = REPORT_ONLY_KNOBS.get(metric, frozenset())
    seen: dict[str, list[Any]] = {k.name: [] for k in family.knobset.knobs
                                  if k.name not in skip and k.stage != "resample"}
    base = suite.configs[(profile, "corpus")]

    def add(name: str, value: Any) -> None:
        if name in seen and value not in seen[name] and len(seen[name]) < 12:
            seen[name].append(value)

    for knob in family.knobset.knobs:
        if knob.name in seen:
            for v in domain_values(knob.domain, base.get(knob.name, knob.default)):
                add(knob.name, v)
    for config in suite.configs.values():
        for name, value in config.items():
            add(name, value)
    for name, value in suite.fixture_knob_values():
        add(name, value)
    return {name: [v for v in values if v != base.get(name)] for name, values in seen.items()}


def _explain(suite: IdentificationSuite, profile: str, factor: float, answers: dict[str, Answer],
             failing: list[_Candidate], agreeing: list[_Candidate], rel: float,
             max_departures: int, probe: int = 8) -> tuple[list[Departure], list[str], list[Tie]]:
    """Greedy single-knob departures: a change is screened on ``probe`` small failing cases,
    then counted on every failing case and checked against every agreeing one; the change that
    explains the most is kept. Changes that explain exactly as many (the same count) are ties."""
    candidates = suite.knob_candidates(profile)
    applied: dict[str, Any] = {}
    departures: list[Departure] = []
    swaps: list[tuple[int, str, Any]] = []     # (step, knob, value) as good as that step's departure
    remaining = sorted(failing, key=lambda c: (_size(c.case), c.case.id))
    checked = list(agreeing)

    def fixes(changes: dict[str, Any], cands: list[_Candidate]) -> list[_Candidate] | None:
        out = []
        for cand in cands:
            config = suite.config_with(profile, cand.case, changes)
            if config is None:
                return None
            value = None if suite.rejects(profile, cand.case) else value_of(cand.ev, config, cand.case.level)
            if agrees(value, answers[cand.case.id], factor, rel):
                out.append(cand)
        return out

    for _ in range(max_departures):
        if not remaining:
            break
        scored: list[tuple[int, str, Any, list[_Candidate]]] = []
        for name, values in candidates.items():
            if name in applied:
                continue
            for value in values:
                changes = {**applied, name: value}
                if not fixes(changes, remaining[:probe]):
                    continue
                if len(fixes(changes, checked) or ()) != len(checked):
                    continue
                fixed = fixes(changes, remaining) or []
                scored.append((len(fixed), name, value, fixed))
        if not scored:
            break
        best_count = max(s[0] for s in scored)
        best = [s for s in scored if s[0] == best_count]
        _, name, value, fixed = best[0]
        swaps += [(len(departures), other, other_value) for _, other, other_value, _ in best[1:]]
        applied[name] = value
        departures.append(Departure(name, value, suite.configs[(profile, "corpus")].get(name),
                                    [c.case.id for c in fixed]))
        checked.extend(fixed)
        remaining = [c for c in remaining if c not in fixed]
    # a tie within this profile: the same departures with one step's knob change swapped
    ties = [Tie(profile, factor, [(k, v) if i != step else (knob, value)
                                  for i, (k, v) in enumerate((d.knob, d.value) for d in departures)])
            for step, knob, value in swaps]
    return departures, [c.case.id for c in remaining], ties


# ----------------------------------------------------------------------------- identify
@functools.lru_cache(maxsize=8)
def _cached_suite(metric: str, root: str, tolerance: float, probes: bool) -> IdentificationSuite:
    return IdentificationSuite(metric, tolerance=tolerance, probes=probes)


def suite_for(metric: str, tolerance: float = TOLERANCE, probes: bool = True) -> IdentificationSuite:
    """The identification suite of ``metric`` (built once per process and fixture folder: the
    knob probes evaluate every knob change of every profile, seconds for BLEU). ``probes=False``:
    the profile probes only, enough to choose which profile's cases to run (a second or two)."""
    return _cached_suite(metric.lower(), str(fixtures_root()), tolerance, probes)


def _ask(impl: Implementation, cand: _Candidate, answers: dict[str, Answer]) -> None:
    answers[cand.case.id] = impl.answer(case_message(cand.case, hint_profile=False))


def identify(impl: Implementation, metric: str, suite: IdentificationSuite | None = None, *,
             tolerance: float = TOLERANCE, max_departures: int = 3, contenders: int = 6,
             min_answered: int = 10, progress: Any = None, probes: bool = True) -> Identification:
    """Run the identification suite through ``impl`` and name the closest profile (module
    docstring). ``progress`` (a :class:`assay.core.progress.ProgressBar`) steps once per case asked;
    ``probes=False`` leaves the knob probes out (only the profile matters, not its departures)."""
    start = time.perf_counter()
    suite = suite or suite_for(metric, tolerance, probes)
    if not suite.selected:
        raise InputError(f"no discriminating cases for metric {metric!r}: its profiles agree on every fixture")
    answers: dict[str, Answer] = {}
    asked = list(suite.selected)
    if progress is not None:
        progress.add(len(asked))
    for cand in asked:
        _ask(impl, cand, answers)
        if progress is not None:
            progress.step(cand.case.id)
    answered = [c for c in asked if answers[c.case.id].kind in ("result", "error")]
    if len(answered) < min_answered and len(answered) < len(asked):
        # the implementation skipped cases (e.g. it takes one reference): ask more candidates that
        # look like the ones it answered (same numbers of references and levels)
        shapes = {(c.case.nrefs, c.case.level) for c in answered} or {(1, "corpus"), (1, "sentence")}
        extra = [c for c in suite.candidates if c not in asked and (c.case.nrefs, c.case.level) in shapes
                 and len({json.dumps(v) for v in c.norms.values()}) > 1]
        for cand in extra[: 2 * min_answered]:
            _ask(impl, cand, answers)
            asked.append(cand)
    result = _analyse(suite, answers, asked, tolerance, max_departures, contenders)
    # break ties: ask the case that tells two explanations apart, then analyse once more
    extra = []
    for tie in result.ties:
        case_ids = {c.case.id for c in asked}
        if tie.case is not None and tie.case not in case_ids:
            cand = next(c for c in suite.candidates if c.case.id == tie.case)
            _ask(impl, cand, answers)
            asked.append(cand)
            extra.append(cand.case.id)
    if extra:
        result = _analyse(suite, answers, asked, tolerance, max_departures, contenders)
        result.decided_by = extra
    result.seconds = time.perf_counter() - start
    return result


def _analyse(suite: IdentificationSuite, answers: dict[str, Answer], asked: list[_Candidate], tolerance: float,
             max_departures: int, contenders: int) -> Identification:
    """Agreement, the closest profile, its departures and the ties, from the answers so far."""
    answered = [c for c in asked if answers[c.case.id].kind in ("result", "error")]
    agreement: dict[str, tuple[int, int, float]] = {}
    gaps: dict[str, float] = {}
    for p in suite.profiles:
        options = []
        for f in FACTORS:
            n = sum(agrees(c.values[p.name], answers[c.case.id], f, tolerance) for c in answered)
            d = median([distance(c.values[p.name], answers[c.case.id], f) for c in answered])
            options.append((-n, 0.0 if d <= tolerance else d, f != 1.0, f, d))
        n, _, _, f, d = min(options)
        agreement[p.name] = (-n, len(answered), f)
        gaps[p.name] = d
    result = Identification(suite.metric, None, 1.0, agreement, [c.case for c in asked], answers,
                            tolerance=tolerance, distance=gaps,
                            probes=sum(c.case.id in suite.probe_ids for c in asked))
    if not answered:
        return result
    ranked = result.ranking()
    # the closest profile: among the best few by raw agreement, the one whose single-knob
    # departures leave the fewest cases unexplained (then: fewest departures, most agreement)
    options = []
    # no cut-off by raw agreement: one knob can move almost every case (chrF word_order=0 moves 17
    # of 18), so the true profile may agree least before its departure is found
    for rank, (name, agree, _, factor) in enumerate(ranked[:contenders]):
        failing = [c for c in answered if not agrees(c.values[name], answers[c.case.id], factor, tolerance)]
        agreeing = [c for c in answered if c not in failing]
        departures, unexplained, knob_ties = (_explain(suite, name, factor, answers, failing, agreeing, tolerance,
                                                       max_departures) if failing else ([], [], []))
        options.append(((len(unexplained), len(departures), -agree, rank), name, factor, agreeing,
                        departures, unexplained, knob_ties))
        if not unexplained and not departures:
            break        # a later (less agreeing) profile cannot do better
    chosen = min(options, key=lambda o: o[0])
    _, name, factor, agreeing, departures, unexplained, knob_ties = chosen
    result.alternatives = [(o[1], o[2], o[4]) for o in options if o is not chosen
                           and o[0][0] == chosen[0][0] and o[0][1] <= chosen[0][1] + 1
                           and o[0][0] < len(answered) // 2]
    result.profile, result.factor = name, factor
    result.departures, result.unexplained = departures, unexplained
    ties = list(knob_ties)
    ties += [Tie(o[1], o[2], [(d.knob, d.value) for d in o[4]]) for o in options
             if o is not chosen and o[0][:2] == chosen[0][:2]]
    # profiles that agree exactly as often, with no departure on either side
    if not departures and not unexplained:
        top = agreement[name]
        for other, agree, _, f in ranked:
            if other != name and agree == top[0] and f == factor and all(t.profile != other or t.departures
                                                                         for t in ties):
                ties.append(Tie(other, f, []))
    mine = (name, {d.knob: d.value for d in departures}, factor)
    pool = [*asked, *(c for c in suite.candidates if c not in asked)]
    kept = []
    for tie in ties:
        other = (tie.profile, dict(tie.departures), tie.factor)
        if other == mine:
            continue
        if suite.same_configuration(mine, other):
            tie.same_configuration = True
            kept.append(tie)
            continue
        cand = suite.separating(mine, other, pool)
        tie.case = cand.case.id if cand is not None else None
        tie.answered = cand is not None and cand.case.id in answers
        if tie.answered and cand is not None:
            answer = answers[cand.case.id]
            fits_mine = agrees(suite.predict(cand, mine[0], mine[1]), answer, mine[2], tolerance)
            fits_other = agrees(suite.predict(cand, other[0], other[1]), answer, other[2], tolerance)
            if fits_mine != fits_other:
                continue        # the answer already decides: not a tie
        kept.append(tie)
    result.ties = kept
    result.tied = [t.profile for t in kept if not t.departures and t.profile != name]
    result.strict_mismatch = [c.case.id for c in agreeing
                              if not agrees(c.values[name], answers[c.case.id], factor, 1e-9)]
    return result


def explain_failures(outcomes: Sequence[Any], metric: str, profile: str, factor: float = 1.0, *,
                     tolerance: float = TOLERANCE, max_cases: int = 40,
                     max_departures: int = 3) -> tuple[list[Departure], list[str]]:
    """Single-knob departures of ``profile`` that reproduce an implementation's answers on the
    failing cases of a suite run (checked against up to ``max_cases`` passing cases), and the
    failing cases none explains. Failures within ``tolerance`` (precision) are left out."""
    suite = IdentificationSuite(metric, profiles=None, pool=False, tolerance=tolerance)
    answers = {o.case.id: o.answer for o in outcomes if o.answer is not None}

    def candidate(case: Case) -> _Candidate:
        ev = Evaluator(suite.metric, case.hyps, case.refs)
        config = suite.config_with(profile, case, {})
        value = None if config is None or suite.rejects(profile, case) else value_of(ev, config, case.level)
        return _Candidate(case, ev, {profile: value}, {})

    failing, passing = [], []
    for o in outcomes:
        if o.answer is None or o.answer.kind not in ("result", "error") or o.case.input:
            continue
        if o.status == "failed" and len(failing) < max_cases:
            cand = candidate(o.case)
            if not agrees(cand.values[profile], o.answer, factor, tolerance):
                failing.append(cand)
        elif o.status == "passed" and len(passing) < max_cases:
            passing.append(candidate(o.case))
    if not failing:
        return [], []
    departures, unexplained, _ = _explain(suite, profile, factor, answers, failing, passing, tolerance, max_departures)
    return departures, unexplained


def suite_summary(suite: IdentificationSuite) -> str:
    return json.dumps({"metric": suite.metric, "candidates": len(suite.candidates), "selected": len(suite.selected)})


def explain_outcome(outcome: Any, metric: str, profile: str, factor: float = 1.0, *,
                    tolerance: float = TOLERANCE) -> str:
    """One line naming the knob change of ``profile`` that reproduces the implementation's answer
    on one failing case (and any other change that does equally: on one case several can), or
    saying that none does."""
    suite = IdentificationSuite(metric, profiles=None, pool=False, tolerance=tolerance)
    case, answer = outcome.case, outcome.answer
    if answer is None or answer.kind not in ("result", "error") or case.input or suite.rejects(profile, case):
        return ""
    ev = Evaluator(suite.metric, case.hyps, case.refs)
    config = suite.config_with(profile, case, {})
    value = None if config is None else value_of(ev, config, case.level)
    if agrees(value, answer, factor, tolerance):
        return ""
    cand = _Candidate(case, ev, {profile: value}, {})
    departures, unexplained, ties = _explain(suite, profile, factor, {case.id: answer}, [cand], [], tolerance, 2)
    if unexplained or not departures:
        return f"no single knob change of {metric}/{profile} explains the difference"
    how = " + ".join(f"{d.knob}={d.value!r} (profile: {d.profile_value!r})" for d in departures)
    others = "; ".join(" + ".join(f"{k}={v!r}" for k, v in t.departures) for t in ties[:4])
    return f"the knob that explains the difference: {how}" + (f" (on this case equally: {others})" if others else "")
