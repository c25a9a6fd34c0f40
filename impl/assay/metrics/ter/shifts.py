"""TER edit counting: beam-limited edit distance plus greedy block shifts (Snover et al. 2006, tercom).

``ter_edits(hyp, ref)`` = number of shifts + edit distance of the shifted hypothesis, for token
sequences (strings or ids: only their equality matters). The search is tercom's, with the limits and tie rules of sacrebleu 2.x / 1.5.1
(each behaviour below was pinned down by differential runs against sacrebleu, not read from it):

- **Edit distance**: the beam-limited table of :mod:`.beam` (beam 25 around the length-ratio
  diagonal; outside it a cell is unreachable, so very unequal or very long pairs can get more
  edits than the true Levenshtein distance: one word against a 101-word reference containing
  it costs 101 edits, not 100).
- **Alignment** (which words are errors, where each reference word sits in the hypothesis): the
  path is traced back from the last cell preferring match/substitution, then a hypothesis-only
  step, then a reference-only step. A reference word skipped by the path is aligned to the last
  hypothesis word consumed before it.
- **Shift candidates**: every pair of equal spans ``hyp[s:s+l] == ref[t:t+l]`` with ``l <= 10``
  and ``|s - t| <= 50``, enumerated by hypothesis start, then reference start, then length;
  skipped unless the hypothesis span holds an error, the reference span holds an error, and the
  reference start is not aligned inside the span. Each is tried at the insertion points just
  after the hypothesis word aligned with ``ref[t-1+k]`` for ``k = 0..l`` (or at 0), moving the
  span *before* that index; consecutive equal points are tried once.
- **Ranking**: largest edit-distance gain, then longer span, then earlier hypothesis start,
  then earlier insertion point. A shift is made when its gain is positive (it costs 1 edit).
- **Budget**: at most 1000 candidate evaluations per hypothesis/reference pair, summed over
  rounds; the round in which the budget runs out ends the search *without* making its shift
  (so the order in which that round enumerates candidates cannot show in any result, and its
  candidates need not be scored).

Each rule above changes results on the differential corpora when altered (checked by mutating
it: e.g. preferring a reference-only step over a hypothesis-only one changes 13 of 2060 cases,
making the exhausted round's shift changes 19, beam 24 instead of 25 changes 2).

Cost: memory is linear in the segment length (banded rows; the bit rows only for short
references), and the work is bounded by the limits (:mod:`.limits`, which also states assay's
bound on very long segments). :func:`ter_edits` runs the compiled twin
(``assay.metrics.ter._shifts_c``) when it is built; :func:`ter_edits_py` is this specification.
"""
from __future__ import annotations

from bisect import bisect_left
from itertools import accumulate
from typing import Callable, Hashable, Sequence

import numpy as np

from assay.core import accel
from assay.metrics.ter.beam import INF, Scorer, _out_of_beam_floor, beam_bounds
from assay.metrics.ter.bitrows import MAX_REF as BIT_ROWS_MAX_REF
from assay.metrics.ter.bitrows import BitRows, State, bit_value
from assay.metrics.ter.limits import (BEAM_WIDTH, MAX_CANDIDATES, MAX_SHIFT_DIST, MAX_SHIFT_SIZE,
                                      SACREBLEU_LIMITS, Limits, check_cost)

try:
    from assay.metrics.ter import _shifts_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

__all__ = ["BEAM_WIDTH", "INF", "MAX_CANDIDATES", "MAX_SHIFT_DIST", "MAX_SHIFT_SIZE", "SACREBLEU_LIMITS",
           "BitRows", "Limits", "Scorer", "beam_bounds", "shifted", "ter_edits", "ter_edits_py"]

Candidate = tuple[int, int, int]      # (length, start, target)


def _alignment(value: Callable[[int, int], int], hyp: Sequence[int], ref: Sequence[int]
               ) -> tuple[list[int], list[bool], list[bool]]:
    """Trace back a table given as ``value(i, j)``: (ref -> hyp alignment, hyp errors, ref errors)."""
    n_h, n_r = len(hyp), len(ref)
    align = [0] * n_r
    herr = [False] * n_h
    rerr = [False] * n_r
    i, j = n_h, n_r
    steps: list[int] = []   # 0 match, 1 substitution, 2 hyp-only, 3 ref-only (walking backwards)
    v = value(i, j)
    while i > 0 or j > 0:
        if i > 0 and j > 0:
            mismatch = hyp[i - 1] != ref[j - 1]
            diag = value(i - 1, j - 1)
            if diag + mismatch == v:
                steps.append(1 if mismatch else 0)
                i -= 1
                j -= 1
                v = diag
                continue
        if i > 0:
            up = value(i - 1, j)
            if up + 1 == v:
                steps.append(2)
                i -= 1
                v = up
                continue
        steps.append(3)
        j -= 1
        v = value(i, j)
    hp = rp = -1
    for step in reversed(steps):
        if step <= 1:
            hp += 1
            rp += 1
            align[rp] = hp
            if step == 1:
                herr[hp] = rerr[rp] = True
        elif step == 2:
            hp += 1
            herr[hp] = True
        else:
            rp += 1
            rerr[rp] = True
            align[rp] = hp
    return align, herr, rerr


def shifted(hyp: list[int], start: int, length: int, target: int) -> list[int]:
    """Move ``hyp[start:start+length]`` so that it begins before original index ``target``."""
    block = hyp[start:start + length]
    if target < start:
        return hyp[:target] + block + hyp[target:start] + hyp[start + length:]
    if target > start + length:
        return hyp[:start] + hyp[start + length:target] + block + hyp[target:]
    # inside the span: the index is read in the sequence without the block
    return hyp[:start] + hyp[start + length:length + target] + block + hyp[length + target:]


def _candidates(hyp: list[int], ref: Sequence[int], ref_pos: dict[int, list[int]], align: list[int],
                herr: list[bool], rerr: list[bool], budget: int, max_size: int, max_dist: int
                ) -> list[Candidate]:
    """The shifts to evaluate this round, ``(length, start, target)``; the enumeration stops once
    ``budget`` are listed (after the insertion points of the span that reaches it)."""
    out: list[Candidate] = []
    n_h, n_r = len(hyp), len(ref)
    hcum = list(accumulate(herr, initial=0))      # errors in hyp[a:b] = hcum[b] - hcum[a]
    rcum = list(accumulate(rerr, initial=0))
    for sh in range(n_h):
        positions = ref_pos.get(hyp[sh])
        if not positions:
            continue
        for sr in positions[bisect_left(positions, sh - max_dist):]:
            if sr > sh + max_dist:
                break
            length = 0
            while (length < max_size and sh + length < n_h and sr + length < n_r
                   and hyp[sh + length] == ref[sr + length]):
                length += 1
                if hcum[sh + length] == hcum[sh] or rcum[sr + length] == rcum[sr]:
                    continue
                if sh <= align[sr] < sh + length:
                    continue
                prev_target = -1
                for k in range(-1, length):
                    target = 0 if sr + k == -1 else align[sr + k] + 1
                    if target == prev_target:
                        continue
                    prev_target = target
                    out.append((length, sh, target))
                if len(out) >= budget:
                    return out
    return out


def ter_edits(hyp: Sequence[Hashable], ref: Sequence[Hashable], limits: Limits = SACREBLEU_LIMITS,
              where: str = "a hypothesis/reference pair") -> int:
    """Shifts + beam edit distance of the shifted ``hyp`` against ``ref`` (token sequences: strings or ids);
    :class:`~assay.core.errors.InputError` naming ``where`` beyond assay's bound (:func:`.limits.check_cost`)."""
    check_cost(len(hyp), len(ref), limits, where)
    if _compiled is not None:
        return _compiled.ter_edits(hyp, ref, *limits)
    return ter_edits_py(hyp, ref, limits)


def ter_edits_py(hyp: Sequence[Hashable], ref: Sequence[Hashable], limits: Limits = SACREBLEU_LIMITS) -> int:
    """:func:`ter_edits` in pure Python (the specification).

    Distances come from the bit-parallel unbanded rows (short references) whenever they are below
    the beam floor (:func:`.beam._out_of_beam_floor`), else from the banded beam table itself.
    """
    n_h, n_r = len(hyp), len(ref)
    if n_r == 0:
        return n_h
    if n_h == 0:
        return n_r
    ids: dict = {}                                  # tokens (any hashable) -> dense ids
    ref = [ids.setdefault(tok, len(ids)) for tok in ref]
    hyp = [ids.setdefault(tok, len(ids)) for tok in hyp]
    scorer = Scorer(ref, n_h, limits.beam_width)
    bits = BitRows(ref) if n_r <= BIT_ROWS_MAX_REF else None
    floor = _out_of_beam_floor(n_h, n_r, scorer.table.bounds) if bits is not None else 0
    ref_pos: dict[int, list[int]] = {}
    for j, tok in enumerate(ref):
        ref_pos.setdefault(tok, []).append(j)
    words = list(hyp)
    shifts = 0
    budget = limits.max_candidates
    while True:
        states: list[State] | None = None
        rows: list[np.ndarray] | None = None
        if bits is not None:
            states = [bits.row0]
            cost = bits.run(words, bits.row0, states)[2]
        if bits is None or cost >= floor:
            rows = scorer.rows(np.asarray(words, dtype=np.int64))
            cost = int(rows[n_h][-1])
            value = scorer.value(rows)
            states = None                   # and the candidates through the beam table too
        else:
            value = bit_value(states)
        if cost == 0:
            return shifts
        align, herr, rerr = _alignment(value, words, ref)
        cands = _candidates(words, ref, ref_pos, align, herr, rerr, budget,
                            limits.max_shift_size, limits.max_shift_dist)
        budget -= len(cands)
        if not cands or budget <= 0:        # the round that exhausts the budget makes no shift
            return shifts + cost
        gains = _gains(cands, words, cost, states, bits, floor, scorer, rows)
        best = max(range(len(cands)), key=lambda c: (gains[c], cands[c][0], -cands[c][1], -cands[c][2]))
        if gains[best] <= 0:
            return shifts + cost
        shifts += 1
        length, start, target = cands[best]
        words = shifted(words, start, length, target)


def _gains(cands: list[Candidate], words: list[int], cost: int, states: list[State] | None,
           bits: BitRows | None, floor: int, scorer: Scorer, rows: list[np.ndarray] | None) -> list[int]:
    """``cost`` minus the beam edit distance of every candidate (bit rows first, beam table if needed)."""
    out = [0] * len(cands)
    slow: list[int] = []
    for c, (length, start, target) in enumerate(cands):
        if states is None:
            slow.append(c)
            continue
        first = min(start, target)        # the words before the shift are unchanged
        d = bits.run(shifted(words, start, length, target)[first:], states[first])[2]
        if d >= floor:
            slow.append(c)
        else:
            out[c] = cost - d
    if slow:
        current = np.asarray(words, dtype=np.int64)
        if rows is None:
            rows = scorer.rows(current)
        for c, d in zip(slow, scorer.costs(current, [cands[c] for c in slow], rows)):
            out[c] = cost - d
    return out
