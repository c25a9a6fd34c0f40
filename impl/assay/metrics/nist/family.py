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
  hypothesis length once per order. ``chosen`` needs ``best-single``.
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
the order the n-grams first occur in the hypothesis, so exactly tied references tie here too.
"""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np

from assay.core.errors import KnobError, ToolBehaviourError
from assay.core.family import MetricFamily, Refs, Segments
from assay.core.knobs import Config
from assay.core.stats import SegmentStats
from assay.metrics.nist.knobs import KNOBS
from assay.text.ngrams import Encoded, NgramIndex, encode
from assay.text.segments import tokenize_refs, tokenize_segments

BETA = math.log(0.5) / math.log(1.5) ** 2   # penalty 0.5 at ratio 2/3


class Nist(MetricFamily):
    name = "nist"
    knobset = KNOBS
    corpus_pass = True   # information weights / document frequencies come from the whole corpus

    # ------------------------------------------------------------------ statistics
    def columns(self, config: Config) -> tuple[str, ...]:
        n = config.max_ngram_order
        return tuple(["hyp_len", "ref_len", "pen_sys", "pen_ref"] + [f"info{i}" for i in range(1, n + 1)]
                     + [f"total{i}" for i in range(1, n + 1)] + ["seg_pen_ref"]
                     + [f"seg_info{i}" for i in range(1, n + 1)])

    def segment_stats(self, hyps: Segments, refs: Refs, config: Config,
                      context: Mapping[str, Any] | None = None) -> SegmentStats:
        """Rows for ``hyps``; information weights come from ``refs`` (first pass), or from a
        ``context`` of an earlier call (chunked scoring: the weights of the whole corpus)."""
        hyp_toks = tokenize_segments(hyps, config)
        ref_toks = tokenize_refs(refs, config)
        n_seg = len(hyp_toks)
        n_max = config.max_ngram_order
        if context is None:
            vocab: dict[str, int] = {}
            ref_sides = [encode([t or [] for t in s], vocab) for s in ref_toks]
            ctx_side = _concat_sides(ref_sides)
            context = {"vocab": dict(vocab), "ref_ids": ctx_side.ids, "ref_offsets": ctx_side.offsets,
                       "ref_words": int(len(ctx_side.ids)), "max_ngram_order": n_max}
            hyp_side = encode(hyp_toks, vocab)
        else:
            if context.get("max_ngram_order") != n_max:
                raise KnobError("the NIST context was computed for another max_ngram_order")
            vocab = dict(context["vocab"])
            ref_sides = [encode([t or [] for t in s], vocab) for s in ref_toks]
            ctx_side = Encoded(context["ref_ids"], context["ref_offsets"])
            hyp_side = encode(hyp_toks, vocab)
        n_refs = len(ref_sides)
        present = np.array([[t is not None for t in s] for s in ref_toks], dtype=bool).reshape(n_refs, n_seg)
        ref_lens = (np.vstack([s.lengths for s in ref_sides]).astype(np.float64) if n_refs
                    else np.zeros((0, n_seg)))
        hyp_len = hyp_side.lengths.astype(np.float64)

        index = NgramIndex([hyp_side] + ref_sides + [ctx_side], n_max)
        ctx = n_refs + 1
        ref_ids = list(range(1, n_refs + 1))
        prefixes = _prefix_maps(index)

        # corpus information weights (by code) and per-segment ones (by segment*n_codes+code)
        corpus_info = _corpus_info(index, ctx, prefixes, float(context["ref_words"]))
        seg_words = np.where(present, ref_lens, 0.0).sum(axis=0)

        info = np.zeros((n_seg, n_max))
        seg_info = np.zeros((n_seg, n_max))
        total = np.zeros((n_seg, n_max))
        pen_ref = np.zeros(n_seg)
        seg_pen_ref = np.zeros(n_seg)
        average = np.where(present.any(axis=0),
                           np.where(present, ref_lens, 0.0).sum(axis=0) / np.maximum(present.sum(axis=0), 1), 0.0)
        seg_counts_prev = None
        for n in range(1, n_max + 1):
            nc = index.n_codes[n - 1]
            hyp = index.side_counts(0, n)
            codes = hyp.codes(nc)
            segs = hyp.segments(nc)
            total[:, n - 1] = np.bincount(segs, weights=hyp.counts, minlength=n_seg)[:n_seg]
            w_corpus = corpus_info[n - 1][codes]
            seg_counts = _merge_counts([index.side_counts(r, n) for r in ref_ids])
            w_seg = _segment_info(seg_counts, hyp, n, nc, index, prefixes, seg_counts_prev, seg_words)
            seg_counts_prev = seg_counts
            if config.multi_ref == "union":
                clipped = index.clip(hyp, index.max_ref_counts(n, ref_ids)).astype(np.float64)
                info[:, n - 1] = np.bincount(segs, weights=_terms(w_corpus, clipped), minlength=n_seg)[:n_seg]
                seg_info[:, n - 1] = np.bincount(segs, weights=_terms(w_seg, clipped), minlength=n_seg)[:n_seg]
            else:
                order = _first_occurrence_order(index, n, hyp)
                clips = [index.clip(hyp, index.side_counts(r, n)).astype(np.float64) for r in ref_ids]
                for weights, out, lens_out in ((w_corpus, info, pen_ref), (w_seg, seg_info, seg_pen_ref)):
                    sums = np.vstack([_ordered_sums(segs[order], _terms(weights, c)[order], n_seg)
                                      for c in clips]) if clips else np.zeros((0, n_seg))
                    best_sum, best_len = _best_single(sums, total[:, n - 1], ref_lens, present)
                    out[:, n - 1] = best_sum
                    if config.ref_length == "chosen":
                        lens_out += best_len
        if config.ref_length == "chosen":
            pen_sys = hyp_len * n_max
        else:
            pen_sys = hyp_len
            pen_ref = average
            seg_pen_ref = average
        rows = np.hstack([hyp_len[:, None], average[:, None], pen_sys[:, None], pen_ref[:, None], info, total,
                          seg_pen_ref[:, None], seg_info])
        return SegmentStats(self.columns(config), rows, context)

    # ------------------------------------------------------------------ scores
    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        n = config.max_ngram_order
        tot = stats.total()
        c = stats.columns
        return nist_from_sums(tot[c.index("info1"):c.index("info1") + n], tot[c.index("total1"):c.index("total1") + n],
                              tot[c.index("pen_sys")], tot[c.index("pen_ref")], tot[c.index("hyp_len")],
                              tot[c.index("ref_len")], config)

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> list[tuple[float, dict[str, Any]]]:
        """Each segment as a corpus of its own (NLTK sentence_nist): the segment-context columns."""
        n = config.max_ngram_order
        c = stats.columns
        out = []
        for row in stats.rows:
            out.append(nist_from_sums(row[c.index("seg_info1"):c.index("seg_info1") + n],
                                      row[c.index("total1"):c.index("total1") + n], row[c.index("pen_sys")],
                                      row[c.index("seg_pen_ref")], row[c.index("hyp_len")],
                                      row[c.index("ref_len")], config))
        return out


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
def _concat_sides(sides: Sequence[Encoded]) -> Encoded:
    """All reference streams as one side (segments of stream 1, then stream 2, ...)."""
    if not sides:
        return Encoded(np.zeros(0, np.int64), np.zeros(1, np.int64))
    ids = np.concatenate([s.ids for s in sides])
    lengths = np.concatenate([s.lengths for s in sides])
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return Encoded(ids, offsets)


def _prefix_maps(index: NgramIndex) -> list[np.ndarray | None]:
    """prefix[n-1][code of an n-gram] = code of its (n-1)-gram prefix (None for n = 1)."""
    out: list[np.ndarray | None] = [None]
    for n in range(2, index.max_order + 1):
        valid = index.valid[n - 1]
        prefix = np.zeros(index.n_codes[n - 1], dtype=np.int64)
        prefix[index.codes[n - 1][valid]] = index.codes[n - 2][valid]
        out.append(prefix)
    return out


def _log2_ratios(numerators: np.ndarray, denominators: np.ndarray) -> np.ndarray:
    """``math.log(num / den, 2)`` elementwise (NLTK's float), computed once per distinct pair."""
    out = np.zeros(len(numerators))
    ok = denominators > 0
    if not ok.any():
        return out
    num = numerators[ok].astype(np.int64)      # counts: whole numbers
    den = denominators[ok].astype(np.int64)
    radix = int(den.max()) + 1
    uniq, inverse = np.unique(num * radix + den, return_inverse=True)
    logs = np.array([math.log(int(k // radix) / int(k % radix), 2) for k in uniq.tolist()])
    out[ok] = logs[inverse.reshape(-1)]
    return out


def _corpus_info(index: NgramIndex, ctx_side: int, prefixes: list[np.ndarray | None], ref_words: float
                 ) -> list[np.ndarray]:
    """Information weight of every n-gram code (0 where the references do not have it)."""
    out = []
    prev_counts = None
    for n in range(1, index.max_order + 1):
        nc = index.n_codes[n - 1]
        counts_side = index.side_counts(ctx_side, n)
        counts = np.bincount(counts_side.codes(nc), weights=counts_side.counts, minlength=nc)[:nc]
        if n == 1:
            numer = np.full(nc, ref_words)
        else:
            numer = prev_counts[prefixes[n - 1]]
        out.append(_log2_ratios(numer, counts))
        prev_counts = counts
    return out


def _merge_counts(parts: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Sum the counts of several sides per (segment, code) key: (sorted keys, counts)."""
    if not parts:
        return np.zeros(0, np.int64), np.zeros(0, np.float64)
    keys = np.concatenate([p.keys for p in parts])
    counts = np.concatenate([p.counts for p in parts]).astype(np.float64)
    uniq, inverse = np.unique(keys, return_inverse=True)
    return uniq, np.bincount(inverse.reshape(-1), weights=counts, minlength=len(uniq))


def _lookup(keys: np.ndarray, values: np.ndarray, query: np.ndarray) -> np.ndarray:
    """values[keys == query] for each query key (0 where absent)."""
    if len(keys) == 0:
        return np.zeros(len(query))
    pos = np.minimum(np.searchsorted(keys, query), len(keys) - 1)
    return np.where(keys[pos] == query, values[pos], 0.0)


def _segment_info(seg_counts: tuple[np.ndarray, np.ndarray], hyp: Any, n: int, nc: int, index: NgramIndex,
                  prefixes: list[np.ndarray | None], prev: tuple[np.ndarray, np.ndarray] | None,
                  seg_words: np.ndarray) -> np.ndarray:
    """Information weight of each hypothesis (segment, n-gram) key from that segment's references only."""
    keys, counts = seg_counts
    count = _lookup(keys, counts, hyp.keys)
    segs = hyp.segments(nc)
    if n == 1:
        numer = seg_words[segs]
    else:
        prefix_key = segs * index.n_codes[n - 2] + prefixes[n - 1][hyp.codes(nc)]
        numer = _lookup(prev[0], prev[1], prefix_key)
    return _log2_ratios(numer, count)


def _terms(weights: np.ndarray, clipped: np.ndarray) -> np.ndarray:
    """info * clipped count, 0 where nothing is matched."""
    return np.where(clipped > 0, weights * clipped, 0.0)


def _first_occurrence_order(index: NgramIndex, n: int, hyp: Any) -> np.ndarray:
    """Permutation of the hypothesis keys into the order they first occur in their segment."""
    nc = index.n_codes[n - 1]
    lo, hi = index._side_bounds[0], index._side_bounds[1]
    valid = index.valid[n - 1][lo:hi]
    keys = index._seg_of_pos[lo:hi][valid] * nc + index.codes[n - 1][lo:hi][valid]
    _, first = np.unique(keys, return_index=True)     # aligned with hyp.keys (same sorted uniques)
    return np.argsort(first, kind="stable")


def _ordered_sums(segs: np.ndarray, values: np.ndarray, n_seg: int) -> np.ndarray:
    """Per-segment sums added strictly left to right (segs sorted, values in that order)."""
    out = np.zeros(n_seg)
    if len(segs) == 0:
        return out
    starts = np.ones(len(segs), dtype=bool)
    starts[1:] = segs[1:] != segs[:-1]
    first_of = np.maximum.accumulate(np.where(starts, np.arange(len(segs)), 0))
    rank = np.arange(len(segs)) - first_of
    by_rank = np.argsort(rank, kind="stable")
    bounds = np.searchsorted(rank[by_rank], np.arange(int(rank.max()) + 2))
    for k in range(len(bounds) - 1):      # the k-th term of every segment at once: no segment repeats
        pick = by_rank[bounds[k]:bounds[k + 1]]
        out[segs[pick]] += values[pick]
    return out


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
