"""Unbanded edit-distance rows of one reference, bit-parallel (Myers 1999, Hyyrö's global form).

The pure path's shortcut for short references: where the unbanded distance is below the beam
floor (:func:`.beam._out_of_beam_floor`) it equals the beam distance, and so does the alignment
traced back from it. A row costs a dozen integer operations on ``n_ref``-bit integers; the
states of a hypothesis take ``n_hyp * n_ref`` bits, so :mod:`.shifts` uses them only for
references of at most :data:`MAX_REF` words (memory linear in the hypothesis length).
"""
from __future__ import annotations

from typing import Callable, Sequence

#: the longest reference the bit rows are used for
MAX_REF = 512

State = tuple[int, int, int]


class BitRows:
    """The state after hypothesis row ``i`` is ``(Pv, Mv, D[i][n_ref])``: bit ``j`` of ``Pv`` / ``Mv``
    says ``D[i][j+1] - D[i][j]`` is +1 / -1, so ``D[i][j] = i + popcount(Pv & (2^j - 1)) -
    popcount(Mv & (2^j - 1))``.
    """

    __slots__ = ("peq", "mask", "high", "row0")

    def __init__(self, ref: Sequence[int]):
        peq: dict[int, int] = {}
        for j, tok in enumerate(ref):
            peq[tok] = peq.get(tok, 0) | (1 << j)
        self.peq = peq
        self.mask = (1 << len(ref)) - 1
        self.high = 1 << (len(ref) - 1)
        self.row0 = (self.mask, 0, len(ref))

    def run(self, words: Sequence[int], state: State, keep: list | None = None) -> State:
        """Advance ``state`` over ``words``; append every intermediate state to ``keep``."""
        pv, mv, score = state
        peq, mask, high = self.peq, self.mask, self.high
        for w in words:
            eq = peq.get(w, 0)
            xv = eq | mv
            xh = (((eq & pv) + pv) ^ pv) | eq
            ph = mv | (~(xh | pv) & mask)
            mh = pv & xh
            if ph & high:
                score += 1
            elif mh & high:
                score -= 1
            ph = ((ph << 1) | 1) & mask
            mh = (mh << 1) & mask
            pv = mh | (~(xv | ph) & mask)
            mv = ph & xv
            if keep is not None:
                keep.append((pv, mv, score))
        return pv, mv, score


def bit_value(states: list[State]) -> Callable[[int, int], int]:
    """``D[i][j]`` of the states of rows 0..n_hyp."""
    def value(i: int, j: int) -> int:
        pv, mv, _ = states[i]
        m = (1 << j) - 1
        return i + (pv & m).bit_count() - (mv & m).bit_count()
    return value
