"""ROUGE (Lin 2004): N, L, Lsum, W, S, SU as one family; ROUGE-1.5.5.pl, rouge-score and pycocoevalcap as profiles.

A *document* is one hypothesis segment; its sentences come from ``sentence_split`` (rougeLsum,
ROUGE-1.5.5's ROUGE-L and ROUGE-W use them; N, L and S read the whole token sequence).

- Knobs (stage, domain, help): :mod:`assay.metrics.rouge.knobs`.
- Text -> token-id documents: :mod:`assay.metrics.rouge.documents` (tokenisers, stemmers, stop
  words, sentence splitting and ``-l``/``-b`` truncation in :mod:`assay.metrics.rouge.text`).
- Documents -> one row per document: :mod:`assay.metrics.rouge.rows` (the measures' counts,
  :mod:`.measures` and :mod:`.lcs`, pltrdy's union of LCS words :mod:`.word_union`; P/R/F and
  several references, :mod:`.combine`).
- Rows -> the corpus value, document scores and resampled sums, one scorer:
  :mod:`assay.metrics.rouge.score` (ROUGE-1.5.5's seeded bootstrap: :mod:`.bootstrap`).

Profiles are :mod:`assay.profiles.rouge` (``rouge-score``, the default; ``rouge-1.5.5``; ``coco``; the
third-party ``pltrdy-rouge``, ``rouge-chinese``, ``py-rouge`` and ``sumeval``);
presentation (ROUGE-1.5.5's summary lines, rouge-score's Score tuples) is :mod:`assay.output.rouge`.
"""
from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from assay.core.family import MetricFamily, Refs, Segments
from assay.core.knobs import Config
from assay.core.score import RowScores
from assay.core.stats import SegmentStats
from assay.metrics.rouge import score
from assay.metrics.rouge.combine import Arrays
from assay.metrics.rouge.knobs import KNOBS
from assay.metrics.rouge.rows import columns, segment_rows

__all__ = ["FAMILY", "KNOBS", "Rouge"]


class Rouge(MetricFamily):
    name = "rouge"
    knobset = KNOBS

    def columns(self, config: Config) -> tuple[str, ...]:
        return columns(config.types)

    # ------------------------------------------------------------------ statistics
    def segment_stats(self, hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
        return segment_rows(hyps, refs, config)

    # ------------------------------------------------------------------ scores
    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        return score.score_rows(stats.rows, config)

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> RowScores:
        """Each document's own P, R, F (:func:`assay.metrics.rouge.score.document_scores`)."""
        values, prf = score.document_scores(stats.rows, config)
        return RowScores(values, partial(_components, config.types, prf))

    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """Corpus F of the first measure from summed rows (the scorer of :meth:`score_stats`); the
        perl bootstrap resamples rows, not sums (KnobError)."""
        return score.scores_from_sums(sums, config)


def _components(types: tuple[str, ...], prf: list[Arrays], i: int) -> dict[str, Any]:
    return {t: {"p": float(p[i]), "r": float(r[i]), "f": float(f[i])} for t, (p, r, f) in zip(types, prf)}


FAMILY = Rouge()
