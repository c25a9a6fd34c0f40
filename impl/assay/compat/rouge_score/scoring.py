"""rouge-score's ``scoring`` module: ``Score``, ``AggregateScore`` and ``BootstrapAggregator``.

``BootstrapAggregator`` (rouge-score: unseeded, so no run reproduces another) resamples the
documents with replacement ``n_samples`` times and reports, per measure and per field, the
percentiles ``(1 - confidence_interval)/2``, 50 and ``(1 + confidence_interval)/2`` of the
resampled means (numpy's default linear percentile) as ``AggregateScore(low, mid, high)``.
assay adds ``seed=`` (``None``: unseeded, as rouge-score). Its numbers therefore agree with
rouge-score's only up to resampling noise; ``mid`` estimates the plain mean, which
``assay.score("rouge", ...)`` gives exactly.
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
        rng = np.random.default_rng(self._seed)
        tail = 100 * (1 - self._confidence_interval) / 2
        out = {}
        for name, rows in self._scores.items():
            values = np.asarray(rows, dtype=np.float64)
            picks = rng.integers(0, len(values), size=(self._n_samples, len(values)))
            means = values[picks].mean(axis=1)
            low, mid, high = (np.percentile(means, q, axis=0) for q in (tail, 50.0, 100 - tail))
            out[name] = AggregateScore(Score(*map(float, low)), Score(*map(float, mid)), Score(*map(float, high)))
        return out
