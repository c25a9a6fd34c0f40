"""The per-pair alignment statistics of the last corpora METEOR aligned, reused by later passes.

Both algorithms keep, per segment, the statistics of the reference that scores best, so α, β, γ
(and the jar's δ and module weights) are statistics-stage knobs: a configuration that differs
only in them needs new rows. The alignments those rows are chosen from do not depend on them:
every hypothesis/reference pair's statistics (NLTK: lengths, matches and chunks; the jar: its 23
statistics) depend only on the text and the matching knobs. This cache keeps them, so a new α
costs a re-scoring of the pairs and a new choice of the best reference, not a new alignment
(the Shapley attribution of a report scores up to 2^12 coalitions of such knobs).

A hit needs the same matching key (the caller's: matching knobs, resolved resource directories,
which engine) and the same hypotheses and reference streams, compared element by element against a
snapshot taken when the entry was stored (token lists copied, so a list changed in place is a
miss). Bounded: the :data:`ENTRIES` most recently used corpora and :data:`MAX_NUMBERS` stored
numbers in all (8 bytes each); a larger corpus is not stored.
"""
from __future__ import annotations

from collections import OrderedDict
from itertools import chain
from threading import Lock
from typing import Any, Hashable, Sequence

import numpy as np

ENTRIES = 4
MAX_NUMBERS = 4_000_000

_ENTRIES: "OrderedDict[Hashable, tuple[Any, Any, tuple[Any, ...]]]" = OrderedDict()
_LOCK = Lock()


_LISTS = frozenset((list, tuple))
_TEXT, _MISSING = -1, -2


def _frozen(segs: Sequence[Any]) -> tuple[tuple[int, ...], tuple[Any, ...]]:
    """One stream as two tuples: each segment's shape (its token count, :data:`_TEXT` for a string,
    :data:`_MISSING` for None) and every string and token in order. Two streams are equal element by
    element exactly when these are; two tuples are kept instead of one per segment (a few large
    objects for the garbage collector to traverse, not tens of thousands of small ones)."""
    if set(map(type, segs)) <= _LISTS:          # token lists only (the common case)
        return tuple(map(len, segs)), tuple(chain.from_iterable(segs))
    shape = tuple(_TEXT if isinstance(s, str) else _MISSING if s is None else len(s) for s in segs)
    flat = tuple(chain.from_iterable((s,) if isinstance(s, str) else () if s is None else s for s in segs))
    return shape, flat


def snapshot(hyps: Sequence[Any], refs: Sequence[Sequence[Any]]) -> tuple[Any, tuple[Any, ...]]:
    """The corpus as tuples (:func:`_frozen` per stream; token lists copied): what a hit must equal."""
    return _frozen(hyps), tuple(map(_frozen, refs))


def get(key: Hashable, hyps: Sequence[Any], refs: Sequence[Sequence[Any]]) -> tuple[Any, ...] | None:
    """The values stored for ``key`` and this corpus, or None."""
    with _LOCK:
        got = _ENTRIES.get(key)
    if got is None or (got[0], got[1]) != snapshot(hyps, refs):
        return None
    with _LOCK:
        if key in _ENTRIES:
            _ENTRIES.move_to_end(key)
    return got[2]


def put(key: Hashable, hyps: Sequence[Any], refs: Sequence[Sequence[Any]], arrays: tuple[Any, ...]) -> None:
    """Store ``arrays`` (the per-pair statistics, and any object the key names by ``id``, to keep it
    alive) for ``key`` and this corpus, within the bounds (only numpy arrays count)."""
    if sum(int(a.size) for a in arrays if isinstance(a, np.ndarray)) > MAX_NUMBERS // ENTRIES:
        return
    h, r = snapshot(hyps, refs)
    with _LOCK:
        _ENTRIES[key] = (h, r, arrays)
        _ENTRIES.move_to_end(key)
        while len(_ENTRIES) > ENTRIES:
            _ENTRIES.popitem(last=False)


def clear() -> None:
    """Forget every entry (tests)."""
    with _LOCK:
        _ENTRIES.clear()
