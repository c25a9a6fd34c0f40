"""Profile identification: which reference tool does an implementation behave like, and where not?

1. **Identification suite.** Candidate inputs are the fixture cases at their profile's defaults
   (a few per profile and level, smallest first). assay computes every profile of the metric on
   each (one :class:`~assay.engine.evaluate.Evaluator` per input, statistics shared across profiles);
   the cases where profiles disagree (on the 0-1 scale) are kept, greedily, until every pair of
   profiles is told apart by ``per_pair`` cases (or no candidate separates them).
2. **Agreement.** The implementation answers those cases with no profile hint. Each profile
   scores the fraction of answers it reproduces (within ``tolerance``, after the best of the
   scale factors 1, 100 and 1/100); the closest profile is the best fraction.
3. **Departures.** On the cases where the closest profile disagrees, single-knob changes of that
   profile are tried (every choice of every knob, plus the values other profiles and the fixtures
   use). A change that reproduces the implementation on some disagreeing cases without breaking
   any agreeing case is a departure; the best one is kept and the search repeats on the remaining
   cases (up to ``max_departures``), so independent departures are named one by one, each with
   the cases that show it.

The agreement targets are assay's profiles (identification only). Pass/fail is judged by the
suite (:mod:`.runner`), whose expected values are the reference tools' fixture values.
"""
from __future__ import annotations

import itertools
import json
import math
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from assay.core.errors import AssayError, InputError, KnobError, ToolBehaviourError
from assay.engine.evaluate import Evaluator
from assay.core.knobs import Config
from assay.engine.registry import get_family
from assay.profiles.registry import Profile, profiles_of
from assay.jobs.conform.connect import Implementation
from assay.jobs.conform.judge import Answer
from assay.jobs.conform.runner import case_message
from assay.jobs.conform.suite import REPORT_ONLY_KNOBS, Case, at_defaults, load_cases, report_knobs

FACTORS = (1.0, 100.0, 0.01)
ERROR = "error"


@dataclass
class Departure:
    knob: str
    value: Any
    profile_value: Any
    cases: list[str]                      # ids of the cases this change explains

    def describe(self) -> str:
        return f"{self.knob}={self.value!r} (profile: {self.profile_value!r}) explains {len(self.cases)} case(s)"


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
    tied: list[str] = field(default_factory=list)
    tolerance: float = 1e-6
    seconds: float = 0.0
    distance: dict[str, float] = field(default_factory=dict)   # median relative difference per profile
    alternatives: list[tuple[str, float, list[Departure]]] = field(default_factory=list)

    def ranking(self) -> list[tuple[str, int, int, float]]:
        rows = [(p, a, n, f) for p, (a, n, f) in self.agreement.items()]
        return sorted(rows, key=lambda r: (-(r[1] / r[2] if r[2] else 0), self.distance.get(r[0], 0.0), r[3] != 1.0))

    def to_json(self) -> dict[str, Any]:
        return {"metric": self.metric, "profile": self.profile, "factor": self.factor,
                "tied": self.tied, "tolerance": self.tolerance,
                "agreement": [{"profile": p, "agree": a, "answered": n, "factor": f} for p, a, n, f in self.ranking()],
                "departures": [{"knob": d.knob, "value": _jsonable(d.value), "profile_value": _jsonable(d.profile_value),
                                "cases": d.cases} for d in self.departures],
                "unexplained": self.unexplained, "strict_mismatch": self.strict_mismatch,
                "cases": [c.id for c in self.cases], "seconds": round(self.seconds, 3)}

    def text(self) -> str:
        lines = [f"identification ({self.metric}): {len(self.cases)} discriminating cases"]
        for p, a, n, f in self.ranking()[:8]:
            scale = "" if f == 1 else f" (scores x{f:g})"
            dist = self.distance.get(p, 0.0)
            gap = f", median relative difference {dist:.2g}" if dist else ""
            lines.append(f"  {p:<22} agrees on {a}/{n}{scale}{gap}")
        if self.profile is None:
            lines.append("closest profile: none (the implementation answered no case)")
            return "\n".join(lines)
        scale = "" if self.factor == 1 else f", after multiplying its scores by {self.factor:g}"
        tie = f" (indistinguishable here from: {', '.join(self.tied)})" if self.tied else ""
        lines.append(f"closest profile: {self.metric}/{self.profile}{scale}{tie}")
        for d in self.departures:
            lines.append(f"  departs on {d.describe()}: {', '.join(d.cases[:5])}" + (" ..." if len(d.cases) > 5 else ""))
        for name, factor, deps in self.alternatives:
            how = " + ".join(f"{d.knob}={d.value!r}" for d in deps) or "no knob change"
            scale = "" if factor == 1 else f" (scores x{factor:g})"
            lines.append(f"  equally explained as {self.metric}/{name}{scale} + {how}")
        if self.unexplained:
            lines.append(f"  {len(self.unexplained)} disagreeing case(s) no single knob explains: "
                         + ", ".join(self.unexplained[:5]) + (" ..." if len(self.unexplained) > 5 else ""))
        if self.strict_mismatch:
            lines.append(f"  {len(self.strict_mismatch)} case(s) agree within {self.tolerance:g} but not within 1e-9 "
                         "(floating-point precision, e.g. float32 arithmetic)")
        return "\n".join(lines)


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# ----------------------------------------------------------------------------- values
#: metrics whose corpus answers are compared measure by measure (the F of every ROUGE type the
#: case reports), not only on the headline score
PER_MEASURE = frozenset({"rouge"})


def _value(ev: Evaluator, config: Config, level: str) -> Any:
    try:
        if level == "sentence":
            return [float(v) for v in ev.sentence_values(config)]
        if ev.metric in PER_MEASURE:
            value, comps = ev.family.score_stats(ev.stats(config), config)
            out = {"score": float(value)}
            out.update({k: float(v["f"]) for k, v in comps.items() if isinstance(v, dict) and "f" in v})
            return out
        return float(ev.value(config))
    except ToolBehaviourError:
        return ERROR
    except (AssayError, ZeroDivisionError, ValueError):
        return None


def _norm(value: Any, scale: float) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, round(v / scale, 9)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(round(v / scale, 9) for v in value)
    if isinstance(value, float):
        return round(value / scale, 9)
    return value


def agrees(assay_value: Any, answer: Answer, factor: float, rel: float) -> bool:
    if assay_value is None:            # the profile rejects this input (e.g. too many references)
        return answer.kind == "error"
    if assay_value == ERROR or answer.kind == "error":
        return assay_value == ERROR and answer.kind == "error"
    if answer.kind != "result":
        return False
    got = answer.score
    if isinstance(assay_value, dict):
        pairs = _measure_pairs(assay_value, answer)
        return pairs is not None and all(_close(a, g * factor, rel) for a, g in pairs)
    if isinstance(assay_value, list):
        return isinstance(got, list) and len(got) == len(assay_value) and all(
            _close(a, g * factor, rel) for a, g in zip(assay_value, got))
    return not isinstance(got, list) and _close(assay_value, got * factor, rel)


def _measure_pairs(assay_value: dict[str, float], answer: Answer) -> list[tuple[float, float]] | None:
    """(assay, answer) pairs: the score, then the F of every measure both report."""
    if isinstance(answer.score, list):
        return None
    pairs = [(assay_value["score"], answer.score)]
    for key, value in assay_value.items():
        comp = answer.components.get(key) if key != "score" else None
        if isinstance(comp, dict) and isinstance(comp.get("f"), (int, float)):
            pairs.append((value, comp["f"]))
    return pairs


def _distance(assay_value: Any, answer: Answer, factor: float) -> float:
    """Relative difference |a - g| / max(|a|, |g|) (0 = equal, 1 = unrelated or error mismatch)."""
    if assay_value is None or assay_value == ERROR or answer.kind != "result":
        return 0.0 if agrees(assay_value, answer, factor, 0.0) else 1.0
    got = answer.score
    if isinstance(assay_value, dict):
        pairs = _measure_pairs(assay_value, answer)
        return 1.0 if pairs is None else max(_rel(a, g * factor) for a, g in pairs)
    if isinstance(assay_value, list):
        if not isinstance(got, list) or len(got) != len(assay_value):
            return 1.0
        return _median([_rel(a, g * factor) for a, g in zip(assay_value, got)])
    if isinstance(got, list):
        return 1.0
    return _rel(assay_value, got * factor)


def _rel(a: float, b: float) -> float:
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0 else min(abs(a - b) / scale, 1.0)


def _median(values: list[float]) -> float:
    if not values:
        return 1.0
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def _close(a: float, b: float, rel: float) -> bool:
    if not (math.isfinite(a) and math.isfinite(b)):
        return a == b
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), 1e-12)


# ----------------------------------------------------------------------------- the suite
@dataclass
class _Candidate:
    case: Case
    ev: Evaluator
    values: dict[str, Any]                 # profile -> assay value (tool scale)
    norms: dict[str, Any]                  # profile -> value on a 0-1 scale


class IdentificationSuite:
    """Discriminating cases for one metric, with every profile's assay value on each."""

    def __init__(self, metric: str, per_profile: int = 5, per_pair: int = 8, max_cases: int = 80,
                 profiles: Sequence[str] | None = None, levels: Sequence[str] = ("corpus", "sentence"),
                 pool: bool = True):
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
        cases = self._pool(per_profile, levels) if pool else []
        self.candidates = [self._evaluate(c) for c in cases]
        self.selected = self._select(per_pair, max_cases)

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
            values[p.name] = None if config is None else _value(ev, config, case.level)
            norms[p.name] = _norm(values[p.name], float(config.get("scale", 1) or 1) if config else 1.0)
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
def knob_candidates(suite: "IdentificationSuite", profile: str) -> dict[str, list[Any]]:
    """Values to try per knob: its choices, the other bool, integer neighbours and multiples of the
    default, and the values other profiles and the fixtures use."""
    family, metric = suite.family, suite.metric
    skip = REPORT_ONLY_KNOBS.get(metric, frozenset())
    seen: dict[str, list[Any]] = {k.name: [] for k in family.knobset.knobs if k.name not in skip}

    def add(name: str, value: Any) -> None:
        if name in seen and value not in seen[name] and len(seen[name]) < 12:
            seen[name].append(value)

    for knob in family.knobset.knobs:
        if knob.name not in seen:
            continue
        if knob.choices:
            for v in knob.choices:
                add(knob.name, v)
        if isinstance(knob.default, bool):
            add(knob.name, True)
            add(knob.name, False)
        elif isinstance(knob.default, int) and not knob.choices:
            # off-by-one and wider/narrower limits (n-gram orders, search beams, shift sizes)
            d = knob.default
            for v in (d - 1, d + 1, 2 * d, 4 * d, 40 * d):
                if v >= 0:
                    add(knob.name, v)
    for config in suite.configs.values():
        for name, value in config.items():
            add(name, value)
    for name, value in suite.fixture_knob_values():
        add(name, value)
    base = suite.configs[(profile, "corpus")]
    return {name: [v for v in values if v != base.get(name)] for name, values in seen.items()}


def _explain(suite: IdentificationSuite, profile: str, factor: float, answers: dict[str, Answer],
             failing: list[_Candidate], agreeing: list[_Candidate], rel: float,
             max_departures: int, probe: int = 8) -> tuple[list[Departure], list[str]]:
    """Greedy single-knob departures (searched on ``probe`` small failing cases, then confirmed
    on all of them and checked against every agreeing case)."""
    candidates = suite.knob_candidates(profile)
    applied: dict[str, Any] = {}
    departures: list[Departure] = []
    remaining = sorted(failing, key=lambda c: _size(c.case))
    checked = list(agreeing)

    def fixes(changes: dict[str, Any], cands: list[_Candidate]) -> list[_Candidate] | None:
        out = []
        for cand in cands:
            config = suite.config_with(profile, cand.case, changes)
            if config is None:
                return None
            value = None if suite.rejects(profile, cand.case) else _value(cand.ev, config, cand.case.level)
            if agrees(value, answers[cand.case.id], factor, rel):
                out.append(cand)
        return out

    for _ in range(max_departures):
        if not remaining:
            break
        best: tuple[int, str, Any] | None = None
        for name, values in candidates.items():
            if name in applied:
                continue
            for value in values:
                changes = {**applied, name: value}
                fixed = fixes(changes, remaining[:probe])
                if not fixed or (best is not None and len(fixed) <= best[0]):
                    continue
                if len(fixes(changes, checked) or ()) == len(checked):
                    best = (len(fixed), name, value)
        if best is None:
            break
        _, name, value = best
        applied[name] = value
        fixed = fixes(applied, remaining) or []
        departures.append(Departure(name, value, suite.configs[(profile, "corpus")].get(name),
                                    [c.case.id for c in fixed]))
        checked.extend(fixed)
        remaining = [c for c in remaining if c not in fixed]
    return departures, [c.case.id for c in remaining]


# ----------------------------------------------------------------------------- identify
def identify(impl: Implementation, metric: str, suite: IdentificationSuite | None = None, *,
             tolerance: float = 1e-6, max_departures: int = 3, contenders: int = 3,
             min_answered: int = 10) -> Identification:
    """Run the identification suite through ``impl`` and name the closest profile."""
    start = time.perf_counter()
    suite = suite or IdentificationSuite(metric)
    if not suite.selected:
        raise InputError(f"no discriminating cases for metric {metric!r}: its profiles agree on every fixture")
    answers: dict[str, Answer] = {}
    asked = list(suite.selected)
    for cand in asked:
        answers[cand.case.id] = impl.answer(case_message(cand.case, hint_profile=False))
    answered = [c for c in asked if answers[c.case.id].kind in ("result", "error")]
    if len(answered) < min_answered and len(answered) < len(asked):
        # the implementation skipped cases (e.g. it takes one reference): ask more candidates that
        # look like the ones it answered (same numbers of references and levels)
        shapes = {(c.case.nrefs, c.case.level) for c in answered} or {(1, "corpus"), (1, "sentence")}
        extra = [c for c in suite.candidates if c not in asked and (c.case.nrefs, c.case.level) in shapes
                 and len({json.dumps(v) for v in c.norms.values()}) > 1]
        for cand in extra[: 2 * min_answered]:
            answers[cand.case.id] = impl.answer(case_message(cand.case, hint_profile=False))
            asked.append(cand)
        answered = [c for c in asked if answers[c.case.id].kind in ("result", "error")]
    agreement: dict[str, tuple[int, int, float]] = {}
    distance: dict[str, float] = {}
    for p in suite.profiles:
        options = []
        for f in FACTORS:
            n = sum(agrees(c.values[p.name], answers[c.case.id], f, tolerance) for c in answered)
            d = _median([_distance(c.values[p.name], answers[c.case.id], f) for c in answered])
            options.append((-n, d, f != 1.0, f))
        n, d, _, f = min(options)
        agreement[p.name] = (-n, len(answered), f)
        distance[p.name] = d
    result = Identification(suite.metric, None, 1.0, agreement, [c.case for c in asked], answers,
                            tolerance=tolerance, distance=distance)
    if answered:
        ranked = result.ranking()
        # the closest profile: among the best few by raw agreement, the one whose single-knob
        # departures leave the fewest cases unexplained (then: fewest departures, most agreement)
        options = []
        for rank, (name, agree, _, factor) in enumerate(ranked[:contenders]):
            if rank > 0 and agree < ranked[0][1] / 2:
                break
            failing = [c for c in answered if not agrees(c.values[name], answers[c.case.id], factor, tolerance)]
            agreeing = [c for c in answered if c not in failing]
            departures, unexplained = (_explain(suite, name, factor, answers, failing, agreeing, tolerance,
                                                max_departures) if failing else ([], []))
            options.append(((len(unexplained), len(departures), -agree, rank), name, factor, agreeing,
                            departures, unexplained))
            if not unexplained and len(departures) <= 1:
                break        # a later (less agreeing) profile cannot do better
        chosen = min(options, key=lambda o: o[0])
        _, name, factor, agreeing, departures, unexplained = chosen
        result.alternatives = [(o[1], o[2], o[4]) for o in options if o is not chosen
                               and o[0][0] == chosen[0][0] and o[0][1] <= chosen[0][1] + 1
                               and o[0][0] < len(answered) // 2]
        result.profile, result.factor = name, factor
        result.departures, result.unexplained = departures, unexplained
        top = agreement[name]
        result.tied = [r[0] for r in ranked if r[0] != name and r[1] == top[0] and r[3] == factor
                       and not departures and not unexplained]
        result.strict_mismatch = [c.case.id for c in agreeing
                                  if not agrees(c.values[name], answers[c.case.id], factor, 1e-9)]
    result.seconds = time.perf_counter() - start
    return result


def explain_failures(outcomes: Sequence[Any], metric: str, profile: str, factor: float = 1.0, *,
                     tolerance: float = 1e-6, max_cases: int = 40,
                     max_departures: int = 3) -> tuple[list[Departure], list[str]]:
    """Single-knob departures of ``profile`` that reproduce an implementation's answers on the
    failing cases of a suite run (checked against up to ``max_cases`` passing cases), and the
    failing cases none explains. Failures within ``tolerance`` (precision) are left out."""
    suite = IdentificationSuite(metric, profiles=None, pool=False)
    answers = {o.case.id: o.answer for o in outcomes if o.answer is not None}

    def candidate(case: Case) -> _Candidate:
        ev = Evaluator(suite.metric, case.hyps, case.refs)
        config = suite.config_with(profile, case, {})
        value = None if config is None or suite.rejects(profile, case) else _value(ev, config, case.level)
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
    return _explain(suite, profile, factor, answers, failing, passing, tolerance, max_departures)


def suite_summary(suite: IdentificationSuite) -> str:
    return json.dumps({"metric": suite.metric, "candidates": len(suite.candidates), "selected": len(suite.selected)})
