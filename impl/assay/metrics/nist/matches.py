"""NIST's hot loops: n-gram codes, information weights and each segment's matched information.

The hypotheses and the reference streams are one flat id array with offsets: the ``n_seg``
hypotheses, then stream 1's ``n_seg`` references, then stream 2's, ... (a missing reference is
empty).

- :func:`code_ngrams`: the code of the n-gram of each order starting at each position (-1 where it
  does not fit in its segment), and each code's prefix code and last token id (order 1: the token
  id). The pure function numbers codes by sorted key (:class:`~assay.text.ngrams.NgramIndex`), the
  twin by first occurrence (a hash table); nothing downstream reads the numbering.
- :func:`log2_ratios`: ``math.log(num / den, 2)`` of whole numbers (0 where ``den`` is 0), NLTK's
  float: ``log(num / den) / log(2)`` with the C library's ``log``, which is what ``math.log`` calls.
- :func:`nist_sums`: per segment and order, the number of hypothesis n-grams and the information
  of the matched ones, ``sum_g Info(g) * clipped(g)`` over the hypothesis's distinct n-grams **in
  order of first occurrence** (so a segment's sum is the same in any chunk), with the corpus
  weights (given per code) and the segment's own (NLTK ``sentence_nist``: counts over the
  segment's references, ``Info(w) = log2(#reference words of the segment / count(w))``); clipped
  by the maximum count over the references (``union``) or by each reference alone (best-single:
  one sum per reference).

The compiled path (``_matches_c``) does the same floating-point operations in the same order
(conformance/tests/accel/test_nist_twins.py, conformance/tests/nist/test_nist_compiled.py), but
finds the n-grams differently, so that no chunk-wide vocabulary or n-gram table is built:

- :func:`new_counts`: the first pass (``_matches_c.RefCounts``): the
  references' tokens interned once and every reference n-gram counted in one pass into hash tables
  keyed by the integer pair (prefix code, last id), which parts of chunks merge into;
- :func:`context_sums`: the rows under a finished context (the counts, or after pickling a table,
  :func:`table_lookup`): each segment's hypothesis tokens and n-grams get local ids and codes from
  small hash tables, the references are matched against them, and only the matched tokens and
  n-grams are looked up in the context for their corpus weights (``_matches_c.context_sums_into``); the specification of the
  result is :func:`nist_sums` of the whole corpus's codes;
- :func:`sentence_values`: every segment's sentence score at once (the specification:
  ``family.nist_from_sums`` row by row); :func:`segment_lengths`: token counts.

Profile (2-core machine, 100k WMT segments): before, 60% of the time went to coding every n-gram
of the chunk (``code_ngrams``), sorting and merging tables (``NgramTable``) and looking the chunk's
tokens up in the context by string (``NgramTable.locate``); now the cost is the dict lookups of the
tokens (one per reference token per pass, one per hypothesis token) and the hash probes of the
context for the matched n-grams.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain
from typing import Any, Sequence

import numpy as np

from assay.core import accel
from assay.text.ngram_codes import Coded

try:
    from assay.metrics.nist import _matches_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

LN2 = math.log(2)   # math.log(x, 2) = log(x) / log(2), both through the C library


@dataclass(frozen=True)
class NistSums:
    """Per order n (last axis / first axis): hypothesis n-grams and matched information."""

    total: np.ndarray           # (n_seg, N)
    info: np.ndarray            # union: (n_seg, N) corpus weights; best-single: (N, n_refs, n_seg)
    seg_info: np.ndarray        # the same with the segment's own weights


# ----------------------------------------------------------------------------- codes
def reference_counts(coded: Coded, first_ref_pos: int) -> list[np.ndarray]:
    """Per order, the count of every code at the positions from ``first_ref_pos`` on (the references)."""
    out = []
    for n, nc in enumerate(coded.n_codes):
        codes = coded.codes[n, first_ref_pos:]
        out.append(np.bincount(codes[codes >= 0], minlength=nc)[:nc].astype(np.int64))
    return out


# ----------------------------------------------------------------------------- weights
def log2_ratios(numerators: np.ndarray, denominators: np.ndarray) -> np.ndarray:
    """``math.log(num / den, 2)`` elementwise for whole numbers (NLTK's float); 0 where ``den`` is 0."""
    num = np.ascontiguousarray(numerators).astype(np.int64)
    den = np.ascontiguousarray(denominators).astype(np.int64)
    if _compiled is None:
        return log2_ratios_py(num, den)
    out = np.zeros(len(num))
    _compiled.log2_ratios_into(num, den, LN2, out)
    return out


def log2_ratios_py(numerators: np.ndarray, denominators: np.ndarray) -> np.ndarray:
    """:func:`log2_ratios`, through ``math.log`` once per distinct pair (the specification of the twin)."""
    out = np.zeros(len(numerators))
    ok = denominators > 0
    if not ok.any():
        return out
    num = np.asarray(numerators)[ok].astype(np.int64)
    den = np.asarray(denominators)[ok].astype(np.int64)
    radix = int(den.max()) + 1
    uniq, inverse = np.unique(num * radix + den, return_inverse=True)
    logs = np.array([math.log(int(k // radix) / int(k % radix), 2) for k in uniq.tolist()])
    out[ok] = logs[inverse.reshape(-1)]
    return out


# ----------------------------------------------------------------------------- lengths
def segment_lengths(hyp_toks: Sequence[Sequence[str]], ref_toks: Sequence[Sequence[Sequence[str] | None]]
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The token counts of the hypotheses then of each reference stream (int64; a missing reference,
    None, counts 0), and whether each stream has each segment (bool, ``(n_refs, n_seg)``)."""
    n_seg, n_refs = len(hyp_toks), len(ref_toks)
    if _compiled is None:
        return segment_lengths_py(hyp_toks, ref_toks)
    lengths = np.empty((n_refs + 1) * n_seg, dtype=np.int64)
    present = np.empty((n_refs, n_seg), dtype=np.uint8)
    _compiled.lengths_into(hyp_toks, ref_toks, lengths, present)
    return lengths, present.view(bool)


def segment_lengths_py(hyp_toks: Sequence[Sequence[str]], ref_toks: Sequence[Sequence[Sequence[str] | None]]
                       ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`segment_lengths`, pure Python (the specification of the twin)."""
    n_seg, n_refs = len(hyp_toks), len(ref_toks)
    present = np.array([[t is not None for t in s] for s in ref_toks], dtype=bool).reshape(n_refs, n_seg)
    lengths = np.fromiter(chain(map(len, hyp_toks), *([0 if t is None else len(t) for t in s] for s in ref_toks)),
                          dtype=np.int64, count=(n_refs + 1) * n_seg)
    return lengths, present


# ----------------------------------------------------------------------------- under a corpus context
@dataclass(frozen=True)
class ContextLookup:
    """A finished context as the compiled path reads it (built once per context, never pickled).

    Order n's codes are the finder's (a table's: the ranks of its sorted keys; compiled counts':
    their own), plus one code ``size_n`` of its own for every n-gram the context lacks (weight 0,
    never in a reference)."""

    index: dict                 # token -> id
    finder: Any                 # ``_matches_c.Finder``: (order, prefix code, last id) -> code
    info: np.ndarray            # every order's weights, each followed by the missing code's 0.0; empty for
                                # compiled counts (the kernel computes the matched n-grams' from the counts)
    bases: np.ndarray           # where each order starts in ``info``
    ref_words: int              # the corpus's reference words (the unigrams' numerator)


def new_counts(max_order: int) -> Any:
    """An empty ``_matches_c.RefCounts`` (the compiled first pass); None on the pure path."""
    return None if _compiled is None else _compiled.RefCounts(max_order)


def table_lookup(vocab: Sequence[str], keys: Sequence[np.ndarray], info: Sequence[np.ndarray], max_order: int,
                 ref_words: int) -> ContextLookup | None:
    """The :class:`ContextLookup` of a table (``vocab``, sorted ``keys`` ``prefix * V + last`` per
    order) and its weights (by table code); None on the pure path."""
    if _compiled is None:
        return None
    empty = np.zeros(0, dtype=np.int64)
    keys = [np.ascontiguousarray(keys[n], dtype=np.int64) if n < len(keys) else empty for n in range(max_order)]
    info = [info[n] if n < len(info) else np.zeros(len(keys[n])) for n in range(max_order)]
    return _context_lookup({tok: i for i, tok in enumerate(vocab)}, _compiled.TableFinder(keys, len(vocab), max_order),
                           info, ref_words)


def counts_lookup(counts: Any, ref_words: int, max_order: int) -> ContextLookup:
    """The :class:`ContextLookup` of the compiled first pass's counts (codes: theirs; the weights of
    the matched n-grams computed from the counts, as :func:`log2_ratios`, when needed)."""
    return ContextLookup(counts.index, counts, np.zeros(0), np.zeros(max_order, dtype=np.int64), int(ref_words))


def _context_lookup(index: dict, finder: Any, info: Sequence[np.ndarray], ref_words: int) -> ContextLookup:
    infos = [np.concatenate([np.asarray(w, dtype=np.float64), [0.0]]) for w in info]
    lengths = [len(x) for x in infos]
    bases = np.zeros(len(infos), dtype=np.int64)
    np.cumsum(lengths[:-1], out=bases[1:])
    return ContextLookup(index, finder, np.concatenate(infos), bases, int(ref_words))


def context_sums(lookup: ContextLookup, hyp_toks: Sequence[Sequence[str]],
                 ref_toks: Sequence[Sequence[Sequence[str] | None]], lengths: np.ndarray, max_order: int,
                 seg_words: np.ndarray, union: bool) -> NistSums | None:
    """:func:`nist_sums` of segments under a finished context, from the token lists (the compiled
    path: no chunk-wide vocabulary or n-gram table; ``_matches_c.context_sums_into``). ``lengths``:
    the token counts of the hypotheses then of each reference stream (a missing reference: 0). None
    when a matched token or n-gram is not in the context (a context of another corpus): the caller
    then takes the general path."""
    n_seg, n_refs = len(hyp_toks), len(ref_toks)
    out = _empty(n_seg, n_refs, max_order, union)
    if n_seg == 0:
        return out
    longest = int(np.max(lengths)) if len(lengths) else 0
    if _compiled.context_sums_into(_as_list(hyp_toks), [_as_list(s) for s in ref_toks], lookup.index, n_seg, n_refs,
                                   lookup.finder, lookup.info, lookup.bases, lookup.ref_words,
                                   np.ascontiguousarray(seg_words, dtype=np.float64), LN2, bool(union), longest,
                                   out.total, out.info, out.seg_info):
        return None
    return out


def _as_list(items: Sequence[object]) -> list:
    return items if isinstance(items, list) else list(items)


# ----------------------------------------------------------------------------- sentence values
def sentence_values(rows: np.ndarray, c_info: int, c_total: int, c_pen_sys: int, c_pen_ref: int, n: int,
                    beta: float, zero_order: bool) -> tuple[np.ndarray, int | None] | None:
    """Every row's sentence NIST value at once (``family.nist_from_sums`` of its columns, to the bit),
    and the first row that function refuses (``empty_order=error``), if any; None on the pure path
    (which scores row by row through ``nist_from_sums``, the specification)."""
    if _compiled is None:
        return None
    values = np.empty(len(rows))
    bad = np.zeros(len(rows), dtype=np.uint8)
    _compiled.sentence_values_into(np.ascontiguousarray(rows, dtype=np.float64), c_info, c_total, c_pen_sys,
                                   c_pen_ref, n, beta, zero_order, values, bad)
    first = np.flatnonzero(bad)
    return values, (int(first[0]) if len(first) else None)


# ----------------------------------------------------------------------------- matched information
def nist_sums(coded: Coded, offsets: np.ndarray, n_seg: int, n_refs: int, info: Sequence[np.ndarray],
              seg_words: np.ndarray, union: bool) -> NistSums:
    """The hypothesis n-gram counts and matched information of every segment (see the module doc).

    ``info[n-1][code]``: the corpus weight of each code; ``seg_words[s]``: the reference words of
    segment s (its references' lengths summed)."""
    if _compiled is None:
        return nist_sums_py(coded, offsets, n_seg, n_refs, info, seg_words, union)
    max_order = coded.codes.shape[0]
    out = _empty(n_seg, n_refs, max_order, union)
    offsets = np.ascontiguousarray(offsets, dtype=np.int64)
    if n_seg == 0:
        return out
    bases = np.zeros(max_order, dtype=np.int64)
    np.cumsum([len(x) for x in info[:-1]], out=bases[1:])
    prefix_bases = np.zeros(max_order, dtype=np.int64)
    np.cumsum([len(x) for x in coded.prefix[:-1]], out=prefix_bases[1:])
    longest = int(np.diff(offsets).max()) if len(offsets) > 1 else 0
    _compiled.nist_sums_into(coded.codes, offsets, n_seg, n_refs,
                             np.ascontiguousarray(np.concatenate(list(info)), dtype=np.float64), bases,
                             np.ascontiguousarray(np.concatenate(coded.prefix), dtype=np.int32), prefix_bases,
                             np.ascontiguousarray(seg_words, dtype=np.float64), LN2, bool(union),
                             max(coded.n_codes + [1]), longest, out.total, out.info, out.seg_info)
    return out


def _empty(n_seg: int, n_refs: int, max_order: int, union: bool) -> NistSums:
    shape = (n_seg, max_order) if union else (max_order, n_refs, n_seg)
    return NistSums(np.zeros((n_seg, max_order)), np.zeros(shape), np.zeros(shape))


def nist_sums_py(coded: Coded, offsets: np.ndarray, n_seg: int, n_refs: int, info: Sequence[np.ndarray],
                 seg_words: np.ndarray, union: bool) -> NistSums:
    """:func:`nist_sums`, pure numpy (the specification of the twin); ``np.bincount`` adds its
    weights in array order, so terms arranged segment by segment in order of first occurrence give
    the left-to-right sums."""
    offsets = np.asarray(offsets, dtype=np.int64)
    max_order = coded.codes.shape[0]
    out = _empty(n_seg, n_refs, max_order, union)
    n_caps = (n_refs + 1) * n_seg
    caption_of_pos = np.repeat(np.arange(n_caps), np.diff(offsets[:n_caps + 1]))
    hyp_end = int(offsets[n_seg])
    prev: tuple[np.ndarray, np.ndarray, int] | None = None
    for n in range(max_order):
        nc = max(int(coded.n_codes[n]), 1)
        codes = coded.codes[n].astype(np.int64)
        pos = np.flatnonzero(codes >= 0)
        hyp_pos, ref_pos = pos[pos < hyp_end], pos[pos >= hyp_end]
        # the hypothesis's distinct n-grams, segment by segment in order of first occurrence
        uniq, first, counts = np.unique(caption_of_pos[hyp_pos] * nc + codes[hyp_pos], return_index=True,
                                        return_counts=True)
        order = np.argsort(first, kind="stable")
        h_seg, h_code, h_cnt = uniq[order] // nc, uniq[order] % nc, counts[order]
        out.total[:, n] = np.bincount(h_seg, weights=h_cnt, minlength=n_seg)
        # counts in each reference, and over the segment's references
        ref_keys, ref_cnt = np.unique(caption_of_pos[ref_pos] * nc + codes[ref_pos], return_counts=True)
        seg_keys, seg_inv = np.unique((ref_keys // nc) % max(n_seg, 1) * nc + ref_keys % nc, return_inverse=True)
        seg_cnt = np.bincount(seg_inv.reshape(-1), weights=ref_cnt, minlength=len(seg_keys)).astype(np.int64)
        in_ref = np.vstack([_lookup(ref_keys, ref_cnt, ((r + 1) * n_seg + h_seg) * nc + h_code)
                            for r in range(n_refs)]) if n_refs else np.zeros((0, len(h_cnt)), np.int64)
        # weights: the corpus's (given) and the segment's own
        w_corpus = np.asarray(info[n], dtype=np.float64)[h_code]
        count = _lookup(seg_keys, seg_cnt, h_seg * nc + h_code)
        if n == 0:
            numer = np.asarray(seg_words)[h_seg]
        else:
            numer = _lookup(prev[0], prev[1], h_seg * prev[2] + coded.prefix[n][h_code])
        w_seg = log2_ratios(numer, count)
        if union:
            clipped = np.minimum(h_cnt, in_ref.max(axis=0) if n_refs else 0).astype(np.float64)
            out.info[:, n] = np.bincount(h_seg, weights=_terms(w_corpus, clipped), minlength=n_seg)
            out.seg_info[:, n] = np.bincount(h_seg, weights=_terms(w_seg, clipped), minlength=n_seg)
        else:
            for r in range(n_refs):
                clipped = np.minimum(h_cnt, in_ref[r]).astype(np.float64)
                out.info[n, r] = np.bincount(h_seg, weights=_terms(w_corpus, clipped), minlength=n_seg)
                out.seg_info[n, r] = np.bincount(h_seg, weights=_terms(w_seg, clipped), minlength=n_seg)
        prev = (seg_keys, seg_cnt, nc)
    return out


def _terms(weights: np.ndarray, clipped: np.ndarray) -> np.ndarray:
    """info * clipped count, 0 where nothing is matched."""
    return np.where(clipped > 0, weights * clipped, 0.0)


def _lookup(keys: np.ndarray, values: np.ndarray, query: np.ndarray) -> np.ndarray:
    """values[keys == query] for each query key (0 where absent); ``keys`` sorted."""
    if len(keys) == 0:
        return np.zeros(len(query), dtype=np.int64)
    pos = np.minimum(np.searchsorted(keys, query), len(keys) - 1)
    return np.where(keys[pos] == query, values[pos], 0)
