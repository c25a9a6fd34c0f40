"""NIST (Doddington 2002) as mteval-v13a/v14 and NLTK compute it, as one family with explicit knobs.

Information weights (a first pass over **all references of all segments**, kept in
``SegmentStats.context``): ``Info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn))``, and for
unigrams ``log2(total reference words / count(w))``. Per order n the score adds
``sum(Info(g) over matched hypothesis n-grams g) / #hypothesis n-grams``; the sum over
n = 1..N (5) is multiplied by the length penalty
``exp(beta * ln^2(min(ratio, 1)))``, ``beta = ln(0.5) / ln^2(1.5)`` (0.5 at ratio 2/3; 1 when
ratio >= 1, 0 when ratio <= 0).

The tools differ only in these knobs (shared/research/bleu_nist.md §3):

- ``multi_ref``: ``union`` (mteval) clips each hypothesis n-gram count by its maximum count over
  all references; ``best-single`` (NLTK) scores each reference alone per order and keeps the one
  with the largest ``(precision, info sum, #n-grams, reference length)`` (the longest reference
  wins a tie, e.g. at precision 0).
- ``ref_length``: ``average`` (mteval) uses ratio = hypothesis words / (reference words / #refs);
  ``chosen`` (NLTK) adds the length of the reference chosen for each order, once per order, and the
  hypothesis length once per order. ``chosen`` needs ``best-single``. ``corpus-mean``
  (e2e-metrics' ``mteval-v13a-sig.pl``, the E2E NLG challenge's NIST) uses ratio = hypothesis words /
  (reference words / m), where m = the number of non-empty references (at least one token) of the
  corpus / the number of segments: the E2E scripts pad missing references with empty segments and
  count only the non-empty ones, for the corpus as a whole (a per-segment average over the present
  references, ``average`` with missing references as ``None``, is another number). Its rows carry
  ``refs_counted`` and ``segments``, so the corpus value is still a function of the summed rows; at
  sentence level the segment's own non-empty references are averaged.
- ``empty_order``: ``zero`` (mteval) divides by ``max(#n-grams, 1)``; ``error`` (NLTK) raises
  ZeroDivisionError when the corpus has no hypothesis n-grams of some order (nltk#3444), and also
  when every reference is empty (its length ratio divides by 0).

With one reference the two tools agree. Each segment's row holds the info sums and n-gram counts per
order and the two penalty accumulators, so the corpus score is a function of the summed rows.

**Sentence level** is NLTK's ``sentence_nist`` semantics for every profile: each segment is scored
as a corpus of its own, i.e. with information weights computed from *its own* references. The rows
carry those segment-context columns (``seg_pen_ref``, ``seg_info1..N``) beside the corpus-context
ones, so subsets and resamples keep both aligned. (mteval's per-segment ``-d 2`` lines use the
corpus-wide weights; that is not reproduced here.)

Knobs: :mod:`assay.metrics.nist.knobs`; presentation: :mod:`assay.output.nist`; profiles:
:mod:`assay.profiles.nist`.

Floating point follows NLTK where it can decide a choice: information weights are
``math.log(ratio, 2)`` of a float ratio, and a reference's info sum is added up left to right in
the order the n-grams first occur in the hypothesis, so exactly tied references tie here too. The
union sums are added in that order as well, so a segment's row does not depend on the other
segments of its chunk (chunked and sharded scoring give the rows of the whole corpus, bit for bit).
Modules: :mod:`.weights` (the corpus context and its first pass as a reduction over chunks),
:mod:`assay.text.ngram_table` (n-grams keyed by integers), :mod:`.matches` (the hot loops: n-gram
codes, weights and matched information, with the compiled twin ``_matches_c``). On the compiled
path a call without a context counts its own references first (the weights of a one-chunk corpus)
and then takes the same path as a chunk under a context; a context that lacks a reference token or
a matched n-gram of the chunk (one of another corpus) falls back to the general path.

Sentence scores are computed for all rows at once (``matches.sentence_values``) and each Score's
components are built only when read (``Score.components``).
"""
from __future__ import annotations

import math
from functools import partial
from typing import Any, Mapping, Sequence

import numpy as np

from assay.core.errors import ToolBehaviourError
from assay.core.family import MetricFamily, Refs, Segments
from assay.core.gcpause import collector_paused
from assay.core.knobs import Config
from assay.core.score import RowScores
from assay.core.stats import SegmentStats
from assay.metrics.nist.knobs import KNOBS
from assay.metrics.nist.matches import context_sums, nist_sums, reference_counts, segment_lengths, sentence_values
from assay.text.ngram_codes import code_ngrams
from assay.text.ngram_table import NgramTable
from assay.metrics.nist.weights import (NistPart, NistWeights, context_part, context_weights, finish, local_info,
                                        merge_parts, own_weights)
from assay.text.ngrams import encode
from assay.text.segments import tokenize_refs, tokenize_segments

BETA = math.log(0.5) / math.log(1.5) ** 2   # penalty 0.5 at ratio 2/3


class Nist(MetricFamily):
    name = "nist"
    knobset = KNOBS
    corpus_pass = True   # information weights / document frequencies come from the whole corpus

    # ------------------------------------------------------------------ statistics
    def columns(self, config: Config) -> tuple[str, ...]:
        n = config.max_ngram_order
        extra = ["refs_counted", "segments"] if config.ref_length == "corpus-mean" else []
        return tuple(["hyp_len", "ref_len", "pen_sys", "pen_ref"] + [f"info{i}" for i in range(1, n + 1)]
                     + [f"total{i}" for i in range(1, n + 1)] + ["seg_pen_ref"]
                     + [f"seg_info{i}" for i in range(1, n + 1)] + extra)

    def segment_stats(self, hyps: Segments, refs: Refs, config: Config,
                      context: Mapping[str, Any] | None = None) -> SegmentStats:
        """Rows for ``hyps``; information weights come from ``refs`` (first pass), or from a
        ``context`` of an earlier call (chunked scoring: the weights of the whole corpus)."""
        with collector_paused():   # token lists are acyclic: no collections while they are made
            hyp_toks = tokenize_segments(hyps, config)
            ref_toks = tokenize_refs(refs, config)
        n_seg = len(hyp_toks)
        n_max = config.max_ngram_order
        weights = None if context is None else context_weights(context, config)
        n_refs = len(ref_toks)
        lengths, present = segment_lengths(hyp_toks, ref_toks)
        hyp_len = lengths[:n_seg].astype(np.float64)
        ref_lens = lengths[n_seg:].reshape(n_refs, n_seg).astype(np.float64)
        seg_words = np.where(present, ref_lens, 0.0).sum(axis=0)
        union = config.multi_ref == "union"
        if weights is None:     # compiled: the weights of these references, counted in one pass
            weights = own_weights(ref_toks, n_max)
        lookup = None if weights is None else weights.lookup(n_max)
        sums = None if lookup is None else context_sums(lookup, hyp_toks, ref_toks, lengths, n_max, seg_words, union)
        if sums is None:
            sums, weights = _local_sums(hyp_toks, ref_toks, n_max, weights, seg_words, union)
        context = {"max_ngram_order": n_max, "weights": weights}
        total = sums.total
        pen_ref = np.zeros(n_seg)
        seg_pen_ref = np.zeros(n_seg)
        average = np.where(present.any(axis=0),
                           np.where(present, ref_lens, 0.0).sum(axis=0) / np.maximum(present.sum(axis=0), 1), 0.0)
        if config.multi_ref == "union":
            info, seg_info = sums.info, sums.seg_info
        else:
            info = np.zeros((n_seg, n_max))
            seg_info = np.zeros((n_seg, n_max))
            for n in range(n_max):
                for per_ref, out, lens_out in ((sums.info[n], info, pen_ref), (sums.seg_info[n], seg_info, seg_pen_ref)):
                    best_sum, best_len = _best_single(per_ref, total[:, n], ref_lens, present)
                    out[:, n] = best_sum
                    if config.ref_length == "chosen":
                        lens_out += best_len
        extra: list[np.ndarray] = []
        if config.ref_length == "chosen":
            pen_sys = hyp_len * n_max
        elif config.ref_length == "corpus-mean":
            counted = (present & (ref_lens > 0)).sum(axis=0).astype(np.float64)
            pen_sys = hyp_len
            pen_ref = seg_words
            average = np.where(counted > 0, seg_words / np.maximum(counted, 1), 0.0)
            seg_pen_ref = average
            extra = [counted[:, None], np.ones((n_seg, 1))]
        else:
            pen_sys = hyp_len
            pen_ref = average
            seg_pen_ref = average
        rows = np.hstack([hyp_len[:, None], average[:, None], pen_sys[:, None], pen_ref[:, None], info, total,
                          seg_pen_ref[:, None], seg_info] + extra)
        return SegmentStats(self.columns(config), rows, context)

    # ------------------------------------------------------------------ the first pass, as a reduction
    def context_part(self, hyps: Segments, refs: Refs, config: Config, ahead: bool = False) -> NistPart:
        """A chunk's reference words and reference n-gram counts (:mod:`.weights`)."""
        return context_part(hyps, refs, config)

    def merge_contexts(self, parts: Sequence[NistPart], config: Config) -> NistPart:
        return merge_parts(parts)

    def finish_context(self, merged: NistPart, config: Config) -> Mapping[str, Any]:
        return finish(merged, config)

    # ------------------------------------------------------------------ scores
    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        n = config.max_ngram_order
        tot = stats.total()
        c = stats.columns
        pen_ref, ref_len = tot[c.index("pen_ref")], tot[c.index("ref_len")]
        if config.ref_length == "corpus-mean":   # reference words / (non-empty references / segments)
            counted = tot[c.index("refs_counted")]
            pen_ref = ref_len = pen_ref * tot[c.index("segments")] / counted if counted else 0.0
        return nist_from_sums(tot[c.index("info1"):c.index("info1") + n], tot[c.index("total1"):c.index("total1") + n],
                              tot[c.index("pen_sys")], pen_ref, tot[c.index("hyp_len")], ref_len, config)

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> RowScores:
        """Each segment as a corpus of its own (NLTK sentence_nist): the segment-context columns."""
        at = _SentenceColumns(stats.columns, config.max_ngram_order)
        rows = np.ascontiguousarray(stats.rows, dtype=np.float64)
        values = sentence_values(rows, at.info, at.total, at.pen_sys, at.pen_ref, config.max_ngram_order, BETA,
                                 config.empty_order == "zero")
        if values is None:      # the pure path: every row through nist_from_sums
            return RowScores.of_pairs([at.score(row, config) for row in rows])
        if values[1] is not None:   # a row nist_from_sums refuses: raise its error
            at.score(rows[values[1]], config)
        return RowScores(values[0], partial(_sentence_components, rows, at, config))


class _SentenceColumns:
    """Where a row's sentence-level inputs are (the segment-context columns)."""

    def __init__(self, columns: Sequence[str], n: int):
        c = list(columns)
        self.n = n
        self.info, self.total = c.index("seg_info1"), c.index("total1")
        self.pen_sys, self.pen_ref = c.index("pen_sys"), c.index("seg_pen_ref")
        self.hyp_len, self.ref_len = c.index("hyp_len"), c.index("ref_len")

    def score(self, row: np.ndarray, config: Config) -> tuple[float, dict[str, Any]]:
        return nist_from_sums(row[self.info:self.info + self.n], row[self.total:self.total + self.n],
                              row[self.pen_sys], row[self.pen_ref], row[self.hyp_len], row[self.ref_len], config)


def _sentence_components(rows: np.ndarray, at: _SentenceColumns, config: Config, i: int) -> dict[str, Any]:
    """Segment i's components (called when ``Score.components`` is first read)."""
    return at.score(rows[i], config)[1]


def nist_from_sums(info: Sequence[float], total: Sequence[float], pen_sys: float, pen_ref: float,
                   hyp_len: float, ref_len: float, config: Config) -> tuple[float, dict[str, Any]]:
    """NIST from summed rows: sum over orders of info/#n-grams, times the length penalty."""
    info = [float(x) for x in info]
    total = [float(t) for t in total]
    per_order = []
    for i, (s, t) in enumerate(zip(info, total)):
        if t == 0:
            if config.empty_order == "error":
                raise ToolBehaviourError(f"the hypotheses have no {i + 1}-grams: NLTK's corpus_nist divides by "
                                         "their number, 0", "ZeroDivisionError")
            t = 1.0
        per_order.append(s / t)
    precision = 0.0
    for value in per_order:
        precision += value
    if pen_ref == 0:
        if config.empty_order == "error":
            raise ToolBehaviourError("every reference is empty: NLTK's NIST length ratio divides by a reference "
                                     "length of 0", "ZeroDivisionError")
        ratio = math.inf if pen_sys > 0 else 0.0   # mteval dies here; with no reference n-grams the score is 0
    else:
        ratio = pen_sys / pen_ref
    penalty = length_penalty(ratio)
    value = precision * penalty
    components = {"info": info, "totals": [int(t) if float(t).is_integer() else t for t in total],
                  "per_order": per_order, "precision_sum": precision, "penalty": float(penalty),
                  "ratio": float(ratio) if math.isfinite(ratio) else 0.0, "sys_len": int(hyp_len),
                  "ref_len": float(ref_len)}
    return value, components


def length_penalty(ratio: float) -> float:
    """exp(beta * ln^2(ratio)) for 0 < ratio < 1; 1 for ratio >= 1; 0 for ratio <= 0."""
    if 0 < ratio < 1:
        return math.exp(BETA * math.log(ratio) ** 2)
    return max(min(ratio, 1.0), 0.0)


# ---------------------------------------------------------------------- helpers
def _local_sums(hyp_toks: Sequence[Sequence[str]], ref_toks: Sequence[Sequence[Sequence[str] | None]], n_max: int,
                weights: NistWeights | None, seg_words: np.ndarray, union: bool) -> tuple[Any, NistWeights]:
    """The segments' sums with n-grams coded over these segments: the corpus weights from their own
    references (no context; they become the context returned), or looked up in ``weights``."""
    vocab: dict[str, int] = {}
    ref_sides = [encode([t or [] for t in s], vocab) for s in ref_toks]
    hyp_side = encode(hyp_toks, vocab)
    n_seg, n_refs = len(hyp_toks), len(ref_sides)
    sides = [hyp_side] + ref_sides
    ids = np.concatenate([s.ids for s in sides])
    offsets = np.concatenate([[0], np.cumsum(np.concatenate([s.lengths for s in sides]))]).astype(np.int64)
    coded = code_ngrams(ids, offsets, n_max, len(vocab))
    tokens = list(vocab)
    # corpus information weights, by local code: from these references, or from the context
    if weights is None:
        counts = reference_counts(coded, int(offsets[n_seg]))
        ref_words = int(len(ids) - offsets[n_seg])
        corpus_info = local_info(counts, coded.prefix, ref_words)
        weights = NistWeights(ref_words, NgramTable.from_codes(tokens, coded.prefix, coded.last, counts))
    else:
        corpus_info = weights.info_of(tokens, coded.prefix, coded.last, coded.n_codes)
    return nist_sums(coded, offsets, n_seg, n_refs, corpus_info, seg_words, union), weights


def _best_single(sums: np.ndarray, totals: np.ndarray, ref_lens: np.ndarray, present: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Per segment, NLTK's ``max`` over references of (precision, info sum, #n-grams, length)."""
    n_refs, n_seg = sums.shape
    if n_refs == 0:
        return np.zeros(n_seg), np.zeros(n_seg)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(totals[None, :] > 0, sums / np.where(totals[None, :] > 0, totals[None, :], 1), 0.0)
    precision = np.where(present, precision, -np.inf)
    best = np.zeros(n_seg, dtype=np.int64)
    best_found = present[0].copy()
    for r in range(1, n_refs):
        bp, bs, bl = (precision[best, np.arange(n_seg)], sums[best, np.arange(n_seg)],
                      ref_lens[best, np.arange(n_seg)])
        better = (precision[r] > bp) | ((precision[r] == bp) & ((sums[r] > bs) | ((sums[r] == bs) & (ref_lens[r] > bl))))
        better = present[r] & (better | ~best_found)
        best = np.where(better, r, best)
        best_found |= present[r]
    cols = np.arange(n_seg)
    return (np.where(best_found, sums[best, cols], 0.0), np.where(best_found, ref_lens[best, cols], 0.0))


FAMILY = Nist()
