"""Per-pair statistics of the last corpora a family computed, reused by later passes.

A family's statistics often split into an expensive part that depends only on the text and a few
knobs, and a cheap part that the other knobs change. METEOR: every hypothesis/reference pair's
alignment statistics (NLTK: lengths, matches and chunks; the jar: its 23 statistics) depend only on
the text and the matching knobs, not on α, β, γ, δ or the module weights, so a new α costs a
re-scoring of the pairs and a new choice of the best reference, not a new alignment. ROUGE: the
documents' token stores depend only on the text knobs (tokenizer, stemmer, stop words, sentence
split, limits), not on how the counts are combined. The Shapley attribution of a report scores up
to 2^12 coalitions of such knobs.

A hit needs the same key (the caller's: the family, the knobs the stored part depends on, resolved
resource directories, which engine) and the same hypotheses and reference streams, compared element by element against a
snapshot taken when the entry was stored (token lists copied, so a list changed in place is a
miss). Bounded: the :data:`ENTRIES` most recently used entries, holding at most :data:`MAX_NUMBERS`
numbers in all (8 bytes each; the least recently used go first); a larger corpus is not stored.
"""
from __future__ import annotations

from collections import OrderedDict
from itertools import chain
from threading import Lock
from typing import Any, Hashable, Sequence

import numpy as np

ENTRIES = 32
MAX_NUMBERS = 4_000_000

#: key -> (hypotheses snapshot, references snapshot, stored values, numbers they hold)
_ENTRIES: "OrderedDict[Hashable, tuple[Any, Any, tuple[Any, ...], int]]" = OrderedDict()
_LOCK = Lock()


_LISTS = frozenset((list, tuple))
_STR = {str}
_TEXT, _MISSING = -1, -2


def _frozen(segs: Sequence[Any]) -> tuple[tuple[int, ...], tuple[Any, ...]]:
    """One stream as two tuples: each segment's shape (its token count, :data:`_TEXT` for a string,
    :data:`_MISSING` for None) and every string and token in order. Two streams are equal element by
    element exactly when these are; two tuples are kept instead of one per segment (a few large
    objects for the garbage collector to traverse, not tens of thousands of small ones)."""
    kinds = set(map(type, segs))
    if kinds <= _LISTS:          # token lists only (the common case)
        return tuple(map(len, segs)), tuple(chain.from_iterable(segs))
    if kinds == _STR:            # strings only (ROUGE documents)
        return (_TEXT,) * len(segs), tuple(segs)
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
    size = sum(int(a.size) for a in arrays if isinstance(a, np.ndarray))
    if size > MAX_NUMBERS // 2:
        return
    h, r = snapshot(hyps, refs)
    with _LOCK:
        _ENTRIES.pop(key, None)
        _ENTRIES[key] = (h, r, arrays, size)
        while len(_ENTRIES) > ENTRIES or sum(e[3] for e in _ENTRIES.values()) > MAX_NUMBERS:
            _ENTRIES.popitem(last=False)


def clear() -> None:
    """Forget every entry (tests)."""
    with _LOCK:
        _ENTRIES.clear()
