"""BLEU (Papineni et al. 2002) and every variant in use, as one family with explicit knobs.

Per segment: ``hyp_len``, ``ref_len`` (chosen by ``ref_length``), clipped matches
``correct_n = sum_g min(count_hyp(g), max_r count_r(g))`` and ``total_n`` (hypothesis n-grams)
for n = 1..N, plus the 5-gram pair NLTK methods 5/7 read (:mod:`assay.metrics.bleu.rows`).
Corpus BLEU = BP * exp(sum_n w_n log p_n) on the summed rows, with
BP = exp(1 - r/c) if c < r, 1 if c >= r, 0 if c = 0 (:mod:`assay.metrics.bleu.score`, the one
scorer of corpus scores, sentence scores and resampled sums).

The tools differ only in the knobs (:mod:`assay.metrics.bleu.knobs`; shared/research/bleu_nist.md):
- sacrebleu: break to 0 at an order with no hypothesis n-grams (``missing_order=stop``), 0 when
  nothing matches (#141, ``no_match=zero``), effective order = leading orders with n-grams.
- mteval-v13a/v14: such an order counts as precision 1 (``missing_order=one``); exp smoothing is
  applied even when nothing matches (``no_match=smooth``), so a 1-token wrong output scores 84.09.
- NLTK: ``max(1, #n-grams)`` denominators per segment (``per_segment_min_total=1``), method0's
  float-min for zero counts, precisions still 0 after smoothing skipped (``zero_precision=skip``),
  methods 5-7 read the last segment (their documented order dependence).
- multi-bleu.perl: log(0) = -9999999999, so any zero order gives 0 (``zero_precision=zero``).
- d2l (seed 002): weights 1/2^n; a hypothesis of exactly n-1 tokens divides by zero.
- pycocoevalcap: ``epsilon=coco``. Presentation (signatures, each tool's line) is
  :mod:`assay.output.bleu`; profiles are :mod:`assay.profiles.bleu`.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from assay.core.errors import KnobError
from assay.core.family import MetricFamily, Refs, Segments
from assay.core.knobs import Config
from assay.core.score import RowScores
from assay.core.stats import SegmentStats
from assay.metrics.bleu.knobs import KNOBS, weight_tuples
from assay.metrics.bleu.rows import choose_ref_length, columns, segment_rows
from assay.metrics.bleu.score import reads_last_segment, score_rows

__all__ = ["Bleu", "FAMILY", "KNOBS", "choose_ref_length"]


class Bleu(MetricFamily):
    name = "bleu"
    knobset = KNOBS

    def derive(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Setting NLTK-style weights also sets max_ngram_order to the longest tuple."""
        if "weights" in settings and "max_ngram_order" not in settings:
            tuples = weight_tuples(settings["weights"])
            if tuples is not None:
                settings = {**settings, "max_ngram_order": max(len(t) for t in tuples)}
        return settings

    # ------------------------------------------------------------------ statistics
    def columns(self, config: Config) -> tuple[str, ...]:
        return columns(config.max_ngram_order)

    def segment_stats(self, hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
        return segment_rows(hyps, refs, config)

    # ------------------------------------------------------------------ scores
    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        last = stats.rows[-1:] if len(stats) else None
        scored = score_rows(stats.total()[None, :], config, last, stats.columns)
        return float(scored.values[0]), scored.components(0)

    def sums_suffice(self, config: Config) -> bool:
        """:meth:`score_stats` reads the column sums only, unless NLTK methods 5-7 read the last row."""
        return not reads_last_segment(config)

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> RowScores:
        """Each row scored as a corpus of its own (it is its own last segment)."""
        scored = score_rows(stats.rows, config, stats.rows, stats.columns)
        return RowScores(scored.values, scored.components)

    # ------------------------------------------------------------------ resampling
    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """Corpus BLEU of many summed rows at once (bootstrap, approximate randomisation, leave-one-out).

        The same scorer as :meth:`score_stats`. float32 sums under ``resample_arithmetic=float32``
        get sacrebleu 2.x's float32 resampling arithmetic (:mod:`assay.metrics.bleu.score`);
        float64 sums are scored exactly. Configurations that read the last segment (NLTK methods
        5-7) are not a function of sums: KnobError.
        """
        sums = np.asarray(sums)
        if config.epsilon != "coco":
            if reads_last_segment(config):
                raise KnobError(f"bleu: smooth_method={config.smooth_method} reads the last segment, so the "
                                "corpus score is not a function of summed statistics (no resampling)")
            n = config.max_ngram_order
            if sums.ndim != 2 or sums.shape[1] not in (2 + 2 * n, len(self.columns(config))):
                raise KnobError(f"bleu: sums of shape {sums.shape} do not match max_ngram_order={n}")
        return score_rows(sums, config).values


FAMILY = Bleu()
