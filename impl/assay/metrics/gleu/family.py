"""GLEU (Wu et al. 2016, "Google BLEU") as NLTK ``gleu_score`` and HF evaluate's ``google_bleu`` compute it.

Per segment, every n-gram of orders ``min_ngram_order..max_ngram_order`` is pooled: matches
(clipped against one reference) over ``max(hyp n-grams, ref n-grams)``, i.e. ``min(precision,
recall)``; the segment keeps the reference with the highest such ratio (:mod:`.rows`). The corpus
score sums matches and totals over segments (:mod:`.score`). The tools differ only in knobs
(:mod:`.knobs`): HF evaluate tokenises with 13a, NLTK takes the caller's token lists.
"""
from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from assay.core.family import MetricFamily, Refs, Segments
from assay.core.knobs import Config
from assay.core.score import RowScores
from assay.core.stats import SegmentStats
from assay.metrics.gleu.knobs import KNOBS
from assay.metrics.gleu.rows import COLUMNS, segment_rows
from assay.metrics.gleu.score import components, scores_from_sums

__all__ = ["FAMILY", "Gleu", "KNOBS"]


class Gleu(MetricFamily):
    name = "gleu"
    knobset = KNOBS

    def columns(self, config: Config) -> tuple[str, ...]:
        return COLUMNS

    def segment_stats(self, hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
        return segment_rows(hyps, refs, config)

    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        total = np.asarray(stats.total(), dtype=np.float64)
        return float(scores_from_sums(total[None, :], config)[0]), components(total, config)

    def sums_suffice(self, config: Config) -> bool:
        """:meth:`score_stats` reads the column sums only (both ``averaging`` modes)."""
        return True

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> RowScores:
        rows = np.asarray(stats.rows, dtype=np.float64)
        return RowScores(scores_from_sums(rows, config), partial(_row_components, rows, config))

    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """GLEU of many summed rows at once (bootstrap, randomisation): the same scorer."""
        return scores_from_sums(sums, config)


def _row_components(rows: np.ndarray, config: Config, i: int) -> dict[str, Any]:
    return components(rows[i], config)


FAMILY = Gleu()
