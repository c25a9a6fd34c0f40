"""chrF's statistics: n-gram counts and matches per segment, for every reference at once.

For a segment and an order n: ``h`` = hypothesis n-grams, ``r`` = reference n-grams (both
``max(L - n + 1, 0)`` for a sequence of length ``L``) and ``m = sum_g min(count_hyp(g),
count_ref(g))``. Sequences are integer symbols (code points, or word ids for chrF++).

:func:`text_counts` (texts -> lengths and matches) and :func:`pair_matches` (encoded sides ->
matches) have a compiled twin (``_counts_c``); ``text_counts_py`` and ``pair_matches_py`` are
the pure-Python specification.
"""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from assay.core import accel
from assay.core.knobs import Config
from assay.metrics.chrf.knobs import WHITESPACE_SETS
from assay.metrics.chrf.text import char_text, encode_chars, word_tokens
from assay.text.ngrams import Encoded, encode

try:
    from assay.metrics.chrf import _counts_c as _compiled
except ImportError:       # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)


def text_counts(hyp_texts: Sequence[str], streams: Sequence[Sequence[Optional[str]]], words: bool,
                max_order: int, config: Config) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hypothesis lengths ``(segments,)``, reference lengths ``(streams, segments)``, matches
    ``(streams, segments, max_order)`` as :func:`pair_matches`) of one kind of symbols: the
    characters of :func:`.text.char_text` (``words`` False) or chrF++'s :func:`.text.word_tokens`.
    A missing (None) reference is an empty one."""
    if _compiled is not None:
        return _compiled.text_counts(list(hyp_texts), list(streams), words, max_order,
                                     bool(config.whitespace), WHITESPACE_SETS.index(config.whitespace_set))
    return text_counts_py(hyp_texts, streams, words, max_order, config)


def text_counts_py(hyp_texts: Sequence[str], streams: Sequence[Sequence[Optional[str]]], words: bool,
                   max_order: int, config: Config) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`text_counts`, pure Python: encode both sides, then :func:`pair_matches_py`."""
    if words:
        vocab: dict[str, int] = {}
        h_side = encode([word_tokens(t) for t in hyp_texts], vocab)
        r_sides = [encode([word_tokens(t or "") for t in s], vocab) for s in streams]
    else:
        h_side = encode_chars([char_text(t, config) for t in hyp_texts])
        r_sides = [encode_chars([char_text(t or "", config) for t in s]) for s in streams]
    ref_lengths = np.array([s.lengths for s in r_sides], dtype=np.int64).reshape(len(r_sides), h_side.n_segments)
    return h_side.lengths, ref_lengths, pair_matches_py(h_side, r_sides, max_order)


def pair_matches(hyp: Encoded, refs: Sequence[Encoded], max_order: int) -> np.ndarray:
    """``out[k, s, n-1] = sum_g min(count_hyp(g), count_ref_k(g))`` over the n-grams g of segment s."""
    if _compiled is not None:
        return _compiled.pair_matches(_int64(hyp.ids), _int64(hyp.offsets), [_int64(r.ids) for r in refs],
                                      [_int64(r.offsets) for r in refs], max_order)
    return pair_matches_py(hyp, refs, max_order)


def _int64(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.int64)


def pair_matches_py(hyp: Encoded, refs: Sequence[Encoded], max_order: int, chunk: int = 1 << 18) -> np.ndarray:
    """:func:`pair_matches`, pure Python (NumPy).

    Segments are processed in chunks of about ``chunk`` symbols so that the sorts and scatters of
    :func:`_chunk_matches` stay in cache.
    """
    n_seg = hyp.n_segments
    out = np.zeros((len(refs), n_seg, max_order))
    if not refs or max_order == 0 or n_seg == 0:
        return out
    sides = [hyp] + list(refs)
    total = sum(s.offsets for s in sides)            # symbols up to each segment boundary, all sides
    start = 0
    while start < n_seg:
        stop = int(np.searchsorted(total, total[start] + chunk, side="right")) - 1
        stop = min(max(stop, start + 1), n_seg)
        parts = [Encoded(s.ids[s.offsets[start]:s.offsets[stop]], s.offsets[start:stop + 1] - s.offsets[start])
                 for s in sides]
        out[:, start:stop] = _chunk_matches(parts, max_order)
        start = stop
    return out


def _chunk_matches(sides: Sequence[Encoded], max_order: int) -> np.ndarray:
    """:func:`pair_matches` for one chunk (``sides[0]`` the hypotheses).

    N-gram codes are segment-specific ranks of (code of the (n-1)-gram prefix, next symbol); an
    n-gram is only looked at when its prefix occurs in the hypothesis and in some reference of
    its segment (otherwise it cannot match), so each order sorts fewer positions.
    """
    n_seg = sides[0].n_segments
    out = np.zeros((len(sides) - 1, n_seg, max_order))
    ids = np.concatenate([s.ids for s in sides])
    if len(ids) == 0:
        return out
    seg = np.concatenate([np.repeat(np.arange(s.n_segments), s.lengths) for s in sides])
    bounds = np.cumsum([0] + [len(s.ids) for s in sides])
    ends = np.concatenate([np.repeat(s.offsets[1:], s.lengths) + b for s, b in zip(sides, bounds[:-1])])
    present = np.zeros(int(ids.max()) + 1, dtype=bool)
    present[ids] = True
    dense = np.cumsum(present) - 1                  # symbols ranked densely: smaller keys
    ids = dense[ids]
    alphabet = int(dense[-1]) + 1
    room = ends - np.arange(len(ids))                # n-grams of order n start where room >= n
    prev = np.zeros_like(ids)
    live = np.ones(len(ids), dtype=bool)
    for n in range(1, max_order + 1):
        where = np.flatnonzero(live & (room >= n))
        if where.size == 0:
            break
        key = seg[where] * alphabet + ids[where] if n == 1 else prev[where] * alphabet + ids[where + n - 1]
        code, n_codes = _rank(key, alphabet * (int(prev.max()) + 1 if n > 1 else int(seg[-1]) + 1))
        cuts = np.searchsorted(where, bounds)          # where is sorted: each side is one slice
        hyp_counts = np.bincount(code[cuts[0]:cuts[1]], minlength=n_codes)
        seg_of_code = np.zeros(n_codes, dtype=np.int64)
        seg_of_code[code] = seg[where]
        any_ref = np.zeros(n_codes, dtype=bool)
        for k in range(1, len(sides)):
            ref_counts = np.bincount(code[cuts[k]:cuts[k + 1]], minlength=n_codes)
            out[k - 1, :, n - 1] = np.bincount(seg_of_code, weights=np.minimum(hyp_counts, ref_counts),
                                               minlength=n_seg)[:n_seg]
            any_ref |= ref_counts > 0
        prev[where] = code
        live[:] = False
        live[where] = ((hyp_counts > 0) & any_ref)[code]
    return out


def _rank(key: np.ndarray, bound: int) -> tuple[np.ndarray, int]:
    """Dense ranks of ``key`` (``0 <= key < bound``), as ``np.unique(key, return_inverse=True)``.

    When key and position fit in 63 bits together, one value sort of ``key << b | position``
    replaces the (slower) argsort.
    """
    m = len(key)
    shift = max(int(m - 1).bit_length(), 1)
    if (max(bound, 1) - 1).bit_length() + shift > 62:
        uniq, code = np.unique(key, return_inverse=True)
        return code.ravel(), len(uniq)
    packed = np.sort((key << shift) | np.arange(m, dtype=np.int64))
    sorted_keys = packed >> shift
    step = np.empty(m, dtype=np.int64)
    step[0] = 0
    np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=step[1:])
    ranks = np.cumsum(step)
    code = np.empty(m, dtype=np.int64)
    code[packed & ((1 << shift) - 1)] = ranks
    return code, int(ranks[-1]) + 1


def ngram_counts(lengths: np.ndarray, orders: Sequence[int]) -> np.ndarray:
    """Number of n-grams of each order in sequences of the given lengths: max(L - n + 1, 0)."""
    return np.maximum(lengths[..., None] - np.asarray(orders)[None, :] + 1, 0).astype(np.float64)
