"""chrF and chrF++ (Popović 2015, 2016/2017) as sacrebleu 2.x, sacrebleu 1.x, NLTK and torchmetrics compute them.

Each segment becomes one row of per-order counts (hypothesis n-grams, reference n-grams,
matches; :mod:`.counts`) of the strings the text stage gives (:mod:`.text`); the one scorer
(:mod:`.score`) turns rows or their sums into scores. The tools differ only in knobs
(:mod:`.knobs`; black-box behaviour, shared/research/bleu_nist.md §1.6 and the chrF tests):

- ``hyp_count_without_ref``: sacrebleu 2.x counts no hypothesis n-grams of an order the reference has
  none of (``zero``), so an empty reference line adds nothing to the corpus; 1.x and NLTK ``keep`` them.
- ``multi_ref``: ``best`` (2.x) keeps, per segment, the statistics of the reference with the highest
  sentence score (strictly higher; the first wins ties); ``first`` (1.x) reads only the first stream.
- ``averaging``: ``corpus`` sums the statistics over segments, then scores (sacrebleu);
  ``segments`` is the mean of the sentence scores (NLTK ``corpus_chrf``): the row then also holds
  its sentence score (0-1) and a segment count.
- ``missing_ref``: a missing (None) reference is skipped (2.x; a segment without any fails), ignored
  (torchmetrics: a segment without any adds its hypothesis n-grams only) or fails at once (1.x:
  EOFError, NLTK: TypeError).
- ``zero_score_ref``: ``drop`` (torchmetrics) counts no reference statistics for a segment whose
  every reference has sentence score 0; ``keep`` counts the first reference's.

Reading files (only matters with ``whitespace=True``): sacrebleu 2.x's CLI ``rstrip``s each line,
1.x's CLI keeps each line's ``"\n"``; the APIs score the strings as given, and so does this module.
"""
from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from assay.core import corpus_cache
from assay.core.errors import ToolBehaviourError
from assay.core.items import has_none, presence
from assay.core.family import MetricFamily, Refs, Segments
from assay.core.knobs import Config
from assay.core.score import RowScores
from assay.core.stats import SegmentStats
from assay.metrics.chrf.counts import ngram_counts, text_counts
from assay.metrics.chrf.knobs import KNOBS
from assay.metrics.chrf.score import (chrf_values, float32_python_float_mask, metric_name, orders,
                                      scores_from_sums)
from assay.metrics.chrf.text import segment_text


class Chrf(MetricFamily):
    name = "chrf"
    knobset = KNOBS

    def columns(self, config: Config) -> tuple[str, ...]:
        cols = [f"{kind}{n}_{part}" for kind, n in orders(config) for part in ("hyp", "ref", "match")]
        if config.averaging == "segments":
            cols += ["sentence", "segments"]
        return tuple(cols)

    # ------------------------------------------------------------------ statistics
    def segment_stats(self, hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
        hyp_texts = [h if type(h) is str else segment_text(h, i, "hypothesis", config) for i, h in enumerate(hyps)]
        streams = self._reference_streams(refs, len(hyp_texts), config)
        if config.lowercase:
            hyp_texts = [t.lower() for t in hyp_texts]
            streams = [[None if t is None else t.lower() for t in s] for s in streams]
        n_seg = len(hyp_texts)
        present = presence(streams, n_seg)
        hyp_cnt, ref_cnt, match = [], [], []   # per order kind: (n_refs, n_seg, orders) arrays
        if config.char_order:
            char_orders = list(range(config.min_char_order, config.char_order + 1))
            self._add_counts(hyp_texts, streams, False, char_orders, config, hyp_cnt, ref_cnt, match)
        if config.word_order:
            self._add_counts(hyp_texts, streams, True, list(range(1, config.word_order + 1)), config,
                             hyp_cnt, ref_cnt, match)
        hyp_all = np.concatenate(hyp_cnt, axis=2)
        ref_all = np.concatenate(ref_cnt, axis=2)
        match_all = np.concatenate(match, axis=2)
        chosen, scored = self._choose(hyp_all, ref_all, match_all, present, config)
        cols = np.arange(n_seg)
        h, r, m = hyp_all[chosen, cols], ref_all[chosen, cols], match_all[chosen, cols]
        if config.zero_score_ref == "drop":
            h, r, m = _drop_unscored(h, r, m, scored, config)
        rows = np.stack([h, r, m], axis=2).reshape(n_seg, -1)
        if config.averaging == "segments":
            rows = np.hstack([rows, chrf_values(h, r, m, config)[:, None], np.ones((n_seg, 1))])
        return SegmentStats(self.columns(config), rows)

    def _reference_streams(self, refs: Refs, n_seg: int, config: Config) -> list[list[str | None]]:
        streams = []
        for k, stream in enumerate(refs):
            # plain strings pass as they are; anything else (None, token lists) is checked in order
            streams.append([r if type(r) is str else _reference(r, i, k, config) for i, r in enumerate(stream)])
        if config.multi_ref == "first":
            streams = streams[:1]
        if streams and not any(map(has_none, streams)):
            return streams
        if config.missing_ref == "ignore":           # torchmetrics: an empty list of references scores 0
            return streams
        for i in range(n_seg):
            if all(s[i] is None for s in streams):   # sacrebleu 2.x sums an empty statistics list
                error = "ValueError" if n_seg == 1 else "IndexError"
                raise ToolBehaviourError(f"segment {i + 1} has no reference: sacrebleu 2.x fails here ({error})",
                                         error)
        return streams

    def _add_counts(self, hyp_texts: list[str], streams: list[list[str | None]], words: bool,
                    kind_orders: list[int], config: Config, hyp_cnt: list, ref_cnt: list, match: list) -> None:
        """Append the (hyp, ref, match) count arrays of one kind (characters, or chrF++ words)."""
        top = max(kind_orders)
        # the counts depend on the texts and these knobs only: kept for the next configuration
        key = ("chrf-counts", words, top, bool(config.whitespace), config.whitespace_set)
        cached = corpus_cache.get(key, hyp_texts, streams)
        if cached is None:
            cached = text_counts(hyp_texts, streams, words, top, config)
            for a in cached:
                a.setflags(write=False)
            corpus_cache.put(key, hyp_texts, streams, cached)
        h_len, r_len, m = cached
        m = m[:, :, min(kind_orders) - 1:top]
        h = np.broadcast_to(ngram_counts(h_len, kind_orders)[None], m.shape)
        r = ngram_counts(r_len, kind_orders)
        if config.hyp_count_without_ref == "zero":
            h = np.where(r > 0, h, 0.0)
        hyp_cnt.append(np.array(h))
        ref_cnt.append(r)
        match.append(m)

    def _choose(self, hyp: np.ndarray, ref: np.ndarray, match: np.ndarray, present: np.ndarray,
                config: Config) -> tuple[np.ndarray, np.ndarray | None]:
        """Index of the reference kept per segment (the highest sentence score, the first on ties),
        and, for ``zero_score_ref=drop``, that reference's sentence score (-inf: no reference);
        None when not needed."""
        n_refs, n_seg = present.shape
        best = np.zeros(n_seg, dtype=np.int64)
        drop = config.zero_score_ref == "drop"
        if (n_refs == 1 or config.multi_ref == "first") and not drop:
            return best, None
        best_f = np.full(n_seg, -np.inf)
        for k in range(1 if config.multi_ref == "first" else n_refs):
            f = np.where(present[k], chrf_values(hyp[k], ref[k], match[k], config), -np.inf)
            better = f > best_f
            best = np.where(better, k, best)
            best_f = np.where(better, f, best_f)
        return best, (best_f if drop else None)

    # ------------------------------------------------------------------ scores
    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """chrF of summed rows (:func:`.score.scores_from_sums`: float64, or sacrebleu's float32
        arithmetic for float32 sums under ``resample_arithmetic=float32``)."""
        return scores_from_sums(sums, config)

    def float32_python_float_mask(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """Which of :meth:`scores_from_sums` are Python floats in the tool (:func:`.score.float32_python_float_mask`)."""
        return float32_python_float_mask(sums, config)

    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        total = np.asarray(stats.total(), dtype=np.float64)     # corpus scores: float64 arithmetic
        value = float(scores_from_sums(total[None, :], config)[0])
        return value, _components(total, config)

    def sums_suffice(self, config: Config) -> bool:
        """:meth:`score_stats` reads the column sums only (both ``averaging`` modes)."""
        return True

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> RowScores:
        rows = np.asarray(stats.rows, dtype=np.float64)
        return RowScores(scores_from_sums(rows, config), partial(_row_components, rows, config))


def _drop_unscored(h: np.ndarray, r: np.ndarray, m: np.ndarray, scored: np.ndarray | None,
                   config: Config) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``zero_score_ref=drop``: a segment whose kept reference scores 0 (or that has none) keeps its
    hypothesis counts but no reference counts or matches (torchmetrics starts its best score at 0 and
    keeps a reference only when it scores strictly more). ``hyp_count_without_ref=zero`` then zeroes
    the hypothesis counts too, as for any order without reference n-grams."""
    assert scored is not None
    dropped = ~(scored > 0)
    if not dropped.any():
        return h, r, m
    r = np.where(dropped[:, None], 0.0, r)
    m = np.where(dropped[:, None], 0.0, m)
    if config.hyp_count_without_ref == "zero":
        h = np.where(r > 0, h, 0.0)
    return h, r, m


def _reference(r: Any, i: int, k: int, config: Config) -> str | None:
    """Reference ``i`` of stream ``k`` as a string; None when missing (``missing_ref=skip``/``ignore``), else the
    tool's error."""
    if r is None:
        if config.missing_ref not in ("skip", "ignore"):
            raise ToolBehaviourError(
                f"reference stream {k + 1}, segment {i + 1} is missing: the tool fails on a missing "
                f"reference ({config.missing_ref})", config.missing_ref)
        return None
    return segment_text(r, i, f"reference stream {k + 1}, segment", config)


def _row_components(rows: np.ndarray, config: Config, i: int) -> dict[str, Any]:
    return _components(rows[i], config)


def _components(row: np.ndarray, config: Config) -> dict[str, Any]:
    k = len(orders(config))
    stats = [int(x) if float(x).is_integer() else float(x) for x in row[:3 * k].tolist()]
    out: dict[str, Any] = {"stats": stats, "name": metric_name(config)}
    if config.averaging == "segments":
        out["segments"] = int(row[-1])
    return out


FAMILY = Chrf()
