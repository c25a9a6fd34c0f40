"""METEOR: NLTK's ``meteor_score`` (``algorithm=nltk``) and the METEOR 1.5 jar (``algorithm=meteor-1.5``).

``algorithm=nltk`` is :mod:`assay.metrics.meteor.nltk_rows` (NLTK's greedy exact / Porter-stem /
WordNet stages, max over references; corpus = mean of segment scores, assay's choice since NLTK
has none). ``algorithm=meteor-1.5`` is :mod:`assay.metrics.meteor.meteor15` (the jar as
pycocoevalcap runs it: ``-norm``, exact/stem/synonym/paraphrase, δ function-word weighting, corpus
score from summed statistics). The knobs are in :mod:`assay.metrics.meteor.knobs`.

Each algorithm has one scorer of summed rows (``scores_from_sums``); the corpus score is it on
the column sums, a sentence score on the segment's own row, a resample on the resample's sums.
"""
from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from assay.core.family import MetricFamily, Refs, Segments
from assay.core.knobs import Config
from assay.core.score import RowScores
from assay.core.stats import SegmentStats
from assay.metrics.meteor import nltk_rows
from assay.metrics.meteor.knobs import KNOBS
from assay.metrics.meteor.meteor15 import stats as meteor15

__all__ = ["FAMILY", "KNOBS", "Meteor"]


class Meteor(MetricFamily):
    name = "meteor"
    knobset = KNOBS

    def segment_stats(self, hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
        if config.algorithm == "meteor-1.5":
            return meteor15.segment_stats(hyps, refs, config)
        return nltk_rows.segment_stats(hyps, refs, config)

    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """The score of each summed row: the jar's EVAL (meteor-1.5) or Σscore / Σsegments (nltk)."""
        if config.algorithm == "meteor-1.5":
            return meteor15.scores_from_sums(sums, config)
        return nltk_rows.scores_from_sums(sums)

    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        sums = stats.rows[0] if len(stats) == 1 else stats.total()
        value = float(self.scores_from_sums(sums[None, :], config)[0])
        if config.algorithm == "meteor-1.5":
            if len(stats) == 1:
                return value, meteor15.components(sums, config)
            return value, meteor15.components(meteor15.corpus_row(stats.rows), config, segments=len(stats))
        if len(stats) == 1:
            return value, nltk_rows.components(sums[0], sums[1], sums[2], sums[3], config)
        return value, {"segments": len(stats), "corpus": "mean of segment scores (assay's choice; NLTK has none)"}

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> RowScores:
        values = self.scores_from_sums(stats.rows, config)
        return RowScores(values, partial(_row_components, stats.rows, config))


def _row_components(rows: np.ndarray, config: Config, i: int) -> dict[str, Any]:
    """Row i's components (METEOR 1.5's from the whole row; NLTK's from its first four columns)."""
    row = rows[i].tolist()
    if config.algorithm == "meteor-1.5":
        return meteor15.components(row, config)
    return nltk_rows.components(row[0], row[1], row[2], row[3], config)


FAMILY = Meteor()
