"""GLEU's statistics stage: text -> one row per segment.

Row: ``matches, total, sentence, segments`` for the reference the segment keeps, with every order
n in ``min_ngram_order..max_ngram_order`` pooled (Wu et al. 2016, §7; NLTK ``gleu_score``):

- ``matches = sum_n sum_g min(count_hyp(g), count_ref(g))``, clipped against **one** reference
  (not against the maximum over references, as BLEU clips);
- ``total = max(hyp n-grams, ref n-grams)`` over the same orders (a side of length L has
  ``max(0, L - n + 1)`` n-grams of order n), so ``matches / total = min(precision, recall)``;
- ``sentence = matches / total`` (0 when ``total`` is 0), ``segments = 1``: what
  ``averaging=segments`` averages.

The reference kept (``multi_ref=best``, NLTK): among the references with ``total > 0``, the one with
the highest ``matches / total`` (float64 division, as NLTK's ``max`` compares them), the first one
on ties; a segment whose every reference has ``total = 0`` (empty hypothesis and empty references),
or that has none, adds ``0, 0``. ``multi_ref=first`` keeps the segment's first reference (that of the
first stream that has one), whatever its ratio.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from assay.core.family import Refs, Segments
from assay.core.knobs import Config
from assay.core.stats import SegmentStats
from assay.text.ngrams import Encoded, clipped_matches, encode
from assay.text.segments import tokenize_refs, tokenize_segments

COLUMNS = ("matches", "total", "sentence", "segments")


def ngram_totals(lengths: np.ndarray, low: int, high: int) -> np.ndarray:
    """Number of n-grams of orders ``low..high`` in sequences of the given lengths."""
    lengths = np.asarray(lengths, dtype=np.float64)
    total = np.zeros_like(lengths)
    for n in range(low, high + 1):
        total += np.maximum(lengths - n + 1, 0.0)
    return total


def segment_rows(hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
    """The rows of every segment (reads text- and statistics-stage knobs only)."""
    low, high = config.min_ngram_order, config.max_ngram_order
    hyp_toks = tokenize_segments(hyps, config)
    streams = tokenize_refs(refs, config)
    n_seg = len(hyp_toks)
    vocab: dict[str, int] = {}
    hyp_side = encode(hyp_toks, vocab)
    hyp_total = ngram_totals(hyp_side.lengths, low, high)
    best_m, best_t = np.zeros(n_seg), np.zeros(n_seg)
    best_ratio = np.full(n_seg, -np.inf)
    taken = np.zeros(n_seg, dtype=bool)       # multi_ref=first: the segment's first reference is kept
    for stream in streams:
        m, t, present = _against(hyp_side, hyp_total, stream, vocab, low, high)
        if config.multi_ref == "first":
            better = present & ~taken
            taken |= present
        else:
            usable = present & (t > 0)
            ratio = np.where(usable, m / np.where(usable, t, 1.0), -np.inf)
            better = usable & (ratio > best_ratio)
            best_ratio = np.where(better, ratio, best_ratio)
        best_m = np.where(better, m, best_m)
        best_t = np.where(better, t, best_t)
    sentence = np.where(best_t > 0, best_m / np.where(best_t > 0, best_t, 1.0), 0.0)
    rows = np.column_stack([best_m, best_t, sentence, np.ones(n_seg)]) if n_seg else np.zeros((0, len(COLUMNS)))
    return SegmentStats(COLUMNS, rows)


def _against(hyp_side: Encoded, hyp_total: np.ndarray, stream: Sequence[Sequence[str] | None],
             vocab: dict[str, int], low: int, high: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pooled clipped matches and ``max(hyp, ref)`` totals of every segment against one reference
    stream, and which of its references are present."""
    present = np.fromiter((t is not None for t in stream), dtype=bool, count=len(stream))
    ref_side = encode([t or [] for t in stream], vocab)
    matches = clipped_matches([hyp_side, ref_side], high)[:, low - 1:high].sum(axis=1)
    total = np.maximum(hyp_total, ngram_totals(ref_side.lengths, low, high))
    return matches, total, present
