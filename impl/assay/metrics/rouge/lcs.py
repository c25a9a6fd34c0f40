"""Longest common subsequences for ROUGE-L, ROUGE-Lsum and ROUGE-W.

Tokens are small ints (interned per corpus). The LCS length and the matched reference
positions come from the bit-parallel algorithm of Allison & Dix (1986) in Hyyro's form
(2004): one machine word per 64 reference positions, here one Python int per sentence.
For each hypothesis token ``c`` (a row of the DP table, bits = reference positions)::

    U = V & match[c];  V = ((V + U) | (V - U)) & mask

A zero bit ``i`` of ``V`` after row ``j`` means ``T[i+1][j] = T[i][j] + 1`` in the usual table
``T[i][j]`` = LCS of ``ref[:i]`` and ``hyp[:j]``; the LCS length is the number of zero bits.

Matched positions (the union LCS of ROUGE-1.5.5's ROUGE-L and rouge-score's rougeLsum) follow
the backtrack both tools use: from ``(i, j) = (|ref|, |hyp|)``, a match ``ref[i-1] == hyp[j-1]``
is taken diagonally; otherwise the walk moves along the reference (``i -= 1``) unless that loses
length (``T[i-1][j] < T[i][j]``), i.e. ties go toward the reference index. With the rows kept,
each step is a bit test, and a run of reference moves is one ``bit_length``.

ROUGE-W's weighted LCS (Lin 2004, f(k) = k ** weight) is a plain dynamic programme
(:func:`wlcs_positions`).
"""
from __future__ import annotations

from itertools import accumulate
from typing import Sequence


def match_masks(ref: Sequence[int]) -> dict[int, int]:
    """Bit mask of the positions of each token in ``ref`` (bit i = position i)."""
    masks: dict[int, int] = {}
    for i, tok in enumerate(ref):
        masks[tok] = masks.get(tok, 0) | (1 << i)
    return masks


def lcs_length(ref: Sequence[int], hyp: Sequence[int], masks: dict[int, int] | None = None) -> int:
    """Length of the LCS of ``ref`` and ``hyp`` (bit-parallel, rows over ``hyp``)."""
    m = len(ref)
    if m == 0 or not hyp:
        return 0
    if masks is None:
        masks = match_masks(ref)
    mask = (1 << m) - 1
    v = mask
    get = masks.get
    for u in [get(tok, 0) for tok in hyp]:
        if u:
            u &= v
            v = ((v + u) | (v ^ u)) & mask
    return m - v.bit_count()


def lcs_rows(ref: Sequence[int], hyp: Sequence[int], masks: dict[int, int]) -> list[int]:
    """``D[j]`` for j = 0..|hyp|: bit i set iff ``T[i+1][j] = T[i][j] + 1`` (increments along ref)."""
    m = len(ref)
    mask = (1 << m) - 1
    v = mask
    rows = [0]
    get = masks.get
    for tok in hyp:
        u = v & get(tok, 0)
        if u:
            v = ((v + u) | (v - u)) & mask
        rows.append(~v & mask)
    return rows


def lcs_ref_positions(ref: Sequence[int], hyp: Sequence[int], masks: dict[int, int] | None = None) -> int:
    """The reference positions of the LCS chosen by the tools' backtrack, as a bit mask."""
    if not ref or not hyp:
        return 0
    if masks is None:
        masks = match_masks(ref)
    get = masks.get
    return positions_from_masks(len(ref), [get(t, 0) for t in hyp])


def positions_from_masks(m: int, hyp_masks: Sequence[int]) -> int:
    """:func:`lcs_ref_positions` given ``hyp_masks[j]`` = match mask of ``hyp[j]`` in the reference.

    Forward pass: the rows (``V`` after each hypothesis token). Backward: in row j the walk from i
    stops at the highest position p < i that is a match of ``hyp[j-1]`` (diagonal: p is chosen,
    i = p) or an increment of the row (the walk moves along hyp, i = p + 1). Rows of tokens absent
    from the reference leave ``V`` unchanged, so a run of them acts like one such row: only rows of
    matching tokens are kept, each noting whether such a run precedes it.
    """
    mask = (1 << m) - 1
    v = mask
    rows: list[tuple[int, int, bool]] = []   # (match mask, V after the row, a run of absent tokens precedes)
    gap = False
    for u in hyp_masks:
        if not u:
            gap = True
            continue
        x = u & v
        if x:
            v = ((v + x) | (v ^ x)) & mask   # Hyyro: (V + U) | (V - U), and V - U = V ^ U as U <= V
        rows.append((u, v, gap))
        gap = False
    if v == mask:          # no common token
        return 0
    chosen = 0
    below = mask
    if gap:                # trailing absent tokens: one step in the last row
        stop = ~v & below
        if not stop:
            return 0
        below = (2 << (stop.bit_length() - 1)) - 1
    k = len(rows)
    while k:
        k -= 1
        match, row, gap_before = rows[k]
        stop = (match | ~row) & below        # ~row: the increments of this row
        if not stop:
            break
        p = stop.bit_length() - 1
        if (match >> p) & 1:
            chosen |= 1 << p
            if not p:
                break
            below = (1 << p) - 1
        else:
            below = (2 << p) - 1
        if gap_before:     # the absent-token run before this row has the previous row's V
            prev = rows[k - 1][1] if k else mask
            stop = ~prev & below
            if not stop:
                break
            below = (2 << (stop.bit_length() - 1)) - 1
    return chosen


# ----------------------------------------------------------------------------- plain DP (tests)
def lcs_table(ref: Sequence[int], hyp: Sequence[int]) -> list[list[int]]:
    """``T[i][j]`` = LCS length of ``ref[:i]`` and ``hyp[:j]`` (the textbook O(mn) table)."""
    t = [[0] * (len(hyp) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(hyp) + 1):
            t[i][j] = t[i - 1][j - 1] + 1 if ref[i - 1] == hyp[j - 1] else max(t[i - 1][j], t[i][j - 1])
    return t


def lcs_ref_positions_dp(ref: Sequence[int], hyp: Sequence[int]) -> list[int]:
    """Backtrack on the textbook table: match -> diagonal; else along hyp only when
    ``T[i][j-1] > T[i-1][j]`` (ties toward the reference index). Sorted positions."""
    t = lcs_table(ref, hyp)
    i, j, out = len(ref), len(hyp), []
    while i > 0 and j > 0:
        if ref[i - 1] == hyp[j - 1]:
            out.append(i - 1)
            i -= 1
            j -= 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return sorted(out)


# ----------------------------------------------------------------------------- weighted LCS
def wlcs_positions(ref: Sequence[int], hyp: Sequence[int], weight: float) -> list[int]:
    """Reference positions of the weighted LCS (Lin 2004), f(k) = k ** weight.

    ``C[i][j] = C[i-1][j-1] + f(k+1) - f(k)`` on a match, where ``k`` is the length of the run of
    consecutive matches ending at ``(i-1, j-1)``; otherwise the larger of ``C[i-1][j]`` and
    ``C[i][j-1]``, ``C[i-1][j]`` on ties (toward the reference index, as ROUGE-1.5.5; found
    black-box), with the run reset. Rows are reference positions (ROUGE-1.5.5 marks hits on the
    model = reference). The backtrack re-derives each move from the kept rows: a match is taken
    diagonally, else up when ``C[i-1][j] >= C[i][j-1]``.
    """
    m, n = len(ref), len(hyp)
    if not m or not n or set(ref).isdisjoint(hyp):
        return []
    limit = min(m, n) + 1
    gain = [(k + 1) ** weight - k ** weight for k in range(limit)]
    hset = set(hyp)
    c_prev = [0.0] * (n + 1)
    w_prev = [0] * (n + 1)
    table = [c_prev]
    js = range(1, n + 1)
    for tok in ref:
        if tok not in hset:      # no match in this row: C is the running maximum of the row above
            c_row = list(accumulate(c_prev, max))
            table.append(c_row)
            c_prev = c_row
            w_prev = [0] * (n + 1)
            continue
        c_row = [0.0] * (n + 1)
        w_row = [0] * (n + 1)
        left = 0.0
        for j in js:
            if hyp[j - 1] == tok:
                k = w_prev[j - 1]
                left = c_prev[j - 1] + gain[k]
                w_row[j] = k + 1
            else:
                up = c_prev[j]
                if up >= left:
                    left = up
            c_row[j] = left
        table.append(c_row)
        c_prev, w_prev = c_row, w_row
    out = []
    i, j = m, n
    while i > 0 and j > 0:
        if ref[i - 1] == hyp[j - 1]:
            out.append(i - 1)
            i -= 1
            j -= 1
        elif table[i - 1][j] >= table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    out.reverse()
    return out
