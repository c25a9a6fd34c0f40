"""CIDEr's hot loops: n-gram codes, document frequencies and the per-image similarity sums.

Captions are one flat id array with offsets (hypotheses first, then references, image-major).

- :func:`split_encode`: captions split on whitespace (``str.split()``) and interned to ids.
- :func:`code_ngrams`: the code of the n-gram of each order starting at each position (-1 where it
  does not fit in its caption), and each code's prefix code and last token id. Order 1: the token
  id. Codes are numbered differently by the pure function (ranks of sorted keys, through
  :class:`~assay.text.ngrams.NgramIndex`) and by the twin (first occurrence, through a hash
  table); nothing downstream reads the numbering.
- :func:`image_df`: per code, the number of images one of whose references has the n-gram.
- :func:`cider_sums`: per image i and order n, ``sum_j sim_n(h_i, r_ij)`` over its references, in
  reference order. For each caption the distinct n-grams are taken **in order of first
  occurrence** (pycocoevalcap's dict order), with weights ``w = count * idf``::

      |c|      = sqrt(w_1*w_1 + w_2*w_2 + ...)                      (added left to right)
      sim_n    = sum over hypothesis n-grams g, in its order, of min(wh_g, wr_g) * wr_g
                 (without clipping: wh_g * wr_g; wr_g = 0 when the reference lacks g), divided by
                 |h| |r| when both are non-zero, times the reference's length penalty

The compiled twin (``_vectors_c``) does the same floating-point operations in the same order, so
the two agree bit for bit (conformance/tests/accel/test_cider_twins.py).
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from assay.core import accel
from assay.text.ngram_codes import Coded
from assay.text.ngrams import Encoded, encode

try:
    from assay.metrics.cider import _vectors_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)


# ----------------------------------------------------------------------------- tokens
def split_encode(strings: Sequence[str], vocab: dict[str, int]) -> Encoded:
    """:func:`~assay.text.ngrams.encode` of ``[s.split() for s in strings]`` (the toolkit's
    ``str.split()``), without the token lists."""
    got = split_encode_exact(strings, vocab)
    return split_encode_py(strings, vocab) if got is None else got


def split_encode_exact(strings: Sequence[Any], vocab: dict[str, int]) -> Encoded | None:
    """:func:`split_encode` by the compiled twin, which reads each item's type as it reads its text
    (no pass of the caller's over the captions); None when the twin is not built or an item is not
    exactly a ``str`` (``vocab`` may then hold the tokens before it, numbered as :func:`split_encode`
    numbers them, so a pure pass over the same list after it ends the same)."""
    if _compiled is None:
        return None
    got = _compiled.split_encode(strings if type(strings) is list else list(strings), vocab)
    return None if got is None else Encoded(*got)


def split_encode_py(strings: Sequence[str], vocab: dict[str, int]) -> Encoded:
    """:func:`split_encode`, pure Python (the specification of the twin)."""
    return encode([s.split() for s in strings], vocab)


# ----------------------------------------------------------------------------- codes
# ----------------------------------------------------------------------------- document frequencies
def image_df(coded: Coded, offsets: np.ndarray, first_ref: int, owner: np.ndarray) -> list[np.ndarray]:
    """Per order, the df of every code: the number of distinct images among the references (captions
    ``first_ref + k``, of image ``owner[k]``) that contain the n-gram."""
    if _compiled is None:
        return image_df_py(coded, offsets, first_ref, owner)
    out = [np.zeros(nc, dtype=np.int64) for nc in coded.n_codes]
    _compiled.image_df_into(coded.codes, np.ascontiguousarray(offsets, dtype=np.int64), first_ref,
                            np.ascontiguousarray(owner, dtype=np.int64), out)
    return out


def image_df_py(coded: Coded, offsets: np.ndarray, first_ref: int, owner: np.ndarray) -> list[np.ndarray]:
    """:func:`image_df`, pure numpy (the specification of the twin)."""
    offsets = np.asarray(offsets, dtype=np.int64)
    lo = int(offsets[first_ref])
    lengths = np.diff(offsets[first_ref:])
    image_of_pos = np.repeat(np.asarray(owner, dtype=np.int64), lengths)
    out = []
    for n, nc in enumerate(coded.n_codes):
        codes = coded.codes[n, lo:].astype(np.int64)
        ok = codes >= 0
        pairs = np.unique(image_of_pos[ok] * max(nc, 1) + codes[ok])
        out.append(np.bincount(pairs % max(nc, 1), minlength=nc).astype(np.int64))
    return out


# ----------------------------------------------------------------------------- similarity sums
def cider_sums(coded: Coded, offsets: np.ndarray, n_img: int, ref_start: np.ndarray, idf: Sequence[np.ndarray],
               penalty: np.ndarray, clipping: bool = True) -> np.ndarray:
    """``sums[i, n-1] = sum_j sim_n(h_i, r_ij)``: hypothesis i is caption i, its references are captions
    ``n_img + ref_start[i] .. n_img + ref_start[i+1] - 1``; ``idf[n-1][code]``; ``penalty[k]`` of
    reference k (1 when there is none); ``clipping``: ``min(wh, wr) * wr`` (CIDEr-D), else ``wh * wr``."""
    if _compiled is None:
        return cider_sums_py(coded, offsets, n_img, ref_start, idf, penalty, clipping)
    max_order = coded.codes.shape[0]
    sums = np.zeros((n_img, max_order))
    offsets = np.ascontiguousarray(offsets, dtype=np.int64)
    if n_img == 0:
        return sums
    bases = np.zeros(max_order, dtype=np.int64)
    np.cumsum([len(x) for x in idf[:-1]], out=bases[1:])
    longest = int(np.diff(offsets).max()) if len(offsets) > 1 else 0
    _compiled.cider_sums_into(coded.codes, offsets, n_img, np.ascontiguousarray(ref_start, dtype=np.int64),
                              np.ascontiguousarray(np.concatenate(list(idf)), dtype=np.float64), bases,
                              max(coded.n_codes + [1]), longest, np.ascontiguousarray(penalty, dtype=np.float64),
                              bool(clipping), sums)
    return sums


def cider_sums_py(coded: Coded, offsets: np.ndarray, n_img: int, ref_start: np.ndarray, idf: Sequence[np.ndarray],
                  penalty: np.ndarray, clipping: bool = True) -> np.ndarray:
    """:func:`cider_sums`, pure numpy (the specification of the twin).

    Sums follow the order above: ``np.bincount`` adds its weights in array order, so arranging
    the terms caption by caption, each in its order, gives the same left-to-right sums."""
    offsets = np.asarray(offsets, dtype=np.int64)
    ref_start = np.asarray(ref_start, dtype=np.int64)
    max_order = coded.codes.shape[0]
    n_caps = len(offsets) - 1
    n_refs = n_caps - n_img
    owner = np.repeat(np.arange(n_img), np.diff(ref_start))
    caption_of_pos = np.repeat(np.arange(n_caps), np.diff(offsets))
    sums = np.zeros((n_img, max_order))
    for n in range(max_order):
        nc = max(int(coded.n_codes[n]), 1)
        codes = coded.codes[n].astype(np.int64)
        ok = np.flatnonzero(codes >= 0)
        keys = caption_of_pos[ok] * nc + codes[ok]
        uniq, first, counts = np.unique(keys, return_index=True, return_counts=True)
        weight = counts * np.asarray(idf[n], dtype=np.float64)[uniq % nc]       # sorted by (caption, code)
        by_first = np.argsort(first, kind="stable")                             # (caption, first occurrence)
        caption = uniq[by_first] // nc
        norm = np.sqrt(np.bincount(caption, weights=weight[by_first] * weight[by_first], minlength=n_caps))
        # the hypothesis entries, image by image in order of first occurrence
        n_hyp = int(np.searchsorted(caption, n_img))
        h_code = (uniq[by_first] % nc)[:n_hyp]
        h_weight = weight[by_first][:n_hyp]
        h_start = np.searchsorted(caption[:n_hyp], np.arange(n_img + 1))
        # every (reference, hypothesis entry of its image) pair, reference by reference
        lengths = (h_start[owner + 1] - h_start[owner]) if n_refs else np.zeros(0, np.int64)
        pair_ref = np.repeat(np.arange(n_refs), lengths)
        within = np.arange(len(pair_ref)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        entry = h_start[owner][pair_ref] + within
        query = (n_img + pair_ref) * nc + h_code[entry]
        pos = np.minimum(np.searchsorted(uniq, query), max(len(uniq) - 1, 0))
        found = uniq[pos] == query if len(uniq) else np.zeros(len(query), dtype=bool)
        w_ref = np.where(found, weight[pos] if len(uniq) else 0.0, 0.0)
        w_hyp = h_weight[entry]
        val = np.bincount(pair_ref, weights=(np.minimum(w_hyp, w_ref) if clipping else w_hyp) * w_ref,
                          minlength=n_refs)
        norm_h = norm[owner]
        norm_r = norm[n_img:]
        both = (norm_h != 0) & (norm_r != 0)
        val = np.where(both, val / np.where(both, norm_h * norm_r, 1.0), val)
        val = val * penalty
        sums[:, n] = np.bincount(owner, weights=val, minlength=n_img)
    return sums
