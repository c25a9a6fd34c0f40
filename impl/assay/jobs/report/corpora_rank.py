"""Does the ranking of systems change between tools? Ranks per profile and Kendall's tau between profiles.

scipy is not a dependency of assay, so Kendall's tau is the small exact implementation below
(:func:`kendall_tau`, tau-b: the form ``scipy.stats.kendalltau`` returns by default).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Mapping, Sequence


def kendall_tau(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b of two paired samples, exactly, in O(n^2) (n: a few dozen systems).

    ``tau_b = (C - D) / sqrt((n0 - n1) * (n0 - n2))`` with ``C``/``D`` the concordant/discordant pairs,
    ``n0 = n(n-1)/2``, ``n1``/``n2`` the pairs tied in ``x``/``y`` (a pair tied in both counts in
    both). None when it is undefined (fewer than two items, or every item tied in ``x`` or ``y``)."""
    if len(x) != len(y):
        raise ValueError("kendall_tau: the two samples differ in length")
    concordant = discordant = tied_x = tied_y = 0
    for i, j in combinations(range(len(x)), 2):
        dx, dy = x[i] - x[j], y[i] - y[j]
        if dx == 0:
            tied_x += 1
        if dy == 0:
            tied_y += 1
        if dx and dy:
            if (dx > 0) == (dy > 0):
                concordant += 1
            else:
                discordant += 1
    n0 = len(x) * (len(x) - 1) // 2
    denominator = math.sqrt((n0 - tied_x) * (n0 - tied_y))
    return (concordant - discordant) / denominator if denominator else None


def ranks(scores: Mapping[str, float], lower_is_better: bool = False) -> dict[str, int]:
    """Competition ranks (1 = best; ties share the better rank) of the systems' scores."""
    ordered = sorted(scores.values(), reverse=not lower_is_better)
    return {name: ordered.index(value) + 1 for name, value in scores.items()}


@dataclass
class Ranking:
    """One metric measure across the systems of a corpus: every profile's scores, ranks, taus."""

    metric: str
    measure: str
    lower_is_better: bool
    scores: dict[str, dict[str, float]]              # profile -> system -> score (printed scale)
    ranks: dict[str, dict[str, int]] = field(default_factory=dict)
    taus: dict[tuple[str, str], float | None] = field(default_factory=dict)   # (profile, profile) -> tau-b

    def __post_init__(self) -> None:
        self.ranks = {p: ranks(s, self.lower_is_better) for p, s in self.scores.items()}
        profiles = list(self.scores)
        for a, b in combinations(profiles, 2):
            systems = [s for s in self.scores[a] if s in self.scores[b]]
            self.taus[(a, b)] = kendall_tau([self.scores[a][s] for s in systems],
                                            [self.scores[b][s] for s in systems])

    @property
    def systems(self) -> list[str]:
        names: list[str] = []
        for per in self.scores.values():
            names += [s for s in per if s not in names]
        return names

    def rank_changes(self) -> dict[str, tuple[int, int]]:
        """System -> (best, worst) rank over the profiles, for the systems whose rank changes."""
        out = {}
        for system in self.systems:
            got = [r[system] for r in self.ranks.values() if system in r]
            if got and min(got) != max(got):
                out[system] = (min(got), max(got))
        return out

    @property
    def min_tau(self) -> tuple[float, str, str] | None:
        """The lowest tau and its profile pair (None: no defined tau)."""
        defined = [(t, a, b) for (a, b), t in self.taus.items() if t is not None]
        return min(defined) if defined else None

    def as_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "measure": self.measure, "lower_is_better": self.lower_is_better,
                "scores": self.scores, "ranks": self.ranks,
                "kendall_tau": [{"a": a, "b": b, "tau_b": t} for (a, b), t in self.taus.items()],
                "rank_changes": {s: list(r) for s, r in self.rank_changes().items()}}
