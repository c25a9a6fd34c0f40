"""TER's second shift search: greedy moves of maximal common spans with an exact edit distance (pyter3).

``span_edits(hyp, ref)`` = number of shifts + Levenshtein distance of the shifted hypothesis, the
greedy search of Snover et al. (2006) in the form pyter3 0.3 (``pyter.ter``) runs it. Every rule
below was pinned down by differential runs against pyter3 used as a black box (its code was not
read): random token sequences over 1-8 word vocabularies (upper and lower case), empty sides
included; this module equals ``pyter.ter`` on 6,300 such pairs of up to 12, 20 and 40 tokens (an
empty reference: pyter3's ZeroDivisionError). Each rule was checked by altering it (counts of
pairs that then differ from pyter3, on 2,000-3,000 pairs of up to 9-14 tokens):

- **Edit distance**: exact unit-cost Levenshtein (no beam: one word against a 101-word
  reference containing it costs 100 edits, where tercom's beam gives 101).
- **Candidates**: every pair of positions ``(i, j)`` with ``hyp[i] == ref[j]``, the span being
  the *longest* common run starting there (``hyp[i:i+l] == ref[j:j+l]``, extended while the words
  agree). Shorter prefixes of a run are not candidates (allowing them changes 5 of 3,000 random
  pairs), a run that could also be extended to the left still is (requiring left-maximal runs
  changes 8 of 3,000). No limit on the span's length or distance, no check of which words are
  errors.
- **The move**: the span is taken out and inserted at index ``j`` of what is left (reading
  ``j`` as an index of the original hypothesis instead changes 51 of 3,000).
- **Choice**: the largest gain (edit distance before minus after); among equal gains, the
  candidate whose shifted hypothesis is the greatest token list in Python's ordering of string
  lists (taking the first or the last candidate found instead changes 27 and 30 of 3,000).
- **Stop**: a shift is made when its gain is at least 1 (it costs 1 edit, so a gain of 1 changes
  nothing but the words the next round sees; requiring 2 changes 33 of 2,000); the search stops
  when no candidate gains.

Cost: each round scores every candidate, each on the rows after its first moved word (the
unbanded bit-parallel rows of :mod:`.bitrows`, from the current hypothesis's state before the
first changed index); a round with ``c`` candidates fills at most ``c * n_hyp`` rows of
``n_ref + 1`` cells, and there are at most ``edit distance`` rounds (each shift lowers it).
The work is counted as it goes: a search that would fill more than
:data:`~.limits.MAX_SEARCH_CELLS` cells is refused (:class:`~assay.core.errors.InputError`
naming the segment) before the round that would cross it, and so is a pair whose full table
(``(n_hyp + 1) * (n_ref + 1)`` cells, kept by the compiled twin) exceeds
:data:`~.limits.MAX_TABLE_CELLS`. :func:`span_edits` runs the compiled
twin (``assay.metrics.ter._spans_c``) when it is built; :func:`span_edits_py` is this
specification.
"""
from __future__ import annotations

from typing import Any, Hashable, Sequence

from assay.core import accel
from assay.core.errors import InputError
from assay.metrics.ter.bitrows import BitRows, State
from assay.metrics.ter.limits import MAX_SEARCH_CELLS, MAX_TABLE_CELLS
from assay.metrics.ter.shifts import shifted

try:
    from assay.metrics.ter import _spans_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

__all__ = ["candidates", "check_table", "move", "span_edits", "span_edits_py"]


def candidates(words: Sequence[int], ref: Sequence[int], ref_pos: dict[int, list[int]]) -> list[tuple[int, int, int]]:
    """Every ``(start, dest, length)``: ``words[start:start+length] == ref[dest:dest+length]``, the
    longest such run from ``(start, dest)``; by hypothesis start, then reference start."""
    out: list[tuple[int, int, int]] = []
    n_h, n_r = len(words), len(ref)
    for i, w in enumerate(words):
        for j in ref_pos.get(w, ()):
            length = 1
            while i + length < n_h and j + length < n_r and words[i + length] == ref[j + length]:
                length += 1
            out.append((i, j, length))
    return out


def move(words: list[Any], start: int, dest: int, length: int) -> list[Any]:
    """``words`` with ``words[start:start+length]`` taken out and inserted at index ``dest`` of the rest
    (:func:`.shifts.shifted`, whose target is an index of the original sequence)."""
    return shifted(words, start, length, dest if dest <= start else dest + length)


def _refuse(where: str, n_hyp: int, n_ref: int, cells: int, bound: int = MAX_SEARCH_CELLS) -> InputError:
    return InputError(f"{where} ({n_hyp:,} hypothesis tokens, {n_ref:,} reference tokens) is too long for "
                      f"TER's maximal-span shift search: it would fill {cells:,} cells, over assay's bound of "
                      f"{bound:,}; split the segment or use shift_search=tercom")


def check_table(n_hyp: int, n_ref: int, where: str) -> None:
    """Refuse a pair whose full edit-distance table, ``(n_hyp + 1) * (n_ref + 1)`` cells, exceeds
    :data:`~.limits.MAX_TABLE_CELLS` (the search keeps that table for the current hypothesis)."""
    cells = (n_hyp + 1) * (n_ref + 1)
    if n_hyp and n_ref and cells > MAX_TABLE_CELLS:
        raise _refuse(where, n_hyp, n_ref, cells, MAX_TABLE_CELLS)


def span_edits(hyp: Sequence[Hashable], ref: Sequence[Hashable], where: str = "a hypothesis/reference pair") -> int:
    """Shifts + Levenshtein distance of the shifted ``hyp`` against ``ref`` (token sequences: strings,
    compared as Python compares them when gains tie); :class:`~assay.core.errors.InputError` naming
    ``where`` when the search would exceed assay's bound."""
    if _compiled is not None:
        check_table(len(hyp), len(ref), where)
        result = _compiled.span_edits(list(hyp), list(ref), MAX_SEARCH_CELLS)
        if result < 0:
            raise _refuse(where, len(hyp), len(ref), -result)
        return int(result)
    return span_edits_py(hyp, ref, where)


def span_edits_py(hyp: Sequence[Hashable], ref: Sequence[Hashable], where: str = "a hypothesis/reference pair",
                  bound: int = MAX_SEARCH_CELLS) -> int:
    """:func:`span_edits` in pure Python (the specification)."""
    n_h, n_r = len(hyp), len(ref)
    if n_r == 0 or n_h == 0:
        return n_h + n_r
    check_table(n_h, n_r, where)
    ids: dict[Hashable, int] = {}                   # tokens -> dense ids (ties compare the tokens)
    ref_ids = [ids.setdefault(tok, len(ids)) for tok in ref]
    tokens = list(hyp)
    words = [ids.setdefault(tok, len(ids)) for tok in tokens]
    bits = BitRows(ref_ids)
    ref_pos: dict[int, list[int]] = {}
    for j, tok in enumerate(ref_ids):
        ref_pos.setdefault(tok, []).append(j)
    shifts = 0
    spent = 0
    while True:
        states: list[State] = [bits.row0]
        cost = bits.run(words, bits.row0, states)[2]
        if cost == 0:
            return shifts
        cands = candidates(words, ref_ids, ref_pos)
        rows = sum(n_h - min(i, j) for i, j, _ in cands)
        spent += rows * (n_r + 1)
        if spent > bound:
            raise _refuse(where, n_h, n_r, spent)
        best_gain, best = 0, []
        for i, j, length in cands:
            first = min(i, j)                       # the words before it are unchanged
            gain = cost - bits.run(move(words, i, j, length)[first:], states[first])[2]
            if gain > best_gain:
                best_gain, best = gain, [(i, j, length)]
            elif gain == best_gain and gain > 0:
                best.append((i, j, length))
        if best_gain <= 0:
            return shifts + cost
        i, j, length = max(best, key=lambda c: move(tokens, *c))
        tokens = move(tokens, i, j, length)
        words = move(words, i, j, length)
        shifts += 1
