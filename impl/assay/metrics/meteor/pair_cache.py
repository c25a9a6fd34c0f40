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
snapshot taken when the entry was stored (token lists as tuples, so a list changed in place is a
miss). Bounded: the :data:`ENTRIES` most recently used corpora and :data:`MAX_NUMBERS` stored
numbers in all (8 bytes each); a larger corpus is not stored.
"""
from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any, Hashable, Sequence

import numpy as np

ENTRIES = 4
MAX_NUMBERS = 4_000_000

_ENTRIES: "OrderedDict[Hashable, tuple[Any, Any, tuple[Any, ...]]]" = OrderedDict()
_LOCK = Lock()


def _frozen(seg: Any) -> Any:
    return seg if isinstance(seg, str) or seg is None else tuple(seg)


def snapshot(hyps: Sequence[Any], refs: Sequence[Sequence[Any]]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The corpus as nested tuples (strings kept, token lists made tuples): what a hit must equal."""
    return tuple(map(_frozen, hyps)), tuple(tuple(map(_frozen, stream)) for stream in refs)


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
