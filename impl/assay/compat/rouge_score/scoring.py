"""rouge-score's ``scoring`` module: ``Score``, ``AggregateScore`` and ``BootstrapAggregator``.

``BootstrapAggregator`` resamples the documents with replacement ``n_samples`` times and reports, per
measure (in the order the measures were first added) and per field, the percentiles
``100 * [(1 - ci)/2, 0.5, 1 - (1 - ci)/2]`` of the resampled means (numpy's default linear
percentile) as ``AggregateScore(low, mid, high)``. Each resample is ``n`` indices drawn uniformly
from ``0..n-1`` by numpy's legacy generator, one resample after another, measure after measure:
with ``seed=None`` (the default) that is numpy's global generator, as rouge-score draws, so after
``numpy.random.seed(k)`` both print the same numbers to the bit; ``seed=k`` (an assay addition)
uses a private ``numpy.random.RandomState(k)`` and gives the numbers rouge-score gives after
``numpy.random.seed(k)``, without touching the global state. ``mid`` estimates the plain mean,
which ``assay.score("rouge", ...)`` gives exactly.
"""
from __future__ import annotations

import collections
from typing import Any, Mapping

import numpy as np

from assay.core.errors import InputError, KnobError

__all__ = ["Score", "AggregateScore", "BootstrapAggregator", "fmeasure"]

Score = collections.namedtuple("Score", ["precision", "recall", "fmeasure"])
AggregateScore = collections.namedtuple("AggregateScore", ["low", "mid", "high"])


def fmeasure(precision: float, recall: float) -> float:
    """The harmonic mean of P and R; 0 when both are 0 (rouge-score's ``fmeasure``)."""
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


class BootstrapAggregator:
    """Confidence intervals over per-document ``{measure: Score}`` dicts (see the module docstring)."""

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000, seed: int | None = None):
        if not 0 < confidence_interval < 1:
            raise KnobError(f"confidence_interval must be in (0, 1), got {confidence_interval!r}")
        if int(n_samples) != n_samples or n_samples < 1:
            raise KnobError(f"n_samples must be a positive integer, got {n_samples!r}")
        self._confidence_interval = confidence_interval
        self._n_samples = int(n_samples)
        self._seed = seed
        self._scores: dict[str, list[Any]] = collections.defaultdict(list)

    def add_scores(self, scores: Mapping[str, Any]) -> None:
        """One document's ``{measure: Score}`` (as ``RougeScorer.score`` returns)."""
        for name, value in scores.items():
            self._scores[name].append(tuple(float(x) for x in value))

    def aggregate(self) -> dict[str, AggregateScore]:
        """``{measure: AggregateScore(low, mid, high)}``, each a :data:`Score`."""
        if not self._scores:
            raise InputError("BootstrapAggregator.aggregate: no scores were added")
        draw = np.random.randint if self._seed is None else np.random.RandomState(self._seed).randint
        ci = self._confidence_interval
        percentiles = 100 * np.array([(1 - ci) / 2, 0.5, 1 - (1 - ci) / 2])
        out = {}
        for name, rows in self._scores.items():
            values = np.asarray(rows, dtype=np.float64)
            means = np.empty((self._n_samples, values.shape[1]))
            for i in range(self._n_samples):
                means[i] = values[draw(0, len(values), size=len(values))].mean(axis=0)
            low, mid, high = np.percentile(means, percentiles, axis=0)
            out[name] = AggregateScore(Score(*map(float, low)), Score(*map(float, mid)), Score(*map(float, high)))
        return out
