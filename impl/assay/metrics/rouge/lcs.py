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

Batched forms (numpy, for a whole corpus at once, bit-identical results): the bit-parallel rows
of many pairs in 64-bit words with carries across words (:func:`batch_lcs_lengths`,
:func:`batch_lcs_positions`: the same backtrack, run on all pairs row by row), and the weighted
programme filled one anti-diagonal at a time over all pairs of similar size
(:func:`batch_wlcs_positions`).

Compiled twin (:mod:`assay.metrics.rouge._lcs_c`): :func:`lcs_length`, :func:`lcs_ref_positions`
and :func:`wlcs_positions` run it when built (``*_py`` are the pure functions); it keeps memory
linear in the lengths (rows checkpointed for long sequences), and its store-level functions
serve :class:`assay.metrics.rouge.measures.PairBatch`.
"""
from __future__ import annotations

from itertools import accumulate
from typing import Sequence

import numpy as np

from assay.core import accel

try:
    from assay.metrics.rouge import _lcs_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)


def match_masks(ref: Sequence[int]) -> dict[int, int]:
    """Bit mask of the positions of each token in ``ref`` (bit i = position i)."""
    masks: dict[int, int] = {}
    for i, tok in enumerate(ref):
        masks[tok] = masks.get(tok, 0) | (1 << i)
    return masks


def lcs_length(ref: Sequence[int], hyp: Sequence[int], masks: dict[int, int] | None = None) -> int:
    """Length of the LCS of ``ref`` and ``hyp`` (the compiled twin unless ``masks`` are given)."""
    if _compiled is not None and masks is None:
        return _compiled.lcs_length(ref, hyp)
    return lcs_length_py(ref, hyp, masks)


def lcs_length_py(ref: Sequence[int], hyp: Sequence[int], masks: dict[int, int] | None = None) -> int:
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
    """The reference positions of the LCS chosen by the tools' backtrack, as a bit mask (the
    compiled twin unless ``masks`` are given)."""
    if _compiled is not None and masks is None:
        return _compiled.lcs_ref_positions(ref, hyp)
    return lcs_ref_positions_py(ref, hyp, masks)


def lcs_ref_positions_py(ref: Sequence[int], hyp: Sequence[int], masks: dict[int, int] | None = None) -> int:
    """:func:`lcs_ref_positions`, pure: :func:`positions_from_masks` on the reference's match masks."""
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
def wlcs_weights(limit: int, weight: float) -> tuple[list[float], list[float]]:
    """``(gain, f)`` for k = 0 .. limit: ``f[k] = k ** weight`` and ``gain[k] = (k + 1) ** weight -
    k ** weight`` (the weighted LCS's step for extending a run of k matches), by Python's float power
    (the compiled twins take these, so C's ``pow`` never enters)."""
    f = [k ** weight for k in range(limit + 2)]
    return [f[k + 1] - f[k] for k in range(limit + 1)], f[:-1]


def wlcs_positions(ref: Sequence[int], hyp: Sequence[int], weight: float) -> list[int]:
    """:func:`wlcs_positions_py`, by the compiled twin when built."""
    if _compiled is not None:
        gain = wlcs_weights(min(len(ref), len(hyp)), weight)[0]
        return _compiled.wlcs_positions(ref, hyp, np.array(gain, dtype=np.float64))
    return wlcs_positions_py(ref, hyp, weight)


def wlcs_positions_py(ref: Sequence[int], hyp: Sequence[int], weight: float) -> list[int]:
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
    gain = wlcs_weights(limit, weight)[0]
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


# ============================================================================= batched (numpy)
# The functions below compute the same quantities for many (reference, hypothesis) sequence
# pairs at once, vectorised over the pairs; values are bit-identical to the per-pair functions
# above (integer bit operations; the weighted DP uses the same float64 additions and ties).
_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)
_U1 = np.uint64(1)
_BYTE_POP = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each uint64 (summed over a trailing words axis when ``x`` is 2-D)."""
    x = np.ascontiguousarray(x, dtype=np.uint64)
    if hasattr(np, "bitwise_count"):
        counts = np.bitwise_count(x).astype(np.int64)
    else:  # numpy < 2.0
        counts = _BYTE_POP[x.view(np.uint8)].reshape(x.shape + (8,)).sum(axis=-1)
    return counts.sum(axis=-1) if counts.ndim == 2 else counts


def bit_length(x: np.ndarray) -> np.ndarray:
    """``int.bit_length`` of each uint64 (``x`` > 0; 0 gives 1), as int64.

    float64 conversion rounds ``x`` to nearest, which can round up into the next binade
    (``2**k - 1`` with k > 53 becomes ``2**k``): one shift test corrects that.
    """
    x = x | _U1
    e = np.frexp(x.astype(np.float64))[1].astype(np.int64)
    np.minimum(e, 64, out=e)
    e -= ((x >> (e - 1).astype(np.uint64)) == 0)
    return e


def low_bits(q: np.ndarray, words: int) -> np.ndarray:
    """(len(q), words) uint64 masks with bits ``0 .. q-1`` set (0 <= q <= 64 * words)."""
    q = np.asarray(q, dtype=np.int64)
    out = np.empty((len(q), words), dtype=np.uint64)
    for w in range(words):
        b = np.clip(q - 64 * w, 0, 64)
        full = b >= 64
        part = (_U1 << np.minimum(b, 63).astype(np.uint64)) - _U1
        out[:, w] = np.where(full, _ONES, part)
    return out


class StepMajor:
    """Per-pair sequences of match masks laid out step by step (the bit-parallel rows).

    Pairs are ranked by hypothesis length, longest first; the masks of step ``j`` (the j-th
    hypothesis token) of the ``counts[j]`` pairs still running are ``masks[offsets[j]:
    offsets[j] + counts[j]]``, in rank order. ``order[k]`` is the pair of rank k.
    """

    def __init__(self, pair_masks: np.ndarray, hyp_len: np.ndarray):
        """``pair_masks``: (sum(hyp_len), words) uint64, pair-major (pair 0's tokens first)."""
        hyp_len = np.asarray(hyp_len, dtype=np.int64)
        n_pairs = len(hyp_len)
        self.order = np.argsort(-hyp_len, kind="stable")
        lens = hyp_len[self.order]
        self.lens = lens
        steps = int(lens[0]) if n_pairs else 0
        # counts[j] = #pairs with length > j (lens descending)
        self.counts = np.searchsorted(-lens, -np.arange(steps), side="left").astype(np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(self.counts)])[:-1].astype(np.int64)
        # destination of each pair-major element: offsets[j] + rank
        start = np.concatenate([[0], np.cumsum(hyp_len)])[:-1]
        rank = np.empty(n_pairs, dtype=np.int64)
        rank[self.order] = np.arange(n_pairs)
        total = int(hyp_len.sum())
        owner = np.repeat(np.arange(n_pairs), hyp_len)
        j = np.arange(total) - start[owner]
        dest = self.offsets[j] + rank[owner] if total else np.zeros(0, dtype=np.int64)
        self.masks = np.empty_like(pair_masks)
        self.masks[dest] = pair_masks
        self.steps = steps


def _advance(v: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Hyyro's row update ``(V + U) | (V - U)`` (U subset of V, so V - U = V ^ U) on multiword rows."""
    if v.shape[1] == 1:
        return (v + u) | (v ^ u)
    out = np.empty_like(v)
    carry = np.zeros(len(v), dtype=np.uint64)
    for w in range(v.shape[1]):
        a, b = v[:, w], u[:, w]
        s = a + b
        c1 = s < a
        s2 = s + carry
        c2 = s2 < s
        carry = (c1 | c2).astype(np.uint64)
        out[:, w] = s2 | (a ^ b)
    return out


def batch_rows(sm: StepMajor, words: int, keep: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """Run the bit-parallel LCS rows; returns V of every pair after its last token (rank order)
    and, when ``keep``, V after every step (laid out like ``sm.masks``).

    V starts as all ones in every word; bits above a reference's length only ever receive
    carries, which move upward, so they never disturb the reference's own bits.
    """
    n_pairs = len(sm.order)
    v = np.full((n_pairs, words), _ONES, dtype=np.uint64)
    rows = np.empty((len(sm.masks), words), dtype=np.uint64) if keep else None
    for j in range(sm.steps):
        c, o = int(sm.counts[j]), int(sm.offsets[j])
        vc = v[:c]
        u = vc & sm.masks[o:o + c]
        vc = _advance(vc, u)
        v[:c] = vc
        if rows is not None:
            rows[o:o + c] = vc
    return v, rows


def batch_lcs_lengths(pair_masks: np.ndarray, hyp_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """LCS lengths of many pairs (:func:`lcs_length`); ``pair_masks`` as in :class:`StepMajor`."""
    n_pairs = len(hyp_len)
    if n_pairs == 0:
        return np.zeros(0, dtype=np.int64)
    words = pair_masks.shape[1]
    sm = StepMajor(pair_masks, hyp_len)
    v, _ = batch_rows(sm, words, keep=False)
    low = low_bits(np.asarray(ref_len, dtype=np.int64)[sm.order], words)
    out = np.empty(n_pairs, dtype=np.int64)
    out[sm.order] = popcount(~v & low)
    return out


def batch_lcs_positions(pair_masks: np.ndarray, hyp_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """The LCS reference positions of many pairs, as (n_pairs, words) uint64 bit masks
    (:func:`lcs_ref_positions`: the tools' backtrack, ties toward the reference index).

    Backward over the rows j = n .. 1 with ``below`` = the positions under the walk's i: the
    walk stops at the highest position p in ``below`` that matches ``hyp[j-1]`` (diagonal: p is
    chosen, below = positions < p) or is an increment of row j (the walk moves along the
    hypothesis: below = positions <= p); nothing there ends the walk.
    """
    n_pairs = len(hyp_len)
    words = pair_masks.shape[1]
    if n_pairs == 0:
        return np.zeros((0, words), dtype=np.uint64)
    sm = StepMajor(pair_masks, hyp_len)
    _, rows = batch_rows(sm, words, keep=True)
    assert rows is not None
    below = low_bits(np.asarray(ref_len, dtype=np.int64)[sm.order], words)
    chosen = np.zeros((n_pairs, words), dtype=np.uint64)
    for j in range(sm.steps - 1, -1, -1):
        c, o = int(sm.counts[j]), int(sm.offsets[j])
        match = sm.masks[o:o + c]
        stop = (match | ~rows[o:o + c]) & below[:c]
        # highest set bit of stop over the words
        top = np.full(c, -1, dtype=np.int64)
        for w in range(words):
            sw = stop[:, w]
            nz = sw != 0
            top = np.where(nz, 64 * w + bit_length(sw) - 1, top)
        alive = top >= 0
        tp = np.maximum(top, 0)
        wi = tp >> 6
        bit = _U1 << (tp & 63).astype(np.uint64)
        mword = np.take_along_axis(match, wi[:, None], axis=1)[:, 0]
        is_match = alive & ((mword & bit) != 0)
        if is_match.any():
            rows_m = np.nonzero(is_match)[0]
            chosen[rows_m, wi[rows_m]] |= bit[rows_m]
        q = np.where(alive, tp + (~is_match).astype(np.int64), 0)
        below[:c] = low_bits(q, words)
    out = np.empty_like(chosen)
    out[sm.order] = chosen
    return out


_EDGES = (8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512)


def _edge(x: int) -> int:
    for e in _EDGES:
        if x <= e:
            return e
    return int(x)


def batch_wlcs_positions(ref_tokens: np.ndarray, ref_start: np.ndarray, ref_len: np.ndarray,
                         hyp_tokens: np.ndarray, hyp_start: np.ndarray, hyp_len: np.ndarray,
                         weight: float, max_cells: int = 1 << 24) -> tuple[np.ndarray, np.ndarray]:
    """:func:`wlcs_positions` of many pairs: pair k is ``ref_tokens[ref_start[k]:][:ref_len[k]]``
    against ``hyp_tokens[hyp_start[k]:][:hyp_len[k]]`` (token ids >= 0, lengths >= 1).

    Returns ``(pair, position)`` arrays of the chosen reference positions, sorted by pair, then
    position. Pairs are grouped by padded size; the table is filled one anti-diagonal at a time
    (its cells depend on the two previous diagonals only), vectorised over the pairs and the
    diagonal; the float64 sums ``C[i-1][j-1] + gain[k]`` and the ``>=`` ties are those of the
    per-pair programme, and only the backtrack's decision ``C[i-1][j] >= C[i][j-1]`` is kept.
    """
    ref_len = np.asarray(ref_len, dtype=np.int64)
    hyp_len = np.asarray(hyp_len, dtype=np.int64)
    n_pairs = len(ref_len)
    out_pair: list[np.ndarray] = []
    out_pos: list[np.ndarray] = []
    if n_pairs == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    limit = int(min(ref_len.max(), hyp_len.max())) + 2
    gain = np.array(wlcs_weights(limit, weight)[0], dtype=np.float64)
    mb = np.array([_edge(int(x)) for x in range(int(ref_len.max()) + 1)], dtype=np.int64)[ref_len]
    nb = np.array([_edge(int(x)) for x in range(int(hyp_len.max()) + 1)], dtype=np.int64)[hyp_len]
    bucket = mb * (int(nb.max()) + 1) + nb
    order = np.argsort(bucket, kind="stable")
    bounds = np.flatnonzero(np.diff(bucket[order])) + 1
    for group in np.split(order, bounds):
        m_pad, n_pad = int(mb[group[0]]), int(nb[group[0]])
        chunk = max(1, max_cells // ((m_pad + n_pad + 1) * (m_pad + 1)))
        for s in range(0, len(group), chunk):
            idx = group[s:s + chunk]
            pairs, pos = _wlcs_block(ref_tokens, ref_start[idx], ref_len[idx], hyp_tokens, hyp_start[idx],
                                     hyp_len[idx], m_pad, n_pad, gain)
            out_pair.append(idx[pairs])
            out_pos.append(pos)
    pair = np.concatenate(out_pair)
    pos = np.concatenate(out_pos)
    key = np.lexsort((pos, pair))
    return pair[key], pos[key]


def _padded(tokens: np.ndarray, start: np.ndarray, length: np.ndarray, width: int, fill: int) -> np.ndarray:
    """(width, n_pairs): column k holds pair k's tokens, then ``fill``."""
    rows = np.arange(width)[:, None]
    valid = rows < length[None, :]
    idx = np.where(valid, start[None, :] + rows, 0)
    return np.where(valid, tokens[idx], fill)


def _wlcs_block(ref_tokens: np.ndarray, ref_start: np.ndarray, ref_len: np.ndarray, hyp_tokens: np.ndarray,
                hyp_start: np.ndarray, hyp_len: np.ndarray, m_pad: int, n_pad: int,
                gain: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One block of pairs padded to m_pad x n_pad: (pair within block, position) of the choices.

    Arrays are (position, pair) so that every step works on contiguous runs of pairs.
    """
    n = len(ref_len)
    ref = _padded(ref_tokens, ref_start, ref_len, m_pad, -1)            # (m_pad, n)
    hyp_rev = _padded(hyp_tokens, hyp_start, hyp_len, n_pad, -2)[::-1]  # row r: hyp[n_pad - 1 - r]
    hyp_rev = np.ascontiguousarray(hyp_rev)
    # skewed storage: cell (i, j) at diagonal d = i + j, row i; three rolling diagonals. A
    # diagonal's buffer is only ever written at rows i < d, so the boundary cells C[0][*]
    # (row 0) and C[d][0] (row d) stay 0 without clearing. Run lengths are 0 except at the
    # matches, which are cleared again when their buffer comes back.
    cs = [np.zeros((m_pad + 1, n)) for _ in range(3)]
    ks = [np.zeros((m_pad + 1) * n, dtype=np.int64) for _ in range(3)]
    k_hits: list[np.ndarray] = [np.zeros(0, dtype=np.int64)] * 3
    d_all = np.arange(m_pad + n_pad + 2)
    lo = np.maximum(1, d_all - n_pad)
    hi = np.minimum(m_pad, d_all - 1)
    size = np.maximum(hi - lo + 1, 0) * n
    size[:2] = 0
    off = np.concatenate([[0], np.cumsum(size)])
    up_ge = np.empty(int(off[-1]), dtype=bool)      # the backtrack's C[i-1][j] >= C[i][j-1], diagonal by diagonal
    for d in range(2, m_pad + n_pad + 1):
        i0, i1 = int(lo[d]), int(hi[d])
        c0, c1, c2 = cs[d % 3], cs[(d - 1) % 3], cs[(d - 2) % 3]
        k0, k2 = ks[d % 3], ks[(d - 2) % 3]
        up = c1[i0 - 1:i1]          # C[i-1][j]
        left = c1[i0:i1 + 1]        # C[i][j-1]
        val = c0[i0:i1 + 1]
        np.greater_equal(up, left, out=up_ge[off[d]:off[d + 1]].reshape(i1 - i0 + 1, n))
        np.maximum(up, left, out=val)
        k0[k_hits[d % 3]] = 0
        hit = np.flatnonzero(ref[i0 - 1:i1] == hyp_rev[n_pad - d + i0:n_pad - d + i1 + 1])
        if len(hit):
            run = k2[hit + (i0 - 1) * n]   # the run of matches ending at (i-1, j-1)
            val.reshape(-1)[hit] = c2.reshape(-1)[hit + (i0 - 1) * n] + gain[run]
            here = hit + i0 * n
            k0[here] = run + 1
            k_hits[d % 3] = here
        else:
            k_hits[d % 3] = hit
    # backtrack: match -> diagonal; else up when C[i-1][j] >= C[i][j-1]
    hyp = hyp_rev[::-1]
    i = ref_len.copy()
    j = hyp_len.copy()
    live = np.arange(n)
    pairs: list[np.ndarray] = []
    positions: list[np.ndarray] = []
    while len(live):
        ii, jj = i[live], j[live]
        is_match = ref[ii - 1, live] == hyp[jj - 1, live]
        if is_match.any():
            pairs.append(live[is_match])
            positions.append(ii[is_match] - 1)
        dd = ii + jj
        go_up = is_match | up_ge[off[dd] + (ii - lo[dd]) * n + live]
        go_left = is_match | ~go_up
        ii = ii - go_up
        jj = jj - go_left
        i[live], j[live] = ii, jj
        live = live[(ii > 0) & (jj > 0)]
    if not pairs:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(pairs), np.concatenate(positions)
