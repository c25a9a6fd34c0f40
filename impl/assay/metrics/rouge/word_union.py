"""rougeLsum over LCS *words* (``lcs_union=words``): pltrdy rouge 1.0.1's summary-level ROUGE-L.

Found black-box (pltrdy ``rouge`` 1.0.1 and rouge-chinese 1.0.3 run on hand-made pairs; no code
read). Where ROUGE-1.5.5 unions reference *positions* per reference sentence, this form keeps
one LCS word list per (reference sentence, hypothesis sentence) pair and gathers the words over
the whole document:

- the LCS word list of a reference sentence ``x`` and a hypothesis sentence ``y`` is read back
  from the ends of the LCS length table: equal last words are taken; otherwise the reference's
  last word is dropped when that keeps a strictly longer LCS than dropping the hypothesis's,
  else the hypothesis's is dropped (black-box: ``"b a"`` against reference ``"a b. a"`` gives
  hits 2, so the LCS of ``a b`` / ``b a`` read back is ``b``; ``"a b"`` against ``"b a. a"``
  gives 1);
- ``sets=True`` (pltrdy's default ``exclusive=True``, assay ``ngram_counts=set``): hits = the
  number of distinct words over every list, gathered across all reference sentences (``"a b"``
  against ``"a b. a b"``: 2, not 4); P and R divide by the numbers of distinct words of the
  hypothesis and of the reference;
- ``sets=False`` (``exclusive=False``, ``ngram_counts=multiset``): hits = the sum of the list
  lengths; P and R divide by the token counts, so R (or P) may exceed 1 (``"x y. y x"``
  against ``"x y"``: hits 3, R = 1.5).

:func:`store_counts` counts every pair of a token store at once; its compiled twin is
:mod:`assay.metrics.rouge._word_union_c` (``store_counts_py`` is the pure path).
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

from assay.core import accel

try:
    from assay.metrics.rouge import _word_union_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

Sentences = Sequence[Sequence[int]]
Counts = tuple[np.ndarray, np.ndarray, np.ndarray]


def lcs_words(ref: Sequence[int], hyp: Sequence[int]) -> list[int]:
    """The LCS of ``ref`` and ``hyp`` as read back from the ends (module docstring), last word first."""
    n, m = len(ref), len(hyp)
    if not n or not m:
        return []
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        row, above, word = table[i], table[i - 1], ref[i - 1]
        for j in range(1, m + 1):
            row[j] = above[j - 1] + 1 if word == hyp[j - 1] else max(above[j], row[j - 1])
    out: list[int] = []
    i, j = n, m
    while i and j:
        if ref[i - 1] == hyp[j - 1]:
            out.append(ref[i - 1])
            i -= 1
            j -= 1
        elif table[i - 1][j] > table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return out


def word_union(hyp: Sentences, ref: Sentences, sets: bool) -> tuple[int, int, int]:
    """(hits, reference count, hypothesis count) of one pair (module docstring)."""
    if sets:
        gathered: set[int] = set()
        for r in ref:
            for h in hyp:
                gathered.update(lcs_words(r, h))
        return (len(gathered), len({t for s in ref for t in s}), len({t for s in hyp for t in s}))
    hits = sum(len(lcs_words(r, h)) for r in ref for h in hyp)
    return hits, sum(map(len, ref)), sum(map(len, hyp))


def word_union_counts(pairs: Iterable[tuple[Sentences, Sentences]], sets: bool) -> Counts:
    """(hits, ref_count, peer_count) arrays of every (hypothesis sentences, reference sentences) pair."""
    out = np.array([word_union(h, r, sets) for h, r in pairs], dtype=np.float64).reshape(-1, 3)
    return out[:, 0], out[:, 1], out[:, 2]


def store_counts(store: Any, pair_h: np.ndarray, pair_r: np.ndarray, sets: bool) -> Counts:
    """(hits, ref_count, peer_count) of every pair (``pair_h[k]``, ``pair_r[k]``) of documents of
    ``store`` (a :class:`~assay.metrics.rouge.measures.Store` of sentences: ``tokens``, ``start``,
    ``length``, ``first``, ``count``); the compiled twin when built."""
    tokens, start, length, first, count, ph, pr = (np.ascontiguousarray(a, dtype=np.int64) for a in (
        store.tokens, store.start, store.length, store.first, store.count, pair_h, pair_r))
    if _compiled is not None:
        out: Counts = _compiled.store_counts(tokens, start, length, first, count, ph, pr, bool(sets))
        return out
    return store_counts_py(tokens, start, length, first, count, ph, pr, sets)


def store_counts_py(tokens: np.ndarray, start: np.ndarray, length: np.ndarray, first: np.ndarray,
                    count: np.ndarray, pair_h: np.ndarray, pair_r: np.ndarray, sets: bool) -> Counts:
    """:func:`store_counts`, pure: each document's sentences as lists, then :func:`word_union_counts`."""
    tok, st, ln = tokens.tolist(), start.tolist(), length.tolist()
    docs = [[tok[st[s]:st[s] + ln[s]] for s in range(f, f + c)] for f, c in zip(first.tolist(), count.tolist())]
    return word_union_counts(((docs[h], docs[r]) for h, r in zip(pair_h.tolist(), pair_r.tolist())), sets)
