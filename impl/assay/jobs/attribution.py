"""Shapley attribution of a score difference to the knobs on which two configurations differ.

Two configurations ``A`` (``config_from``) and ``B`` (``config_to``) of one metric differ on a set
of knobs. Each knob (or group of knobs, see below) is a *player*; the value of a coalition ``S``
is the corpus score of ``A`` with the knobs of ``S`` set to their values in ``B``. The Shapley
value of player ``i`` over the ``n`` players ``N`` is::

    phi_i = sum_{S ⊆ N∖{i}} |S|! (n-|S|-1)! / n! * (v(S ∪ {i}) - v(S))

so the parts add up to ``v(N) - v(∅)`` (efficiency), a knob that changes nothing on this
input gets exactly 0 (null player), and two profiles that agree on every knob get no parts at
all. The weighted sums are taken in exact rational arithmetic (``fractions.Fraction`` of the
float scores), so the only rounding is the final conversion of each part to a float.

Exact over all ``2^n`` coalitions. Players:

- **Invalid combinations.** A coalition whose knob values do not form a valid configuration
  (the family's validator raises :class:`KnobError`, e.g. BLEU weights of length 4 with
  ``max_ngram_order`` 2) or that the reproduced tool cannot score (:class:`ToolBehaviourError`,
  e.g. NLTK NIST's ZeroDivisionError) has no value. The knobs concerned are merged into one
  player that changes together (the merge that removes most invalid coalitions first), and the
  notes say which knobs and why.
- **Too many players.** Up to ``max_players`` players (default 12: 4,096 coalitions, cheap because
  score-stage knobs reuse the Evaluator's statistics) the values are exact. Beyond it,
  ``merge="sample"`` (default) keeps every player and *estimates* the values by permutation
  sampling: ``permutations`` random orders of the players (seeded, so a report is reproducible),
  each player's value the mean of its marginal contributions ``v(P ∪ {i}) - v(P)`` (P: the players
  before it in the order); each order's marginals add up to ``v(N) - v(∅)``, so the estimates still
  add up to the difference. ``Attribution.method`` is then ``"sampled"`` and ``ci95`` holds each
  estimate's 95% confidence half-width (1.96 standard errors of the mean); the notes say so.
  The older alternatives merge players instead (the notes say how):
  ``merge="effect"`` merges the two with the smallest one-step effects
  ``|v({i}) - v(∅)| + |v(N) - v(N∖{i})|`` repeatedly (2n extra evaluations); ``merge="order"``
  merges neighbouring knobs in the family's declaration order (which keeps related knobs
  together) into ``max_players`` groups without evaluating anything, for families whose
  statistics are expensive. The decomposition stays exact for the merged players.
- **Scale.** ``scale`` (0-1 vs 0-100 for BLEU/chrF/TER, 1 vs 10 for CIDEr) multiplies the score
  and would, as a player, take a share of every other knob's effect. It is not a player: the
  other knobs are attributed on one scale (``scale_on``: the larger of the two by default, so
  parts read as points on the 0-100 scale), and the pure rescaling of the start or end score is
  reported as its own part ``scale``. ``start``/``end`` stay on each tool's own scale and the
  parts (including ``scale``) add up to ``end - start``. A user comparing on a common scale
  drops the ``scale`` part: the other parts add up to the difference of the rescaled scores.
"""
from __future__ import annotations

from dataclasses import dataclass, field
import math
import random
import statistics
from fractions import Fraction
from itertools import combinations
from math import factorial
from typing import TYPE_CHECKING, Any, Callable

from assay.core.errors import AssayError, KnobError
from assay.core.knobs import Config
from assay.profiles.registry import get_profile

if TYPE_CHECKING:   # the engine (and numpy) is imported when an attribution runs: not for EXACT_PLAYERS
    from assay.engine.evaluate import Evaluator

SCALE_KNOB = "scale"
MAX_ENUMERATED_KNOBS = 16   # 2^16 configurations are validated before evaluation at most
#: a Shapley part this small (in the metric's own scale) is "no effect": the tolerance policy's 1e-9,
#: far above the last-bit differences operation order makes (~1e-14) and far below any printed digit
NEGLIGIBLE = 1e-9
EXACT_PLAYERS = 12          # default max_players: exact Shapley values over at most 4,096 coalitions
PERMUTATIONS = 200          # permutation-sampling estimate beyond max_players: random orders scored
Z95 = 1.959963984540054     # two-sided 95% normal quantile


@dataclass(frozen=True)
class Attribution:
    """A score difference ``end - start`` split into per-knob (or knob-group) parts."""

    metric: str
    start: float                 # score under config_from (its tool scale)
    end: float                   # score under config_to (its tool scale)
    parts: dict[str, float]      # player -> Shapley contribution; sum == end - start
    notes: list[str]             # invalid combinations, merges, scale handling
    profile_from: str | None = None
    profile_to: str | None = None
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)   # player -> its knobs
    changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # knob -> (from, to) value
    scale_on: float | None = None   # the scale the non-scale parts are expressed on (None: no scale knob)
    evaluations: int = 0            # coalitions scored
    method: str = "exact"           # "exact" | "sampled" (permutation-sampling estimate, module doc)
    ci95: dict[str, float] = field(default_factory=dict)   # sampled: player -> 95% CI half-width
    permutations: int = 0           # sampled: random orders scored

    @property
    def no_effect(self) -> tuple[str, ...]:
        """Players whose part is zero up to :data:`NEGLIGIBLE` (exact: they change nothing on this
        input, in any coalition, beyond the last bits of floating-point arithmetic, e.g. BLEU's
        ``score_arithmetic``; sampled: no sampled marginal moved the score): renderers fold them into
        one line."""
        return tuple(k for k, v in self.parts.items() if abs(v) <= NEGLIGIBLE and not self.ci95.get(k))

    @property
    def effective(self) -> dict[str, float]:
        """The parts without the no-effect players."""
        gone = set(self.no_effect)
        return {k: v for k, v in self.parts.items() if k not in gone}

    @property
    def total(self) -> float:
        """``end - start``: what the parts add up to."""
        return self.end - self.start

    def as_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "profile_from": self.profile_from, "profile_to": self.profile_to,
                "start": self.start, "end": self.end, "total": self.total, "parts": dict(self.parts),
                "groups": {k: list(v) for k, v in self.groups.items()},
                "changes": {k: [_jsonable(a), _jsonable(b)] for k, (a, b) in self.changes.items()},
                "scale_on": self.scale_on, "notes": list(self.notes), "evaluations": self.evaluations,
                "method": self.method, "ci95": dict(self.ci95), "permutations": self.permutations,
                "no_effect": list(self.no_effect)}


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


class _Invalid:
    """A coalition without a value, and why."""

    def __init__(self, reason: str):
        self.reason = reason


def attribute(evaluator: Evaluator, config_from: Config, config_to: Config,
              profile_from: str | None = None, profile_to: str | None = None,
              max_players: int = EXACT_PLAYERS, *, scale_on: str = "max", merge: str = "sample",
              permutations: int = PERMUTATIONS, seed: int = 0) -> Attribution:
    """Shapley decomposition of ``score(config_to) - score(config_from)`` over the differing knobs.

    ``evaluator`` holds the corpus (its statistics are reused across coalitions);
    ``profile_from``/``profile_to`` name the configurations (and their ``max_refs`` is checked).
    ``scale_on`` = ``max`` | ``from`` | ``to``: the scale of the non-scale parts (module doc).
    ``merge`` = ``sample`` | ``effect`` | ``order``: beyond ``max_players`` players, a permutation-sampling
    estimate (``permutations`` random orders drawn with ``seed``) or how players are grouped (module doc).
    Raises the endpoint's own error when ``config_from`` or ``config_to`` cannot be scored.
    """
    metric = evaluator.metric
    family = evaluator.family
    for cfg, name in ((config_from, "config_from"), (config_to, "config_to")):
        if cfg.metric != metric:
            raise KnobError(f"{name} is a {cfg.metric!r} configuration, the evaluator scores {metric!r}")
    if max_players < 1:
        raise KnobError("max_players must be at least 1")
    if merge not in _MERGES and merge != "sample":
        raise KnobError(f"merge must be sample, effect or order, got {merge!r}")
    if permutations < 2:
        raise KnobError("permutations must be at least 2 (a confidence interval needs two orders)")
    if scale_on not in ("max", "from", "to"):
        raise KnobError(f"scale_on must be max, from or to, got {scale_on!r}")
    _check_max_refs(evaluator, profile_from)
    _check_max_refs(evaluator, profile_to)

    start = evaluator.value(config_from)
    end = evaluator.value(config_to)
    knob_order = list(family.knobset.names)
    differing = [k for k in knob_order if k in config_from.differs_from(config_to)]
    changes = {k: (config_from[k], config_to[k]) for k in differing}
    notes: list[str] = []

    # ---------------------------------------------------------------- scale
    held: dict[str, Any] = {}
    scale_first = False
    scale_value: float | None = float(config_from[SCALE_KNOB]) if SCALE_KNOB in config_from else None
    if SCALE_KNOB in changes:
        a, b = changes[SCALE_KNOB]
        on_to = scale_on == "to" or (scale_on == "max" and float(b) > float(a))
        held[SCALE_KNOB] = b if on_to else a
        scale_first = on_to
        scale_value = float(held[SCALE_KNOB])
        notes.append(f"scale {a} -> {b}: the other knobs are attributed on scale {held[SCALE_KNOB]}; "
                     f"the part 'scale' is the rescaling of the {'start' if on_to else 'end'} score "
                     f"(drop it to compare on one scale)")
    players_knobs = [k for k in differing if k not in held]
    base = {**config_from.as_dict(), **held}
    target = {**config_to.as_dict(), **held}

    cache: dict[frozenset[str], float | _Invalid] = {}
    built: dict[frozenset[str], Config | _Invalid] = {}

    def build(changed: frozenset[str]) -> Config | _Invalid:
        if changed not in built:
            values = dict(base)
            for k in changed:
                values[k] = target[k]
            try:
                built[changed] = Config(metric, family.knobset, values)
            except KnobError as exc:
                built[changed] = _Invalid(f"KnobError: {exc}")
        return built[changed]

    def value(changed: frozenset[str]) -> float | _Invalid:
        if changed not in cache:
            cfg = build(changed)
            if isinstance(cfg, _Invalid):
                cache[changed] = cfg
            else:
                try:
                    cache[changed] = evaluator.value(cfg)
                except AssayError as exc:
                    cache[changed] = _Invalid(f"{type(exc).__name__}: {exc}")
        return cache[changed]

    full = frozenset(players_knobs)
    v_empty = value(frozenset())
    v_full = value(full)
    problem = _scale_problem(changes.get(SCALE_KNOB), scale_first, start, end, v_empty, v_full) if held else None
    if problem:
        # holding the scale fixed is not a pure rescaling here: scale becomes an ordinary player
        notes = [f"scale {changes[SCALE_KNOB][0]} -> {changes[SCALE_KNOB][1]} is not a pure rescaling "
                 f"under these knobs ({problem}); it is an ordinary player"]
        scale_value = None
        held.clear()
        scale_first = False
        players_knobs = list(differing)
        base, target = config_from.as_dict(), config_to.as_dict()
        cache.clear()
        built.clear()
        full = frozenset(players_knobs)

    groups: list[tuple[str, ...]] = [(k,) for k in players_knobs]
    if len(groups) > MAX_ENUMERATED_KNOBS:
        groups = _merge_by_order(groups, MAX_ENUMERATED_KNOBS, value, notes)
    groups = _merge_invalid(groups, lambda ch: isinstance(build(ch), _Invalid),
                            lambda ch: build(ch).reason, notes, "is not a valid configuration")
    if len(groups) > max_players and merge != "sample":
        groups = _MERGES[merge](groups, max_players, value, notes)
    sampled: tuple[dict[str, Fraction], dict[str, float]] | None = None
    if len(groups) > max_players:
        sampled = _sampled(groups, value, permutations, seed)
        if sampled is None:   # a sampled coalition cannot be scored: merge as the exact path does, retry
            groups = _merge_invalid(groups, lambda ch: isinstance(value(ch), _Invalid),
                                    lambda ch: value(ch).reason, notes, "cannot be scored")
            sampled = _sampled(groups, value, permutations, seed) if len(groups) > max_players else None
    else:
        groups = _merge_invalid(groups, lambda ch: isinstance(value(ch), _Invalid),
                                lambda ch: value(ch).reason, notes, "cannot be scored")
    names: dict[str, tuple[str, ...]] = {"+".join(g): g for g in groups}
    n = len(groups)
    if sampled is not None:
        exact, ci95 = sampled
        notes.append(f"{n} players exceed the exact limit of {max_players}: the parts are permutation-sampling "
                     f"ESTIMATES of the Shapley values ({permutations} random orders, seed {seed}; "
                     f"95% confidence half-widths in ci95), not exact values")
    else:
        exact, ci95 = _exact(groups, value), {}
    v_first = Fraction(value(frozenset()))          # type: ignore[arg-type]
    v_last = Fraction(value(_knobs_of(groups, (1 << n) - 1)))   # type: ignore[arg-type]
    if held:
        scale_part = (v_first - Fraction(start)) if scale_first else (Fraction(end) - v_last)
        ordered = ([(SCALE_KNOB, scale_part)] if scale_first else []) + list(exact.items()) + \
                  ([] if scale_first else [(SCALE_KNOB, scale_part)])
        names[SCALE_KNOB] = (SCALE_KNOB,)
    else:
        ordered = list(exact.items())
    parts = {k: float(p) for k, p in ordered}
    if n > 0 and sampled is None:
        notes.append(f"exact Shapley values over {n} player(s), {1 << n} coalitions")
    return Attribution(metric, start, end, parts, notes, profile_from, profile_to,
                       {k: names[k] for k in parts}, changes, scale_value, len(cache),
                       "exact" if sampled is None else "sampled", ci95, permutations if sampled else 0)


def _exact(groups: list[tuple[str, ...]], value: Callable[[frozenset[str]], Any]) -> dict[str, Fraction]:
    """Exact Shapley values over all ``2^n`` coalitions, in rational arithmetic.

    ``phi_i = sum_s w_s * sum_{|S|=s, i∉S} (v(S∪{i}) - v(S))`` with ``w_s = s!(n-s-1)!/n!``: the inner
    sums are taken per coalition size first, so the weights multiply ``n`` sums instead of
    ``2^(n-1)`` terms. Every float score is an integer over a power of two (``as_integer_ratio``),
    so over the largest of those denominators ``D`` the scores are integers and the inner sums are
    exact integer sums; ``phi_i = sum_s s!(n-s-1)! T_s / (n! D)`` is then one :class:`Fraction`,
    the same rational as summing ``Fraction`` scores term by term, at a fraction of the cost."""
    n = len(groups)
    ratios: list[tuple[int, int]] = []
    for mask in range(1 << n):
        got = value(_knobs_of(groups, mask))
        assert not isinstance(got, _Invalid)   # _merge_invalid left only scorable coalitions
        ratios.append(float(got).as_integer_ratio())
    den = max(d for _, d in ratios)
    v = [num * (den // d) for num, d in ratios]
    sizes = [bin(mask).count("1") for mask in range(1 << n)]
    weights = [factorial(s) * factorial(n - s - 1) for s in range(n)]
    out: dict[str, Fraction] = {}
    for i, group in enumerate(groups):
        bit = 1 << i
        by_size = [0] * n
        for mask in range(1 << n):
            if not mask & bit:
                by_size[sizes[mask]] += v[mask | bit] - v[mask]
        out["+".join(group)] = Fraction(sum(w * t for w, t in zip(weights, by_size)), factorial(n) * den)
    return out


def _sampled(groups: list[tuple[str, ...]], value: Callable[[frozenset[str]], Any], permutations: int,
             seed: int) -> tuple[dict[str, Fraction], dict[str, float]] | None:
    """Permutation-sampling estimate of the Shapley values (module doc) and each estimate's 95%
    confidence half-width ``Z95 * s / sqrt(m)`` (``s``: the sample standard deviation of the player's
    ``m`` marginal contributions). None when a coalition on a sampled order cannot be scored."""
    rng = random.Random(seed)
    n = len(groups)
    order = list(range(n))
    marginals: list[list[Fraction]] = [[] for _ in range(n)]
    for _ in range(permutations):
        rng.shuffle(order)
        mask = 0
        prev = value(frozenset())
        for i in order:
            mask |= 1 << i
            cur = value(_knobs_of(groups, mask))
            if isinstance(cur, _Invalid) or isinstance(prev, _Invalid):
                return None
            marginals[i].append(Fraction(cur) - Fraction(prev))
            prev = cur
    means: dict[str, Fraction] = {}
    ci95: dict[str, float] = {}
    for i, group in enumerate(groups):
        name = "+".join(group)
        means[name] = sum(marginals[i], Fraction(0)) / permutations
        ci95[name] = Z95 * statistics.stdev(float(x) for x in marginals[i]) / math.sqrt(permutations)
    return means, ci95


def _scale_problem(change: tuple[Any, Any] | None, scale_first: bool, start: float, end: float,
                   v_empty: Any, v_full: Any) -> str | None:
    """Why the scale change is not a pure multiplication of the score (None when it is)."""
    assert change is not None
    for got in (v_empty, v_full):
        if isinstance(got, _Invalid):
            return got.reason
    a, b = float(change[0]), float(change[1])
    if scale_first:   # v_empty is the start configuration on scale b
        expected, got = start * b / a, v_empty
    else:             # end is v_full (scale a) moved to scale b
        expected, got = v_full * b / a, end
    if abs(expected - got) > 1e-9 * max(1.0, abs(expected)):
        return f"rescaling gives {got!r}, not {expected!r}"
    return None


def _knobs_of(groups: list[tuple[str, ...]], mask: int) -> frozenset[str]:
    return frozenset(k for i, g in enumerate(groups) if mask >> i & 1 for k in g)


def _coalitions(groups: list[tuple[str, ...]]):
    for mask in range(1 << len(groups)):
        yield mask, _knobs_of(groups, mask)


def _merge_invalid(groups: list[tuple[str, ...]], invalid: Callable[[frozenset[str]], bool],
                   reason: Callable[[frozenset[str]], str], notes: list[str], what: str) -> list[tuple[str, ...]]:
    """Merge players until every coalition passes; each merge removes the most failing coalitions."""
    groups = list(groups)
    while True:
        bad = [mask for mask, ch in _coalitions(groups) if invalid(ch)]
        if not bad:
            return groups
        best: tuple[int, int, int, int] | None = None
        for i, j in combinations(range(len(groups)), 2):
            left = sum(1 for m in bad if bool(m >> i & 1) == bool(m >> j & 1))
            key = (left, len(groups[i]) + len(groups[j]), i, j)
            if best is None or key < best:
                best = key
        assert best is not None   # endpoints are valid, so a failing coalition has >= 2 players
        _, _, i, j = best
        example = min(bad, key=lambda m: (bin(m).count("1"), m))
        example_knobs = _knobs_of(groups, example)
        shown = ", ".join(sorted(example_knobs))
        merged = groups[i] + groups[j]
        notes.append(f"{' + '.join(groups[i])} and {' + '.join(groups[j])} change together: changing "
                     f"only {{{shown}}} {what} ({reason(example_knobs)})")
        groups = [g for k, g in enumerate(groups) if k not in (i, j)]
        groups.insert(min(i, j), merged)


def _merge_by_effect(groups: list[tuple[str, ...]], limit: int,
                     value: Callable[[frozenset[str]], Any], notes: list[str]) -> list[tuple[str, ...]]:
    """Merge the two players with the smallest one-step effects until ``limit`` players remain.

    effect(i) = |v({i}) - v(∅)| + |v(N) - v(N∖{i})|; costs 2n evaluations."""
    groups = list(groups)
    full = frozenset(k for g in groups for k in g)
    v0, v1 = value(frozenset()), value(full)
    before = len(groups)

    def effect(group: tuple[str, ...]) -> float:
        a, b = value(frozenset(group)), value(full - frozenset(group))
        if isinstance(a, _Invalid) or isinstance(b, _Invalid):
            return float("inf")   # unknown: keep it apart as long as possible
        return abs(a - v0) + abs(v1 - b)

    while len(groups) > limit:
        ranked = sorted(range(len(groups)), key=lambda i: (effect(groups[i]), i))
        i, j = sorted(ranked[:2])
        groups[i] = groups[i] + groups[j]
        del groups[j]
    notes.append(f"{before} players exceed the limit of {limit}: the players with the smallest one-step "
                 f"effects were merged ({'; '.join(' + '.join(g) for g in groups if len(g) > 1)})")
    return groups


def _merge_by_order(groups: list[tuple[str, ...]], limit: int,
                    value: Callable[[frozenset[str]], Any], notes: list[str]) -> list[tuple[str, ...]]:
    """Merge players, in the family's knob order, into ``limit`` consecutive groups of near-equal size.

    No evaluation is spent on choosing the groups (the effect heuristic scores 2n extra
    configurations, each possibly a new tokenisation: costly for ROUGE and METEOR)."""
    before = len(groups)
    size, extra = divmod(before, limit)
    merged: list[tuple[str, ...]] = []
    k = 0
    for i in range(limit):
        take = size + (1 if i < extra else 0)
        merged.append(tuple(kn for g in groups[k:k + take] for kn in g))
        k += take
    notes.append(f"{before} players exceed the limit of {limit}: neighbouring knobs (in the family's "
                 f"order) were merged ({'; '.join(' + '.join(g) for g in merged if len(g) > 1)})")
    return merged


_MERGES = {"effect": _merge_by_effect, "order": _merge_by_order}


def _check_max_refs(evaluator: Evaluator, profile: str | None) -> None:
    from assay.engine.api import check_max_refs

    if profile is not None:
        check_max_refs(get_profile(evaluator.metric, profile), len(evaluator.streams))
