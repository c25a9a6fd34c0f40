"""Vectorised n-gram counting shared by the n-gram metrics (BLEU, NIST, ...).

Tokens are interned to integer ids; an n-gram of order n gets a compact integer code by
ranking the pairs (code of its (n-1)-gram prefix, id of its last token) with ``np.unique``,
so no per-n-gram Python object is ever made. Counts per (segment, n-gram) are then sorted
integer keys, and clipping (``min(hyp count, max ref count)``) is a ``searchsorted`` join.

:func:`encode`, :func:`clipped_matches` and :func:`token_matches` (both at once, from token
lists) have a compiled twin (``assay.text._ngrams_c``, :mod:`assay.core.accel`); :func:`encode_py`,
:func:`clipped_matches_py` and :func:`token_matches_py` are the pure specification. The twins of
``clipped_matches``/``token_matches`` work one segment at a time (segment-local hash tables of
n-gram codes, and of tokens), so their memory is proportional to the longest segment, not the corpus.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Callable, Hashable, Sequence

import numpy as np

from assay.core import accel

try:
    from assay.text import _ngrams_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

_MAX_VOCAB = 2 ** 31 - 1   # the twin keeps token ids and n-gram codes in int32


@dataclass(frozen=True)
class Encoded:
    """A corpus side as one flat id array plus segment offsets (``offsets[i]:offsets[i+1]``)."""

    ids: np.ndarray
    offsets: np.ndarray

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    @property
    def n_segments(self) -> int:
        return len(self.offsets) - 1


def encode(token_lists: Sequence[Sequence[str]], vocab: dict[str, int]) -> Encoded:
    """Intern tokens (growing ``vocab``: a new token gets ``len(vocab)``) and return the flat encoding."""
    if _compiled is None:
        return encode_py(token_lists, vocab)
    lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
    offsets = np.zeros(len(token_lists) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    ids = np.empty(int(offsets[-1]), dtype=np.int64)
    _compiled.encode_into(token_lists, vocab, ids)
    return Encoded(ids, offsets)


def encode_py(token_lists: Sequence[Sequence[str]], vocab: dict[str, int]) -> Encoded:
    """:func:`encode`, pure Python (the specification of the twin)."""
    lengths = np.fromiter((len(t) for t in token_lists), dtype=np.int64, count=len(token_lists))
    offsets = np.zeros(len(token_lists) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = list(chain.from_iterable(token_lists))
    for tok in dict.fromkeys(flat):          # new tokens, in first-seen order (C-speed dedup)
        if tok not in vocab:
            vocab[tok] = len(vocab)
    ids = np.fromiter(map(vocab.__getitem__, flat), dtype=np.int64, count=len(flat))
    return Encoded(ids, offsets)


def clipped_matches(sides: Sequence[Encoded], max_order: int) -> np.ndarray:
    """``correct[s, n-1] = sum_g min(count_hyp(g), max_r count_r(g))`` for every segment s and order n.

    ``sides[0]`` is the hypothesis side, ``sides[1:]`` the reference streams (aligned segments).
    """
    if _compiled is None:
        return clipped_matches_py(sides, max_order)
    ids = [np.ascontiguousarray(s.ids, dtype=np.int64) for s in sides]
    bounds = [(int(i.min()), int(i.max())) for i in ids if len(i)]
    vocab_size = max((hi for _, hi in bounds), default=-1) + 1
    if vocab_size > min(_MAX_VOCAB, max(8 * sum(map(len, ids)), 1 << 24)) or any(lo < 0 for lo, _ in bounds):
        # ids not from one encode() vocabulary: the twin's per-id unigram counters would be too large
        return clipped_matches_py(sides, max_order)
    correct = np.zeros((sides[0].n_segments, max_order))
    _compiled.clipped_matches_into(ids, [np.ascontiguousarray(s.offsets, dtype=np.int64) for s in sides],
                                   max_order, vocab_size, correct)
    return correct


def clipped_matches_py(sides: Sequence[Encoded], max_order: int) -> np.ndarray:
    """:func:`clipped_matches`, pure numpy (the specification of the twin).

    N-gram codes here are segment-specific (the segment index is part of the first code), so
    one ``np.unique`` per order is the only sort; counting and clipping are ``bincount``s.
    """
    n_seg = sides[0].n_segments
    correct = np.zeros((n_seg, max_order))
    ids = np.concatenate([s.ids for s in sides])
    if len(ids) == 0:
        return correct
    seg = np.concatenate([np.repeat(np.arange(s.n_segments), s.lengths) for s in sides])
    side = np.concatenate([np.full(len(s.ids), k) for k, s in enumerate(sides)])
    starts = np.cumsum([0] + [len(s.ids) for s in sides])[:-1]
    ends = np.concatenate([np.repeat(s.offsets[1:], s.lengths) + b for s, b in zip(sides, starts)])
    positions = np.arange(len(ids))
    vocab_size = int(ids.max()) + 1
    prev = np.zeros_like(ids)
    live = np.ones(len(ids), dtype=bool)   # the (n-1)-gram here occurs in the hyp and in a ref of its segment
    for n in range(1, max_order + 1):
        # an n-gram can only match if its (n-1)-gram prefix matched: prune everything else
        where = np.flatnonzero(live & (positions + n <= ends))
        if where.size == 0:
            break
        key = seg[where] * vocab_size + ids[where] if n == 1 else prev[where] * vocab_size + ids[where + n - 1]
        uniq, code_v = np.unique(key, return_inverse=True)
        code_v = code_v.ravel()
        n_codes = len(uniq)
        side_v = side[where]
        hyp_counts = np.bincount(code_v[side_v == 0], minlength=n_codes)
        ref_max = np.zeros(n_codes, dtype=np.int64)
        for k in range(1, len(sides)):
            np.maximum(ref_max, np.bincount(code_v[side_v == k], minlength=n_codes), out=ref_max)
        seg_of_code = np.zeros(n_codes, dtype=np.int64)
        seg_of_code[code_v] = seg[where]
        clipped = np.minimum(hyp_counts, ref_max)
        correct[:, n - 1] = np.bincount(seg_of_code, weights=clipped, minlength=n_seg)[:n_seg]
        prev[where] = code_v
        live[:] = False
        live[where] = (clipped > 0)[code_v]
    return correct


def token_matches(hyp_toks: Sequence[Sequence[Hashable]], ref_toks: Sequence[Sequence[Sequence[Hashable] | None]],
                  max_order: int) -> np.ndarray:
    """:func:`clipped_matches` of token lists: ``hyp_toks[s]`` the hypothesis tokens of segment s,
    ``ref_toks[k][s]`` reference k's (None: missing, no n-grams), all interned into one vocabulary.

    The twin (``token_matches_into``) interns the tokens of each segment on their own (clipping
    compares tokens of one segment only), so it makes no corpus-wide table and its lookups stay in
    cache; it takes exact ``str`` tokens in lists or tuples. Other tokens (any hashable, as a dict
    key) are interned with a dict (:func:`encode`, then :func:`clipped_matches`).
    """
    if _compiled is None:
        return token_matches_py(hyp_toks, ref_toks, max_order)
    correct = np.zeros((len(hyp_toks), max_order))
    if _compiled.token_matches_into(list(hyp_toks), [list(s) for s in ref_toks], max_order, correct):
        return correct
    return _interned_matches(hyp_toks, ref_toks, max_order, encode, clipped_matches)   # other tokens


def token_matches_py(hyp_toks: Sequence[Sequence[Hashable]], ref_toks: Sequence[Sequence[Sequence[Hashable] | None]],
                     max_order: int) -> np.ndarray:
    """:func:`token_matches`, pure (the specification of the twin): :func:`encode_py` into one
    vocabulary, then :func:`clipped_matches_py`."""
    return _interned_matches(hyp_toks, ref_toks, max_order, encode_py, clipped_matches_py)


def _interned_matches(hyp_toks: Sequence[Sequence[Hashable]], ref_toks: Sequence[Sequence[Sequence[Hashable] | None]],
                      max_order: int, intern: Callable[..., Encoded],
                      match: Callable[[Sequence[Encoded], int], np.ndarray]) -> np.ndarray:
    vocab: dict[Hashable, int] = {}
    sides = [intern(hyp_toks, vocab)] + [intern([t or [] for t in s], vocab) for s in ref_toks]
    return match(sides, max_order)


@dataclass(frozen=True)
class Counts:
    """Sorted unique (segment, n-gram code) keys with their counts, for one side and order."""

    keys: np.ndarray     # segment * n_codes + code, sorted ascending
    counts: np.ndarray   # int64

    def segments(self, n_codes: int) -> np.ndarray:
        return self.keys // n_codes

    def codes(self, n_codes: int) -> np.ndarray:
        return self.keys % n_codes


class NgramIndex:
    """All n-gram codes up to ``max_order`` for a hypothesis side and several reference sides.

    Codes are consistent across sides, so the same n-gram has the same code everywhere.
    ``sides[0]`` is the hypothesis side; ``sides[1:]`` are the reference streams.
    """

    def __init__(self, sides: Sequence[Encoded], max_order: int):
        self.sides = list(sides)
        self.max_order = max_order
        ids = np.concatenate([s.ids for s in self.sides]) if self.sides else np.zeros(0, np.int64)
        # position -> (side, segment) end boundary, to drop n-grams that cross a segment end
        ends = np.concatenate([np.repeat(s.offsets[1:], s.lengths) + base
                               for s, base in zip(self.sides, self._bases())]) if len(ids) else ids
        self._side_bounds = np.cumsum([0] + [len(s.ids) for s in self.sides])
        self._seg_of_pos = np.concatenate([np.repeat(np.arange(s.n_segments), s.lengths)
                                           for s in self.sides]) if len(ids) else ids
        self.codes: list[np.ndarray] = []      # codes[n-1][p]: code of the n-gram starting at p (valid where mask)
        self.valid: list[np.ndarray] = []      # valid[n-1][p]: n-gram starting at p fits in its segment
        self.n_codes: list[int] = []
        positions = np.arange(len(ids))
        prev = ids
        vocab_size = int(ids.max()) + 1 if len(ids) else 1
        for n in range(1, max_order + 1):
            valid = positions + n <= ends
            if n == 1:
                code = ids.copy()
                n_codes = vocab_size
            else:
                nxt = np.zeros_like(ids)
                if len(ids) >= n:
                    nxt[: len(ids) - n + 1] = ids[n - 1:]
                pair = prev * vocab_size + nxt
                code = np.zeros_like(ids)
                if valid.any():
                    uniq, inverse = np.unique(pair[valid], return_inverse=True)
                    code[valid] = inverse
                    n_codes = len(uniq)
                else:
                    n_codes = 1
            self.codes.append(code)
            self.valid.append(valid)
            self.n_codes.append(max(n_codes, 1))
            prev = code

    def _bases(self) -> list[int]:
        bases, acc = [], 0
        for s in self.sides:
            bases.append(acc)
            acc += len(s.ids)
        return bases

    def side_counts(self, side: int, n: int) -> Counts:
        """Counts of every (segment, n-gram) of one side for order ``n``."""
        lo, hi = self._side_bounds[side], self._side_bounds[side + 1]
        valid = self.valid[n - 1][lo:hi]
        codes = self.codes[n - 1][lo:hi][valid]
        segs = self._seg_of_pos[lo:hi][valid]
        keys = segs * self.n_codes[n - 1] + codes
        uniq, counts = np.unique(keys, return_counts=True)
        return Counts(uniq, counts.astype(np.int64))

    def max_ref_counts(self, n: int, ref_sides: Sequence[int]) -> Counts:
        """Per (segment, n-gram): the maximum count over the given reference sides."""
        parts = [self.side_counts(s, n) for s in ref_sides]
        if not parts:
            return Counts(np.zeros(0, np.int64), np.zeros(0, np.int64))
        keys = np.concatenate([p.keys for p in parts])
        counts = np.concatenate([p.counts for p in parts])
        order = np.lexsort((-counts, keys))
        keys, counts = keys[order], counts[order]
        first = np.ones(len(keys), dtype=bool)
        first[1:] = keys[1:] != keys[:-1]
        return Counts(keys[first], counts[first])

    @staticmethod
    def clip(hyp: Counts, ref: Counts) -> np.ndarray:
        """``min(hyp count, ref count)`` for each hypothesis key (0 where the ref lacks it)."""
        if len(ref.keys) == 0:
            return np.zeros(len(hyp.keys), np.int64)
        pos = np.searchsorted(ref.keys, hyp.keys)
        pos_c = np.minimum(pos, len(ref.keys) - 1)
        found = ref.keys[pos_c] == hyp.keys
        ref_counts = np.where(found, ref.counts[pos_c], 0)
        return np.minimum(hyp.counts, ref_counts)

    def per_segment(self, counts: Counts, values: np.ndarray, n: int, n_segments: int) -> np.ndarray:
        """Sum ``values`` (aligned with ``counts.keys``) per segment."""
        segs = counts.segments(self.n_codes[n - 1])
        return np.bincount(segs, weights=values, minlength=n_segments)[:n_segments]
