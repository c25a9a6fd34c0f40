"""TER's beam-limited edit distance (tercom's, with sacrebleu's beam), stored by bands.

The table's rows are hypothesis words, its columns reference words; unit-cost insertions,
deletions and substitutions. Row ``i`` (1-based) only computes the columns ``[d - b, d + b)``
around the pseudo-diagonal ``d = floor(i * n_ref / n_hyp)`` (``b``:
:func:`~.limits.beam_half_width`); the last row is computed to the end but cut on the left like
the others; row 0 is complete. Outside its band a cell is unreachable (infinite), so very unequal
or very long pairs can get more edits than the true Levenshtein distance.

Each row is stored as its band only (``rows[i][j - lo_i]`` = ``D[i][j]``), so a table takes
:func:`~.limits.table_cells` cells: linear in the segment length. Unreachable cells hold values
``>= INF``; every finite value is exact.

Candidate hypotheses (:meth:`Scorer.costs`) are scored on their changed rows only: from the
current hypothesis's row before the first moved word to the row ``e`` after the last one, then
closed with the current hypothesis's *suffix* rows ``B[e][j]`` (the fewest edits from cell
``(e, j)`` to the last cell through the beam; the words after the shift are the same). Every
path crosses row ``e``, so the candidate's distance is ``min_j D'[e][j] + B[e][j]``.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

from assay.metrics.ter.limits import BEAM_WIDTH, beam_half_width

INF = 1 << 40
#: candidates x band cells evaluated together (bounds the batch's memory, about 32 MB)
BATCH_CELLS = 1 << 22


def beam_bounds(n_hyp: int, n_ref: int, width: int = BEAM_WIDTH) -> list[tuple[int, int]]:
    """``[lo, hi)`` column range of rows 1..n_hyp (index 0 of the list is row 1)."""
    if n_hyp == 0:
        return []
    ratio = n_ref / n_hyp
    beam = beam_half_width(n_hyp, n_ref, width)
    out = []
    for i in range(1, n_hyp + 1):
        diag = math.floor(i * ratio)
        lo = max(0, diag - beam)
        hi = n_ref + 1 if i == n_hyp else min(n_ref + 1, diag + beam)
        out.append((lo, hi))
    return out


class _Table:
    """Per hypothesis/reference length pair: the beam bounds of rows 1..n_hyp."""

    __slots__ = ("bounds",)

    def __init__(self, n_hyp: int, n_ref: int, width: int):
        self.bounds = beam_bounds(n_hyp, n_ref, width)


def insertion_index(start: np.ndarray, length: np.ndarray, target: np.ndarray, n: int) -> np.ndarray:
    """Where :func:`.shifts.shifted` puts the block in the hypothesis without it (``n`` words with
    it): before index ``target`` when ``target <= start + length``, else ``target - length``, and
    never past the end."""
    return np.minimum(np.where(target > start + length, target - length, target), n - length)


def source_index(p: np.ndarray, start: np.ndarray, length: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Where word ``p`` of each shifted hypothesis comes from (vectorised :func:`.shifts.shifted`):
    the block ``[start, start + length)`` is taken out and inserted before index ``t``
    (:func:`insertion_index`) of what is left."""
    rest = np.where(p < t, p, p - length)                       # index in the hypothesis without the block
    rest = np.where(rest < start, rest, rest + length)
    return np.where((p >= t) & (p < t + length), start + p - t, rest)


class Scorer:
    """Beam edit distances of hypotheses of one length against one reference (banded numpy rows)."""

    def __init__(self, ref: Sequence[int], n_hyp: int, beam_width: int = BEAM_WIDTH):
        self.ref = np.asarray(ref, dtype=np.int64)
        self.n_ref = len(ref)
        self.n_hyp = n_hyp
        # refpad[j] = ref[j-1] (the word a step into column j matches); refpad[0] is never read
        # into a finite value: column -1 is unreachable
        self.refpad = np.concatenate(([-1], self.ref)).astype(np.int64)
        self.table = _Table(n_hyp, self.n_ref, beam_width)
        self.spans = [(0, self.n_ref + 1)] + self.table.bounds
        self.row0 = np.arange(self.n_ref + 1, dtype=np.int64)

    def step(self, prev: np.ndarray, i: int, words: np.ndarray) -> np.ndarray:
        """Row ``i`` from row ``i - 1`` for a batch (``prev``: (C, band of i-1); ``words``: (C,))."""
        plo, phi = self.spans[i - 1]
        lo, hi = self.spans[i]
        ext = np.full((len(prev), hi - lo + 1), INF, dtype=np.int64)      # columns lo-1 .. hi-1 of row i-1
        a, b = max(lo - 1, plo), min(hi, phi)
        if a < b:
            ext[:, a - lo + 1:b - lo + 1] = prev[:, a - plo:b - plo]
        cur = ext[:, :-1] + (words[:, None] != self.refpad[None, lo:hi])   # diagonal
        np.minimum(cur, ext[:, 1:] + 1, out=cur)                            # up (a hypothesis word)
        ar = np.arange(hi - lo, dtype=np.int64)                             # left (a reference word)
        cur -= ar
        np.minimum.accumulate(cur, axis=1, out=cur)
        cur += ar
        return cur

    def rows(self, hyp: np.ndarray) -> list[np.ndarray]:
        """The banded rows 0..n_hyp of one hypothesis."""
        out = [self.row0]
        prev = self.row0[None, :]
        for i in range(1, self.n_hyp + 1):
            prev = self.step(prev, i, hyp[i - 1:i])
            out.append(prev[0])
        return out

    def suffix_rows(self, hyp: np.ndarray) -> list[np.ndarray]:
        """The banded suffix rows ``B[i][j]`` (fewest edits from ``(i, j)`` to the last cell) of one
        hypothesis: ``B[i][j] = min(B[i+1][j+1] + (hyp[i] != ref[j]), B[i+1][j] + 1, B[i][j+1] + 1)``."""
        n = self.n_hyp
        lo, hi = self.spans[n]
        out = [np.empty(0, dtype=np.int64)] * (n + 1)
        out[n] = self.n_ref - np.arange(lo, hi, dtype=np.int64)
        for i in range(n - 1, -1, -1):
            nlo, nhi = self.spans[i + 1]
            lo, hi = self.spans[i]
            ext = np.full(hi - lo + 1, INF, dtype=np.int64)        # columns lo .. hi of row i+1
            a, b = max(lo, nlo), min(hi + 1, nhi)
            if a < b:
                ext[a - lo:b - lo] = out[i + 1][a - nlo:b - nlo]
            # refpad[j + 1] = ref[j]; column n_ref has no diagonal step (ext is INF there)
            cur = ext[1:] + (hyp[i] != self.refpad[lo + 1:hi + 1] if hi <= self.n_ref
                             else np.append(hyp[i] != self.refpad[lo + 1:hi], True))
            np.minimum(cur, ext[:-1] + 1, out=cur)
            ar = np.arange(hi - lo, dtype=np.int64)                # right (a reference word), leftwards
            cur += ar
            cur[::-1] = np.minimum.accumulate(cur[::-1])
            cur -= ar
            out[i] = cur
        return out

    def value(self, rows: list[np.ndarray]) -> Callable[[int, int], int]:
        """``D[i][j]`` of banded rows (``INF`` outside the band)."""
        spans = self.spans

        def value(i: int, j: int) -> int:
            lo, hi = spans[i]
            return int(rows[i][j - lo]) if lo <= j < hi else INF
        return value

    def full_table(self, hyp: np.ndarray) -> np.ndarray:
        """All rows as one (n_hyp + 1, n_ref + 2) array, column ``j + 1`` = reference position ``j``
        (for inspection and tests: quadratic memory, unlike :meth:`rows`)."""
        dense = np.full((self.n_hyp + 1, self.n_ref + 2), INF, dtype=np.int64)
        for i, row in enumerate(self.rows(hyp)):
            lo, hi = self.spans[i]
            dense[i, lo + 1:hi + 1] = row
        return dense

    def costs(self, words: np.ndarray, cands: Sequence[tuple[int, int, int]], rows: list[np.ndarray]) -> list[int]:
        """Beam distance of ``words`` shifted by each ``(length, start, target)`` of ``cands``;
        ``rows`` are the banded rows of ``words`` (the candidates start from them)."""
        suffix = self.suffix_rows(words)
        width = max(hi - lo for lo, hi in self.spans[1:])
        chunk = max(1, BATCH_CELLS // max(width, 1))
        out: list[int] = []
        for k in range(0, len(cands), chunk):
            out += self._costs(words, cands[k:k + chunk], rows, suffix)
        return out

    def _costs(self, words: np.ndarray, cands: Sequence[tuple[int, int, int]], rows: list[np.ndarray],
               suffix: list[np.ndarray]) -> list[int]:
        spec = np.asarray(cands, dtype=np.int64).reshape(-1, 3)
        length, start, target = spec[:, 0], spec[:, 1], spec[:, 2]
        t = insertion_index(start, length, target, self.n_hyp)
        first = np.minimum(start, t)                 # rows 0..first are the current hypothesis's
        end = np.maximum(start, t) + length          # words from `end` on are unchanged
        out = np.full(len(spec), int(rows[self.n_hyp][-1]), dtype=np.int64)
        order = np.argsort(first, kind="stable")
        order = order[start[order] != t[order]]      # moving a block to where it is changes nothing
        pending = 0
        active = order[:0]
        prev = np.empty((0, 0), dtype=np.int64)
        while pending < len(order) or len(active):
            if len(active) == 0:                     # jump to the next candidate's first row
                row = int(first[order[pending]])
                prev = np.empty((0, self.spans[row][1] - self.spans[row][0]), dtype=np.int64)
            joining = pending
            while pending < len(order) and first[order[pending]] == row:
                pending += 1
            if pending > joining:
                active = np.concatenate((active, order[joining:pending]))
                prev = np.vstack((prev, np.repeat(rows[row][None, :], pending - joining, axis=0)))
            row += 1
            src = source_index(np.int64(row - 1), start[active], length[active], t[active])
            prev = self.step(prev, row, words[src])
            done = end[active] == row
            if done.any():
                out[active[done]] = (prev[done] + suffix[row][None, :]).min(axis=1)
                active, prev = active[~done], prev[~done]
        return out.tolist()


def _out_of_beam_floor(n_hyp: int, n_ref: int, bounds: list[tuple[int, int]]) -> int:
    """A lower bound on the cost of any path through a cell outside the beam.

    Through ``(i, j)`` a path costs at least ``|i - j| + |(n_hyp - i) - (n_ref - j)|``; when the
    unbanded distance is below this floor, no optimal path (and no tie met while tracing one
    back) leaves the beam, so beam and unbanded tables agree on the cost and on the alignment.
    """
    floor = INF
    for i in range(1, n_hyp + 1):        # the last row too: it is cut on the left
        lo, hi = bounds[i - 1]
        for a, b in ((0, lo - 1), (hi, n_ref)):
            if a > b:
                continue
            for j in (a, b, min(max(i, a), b), min(max(i + n_ref - n_hyp, a), b)):
                cost = abs(i - j) + abs((n_hyp - i) - (n_ref - j))
                if cost < floor:
                    floor = cost
    return floor
