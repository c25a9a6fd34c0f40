"""TER's search limits (sacrebleu's) and assay's own bound on the work one segment may ask for.

The limits are tercom's, with sacrebleu 2.x / 1.5.1's values: blocks of at most 10 words
(:data:`MAX_SHIFT_SIZE`) moved at most 50 positions (:data:`MAX_SHIFT_DIST`), an edit-distance
beam of half-width 25 (:data:`BEAM_WIDTH`) and 1000 shift candidates evaluated per
hypothesis/reference pair (:data:`MAX_CANDIDATES`). They, not assay, define the result: a long
segment is searched under exactly these limits (sacrebleu has no length limit of its own).

**Cost of one pair.** Every edit distance fills the beam table: row ``i`` of ``n_hyp`` holds at
most ``min(n_ref + 1, 2 * beam)`` cells (``beam`` = the half-width, widened to
``ceil(n_ref / n_hyp / 2 + width)`` for very unequal lengths), row 0 holds ``n_ref + 1``:

    table_cells = (n_ref + 1) + n_hyp * min(n_ref + 1, 2 * beam)

A round fills two such tables for the current hypothesis (prefix distances, for its alignment,
and suffix distances, to close candidates), kept in memory: memory is linear in the segment
length. A search makes at most ``max_candidates + 1`` rounds and scores at most
``max_candidates`` candidates (each on its changed rows only, at most one table), so it fills at
most

    search_cells = (3 * max_candidates + 2) * table_cells

cells. That worst case needs about a thousand rounds of one candidate each; in practice a long
segment exhausts its candidates in its first round (the round that exhausts them is not scored),
so it costs two tables. assay refuses a pair (:class:`~assay.core.errors.InputError`, naming the
segment, its lengths and the bound) when ``table_cells`` exceeds :data:`MAX_TABLE_CELLS` (about
240 MB for the two tables of the compiled path; e.g. a line of about 600,000 tokens against one of
the same length under sacrebleu's beam) or ``search_cells`` exceeds :data:`MAX_SEARCH_CELLS` (a
few minutes of compiled work in that worst case). Below both it needs linear memory and never
hangs (measured, compiled: 10,000 tokens in well under a second).
"""
from __future__ import annotations

import math
from typing import NamedTuple

from assay.core.errors import InputError

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_CANDIDATES = 1000

#: the largest beam table (cells, see the module docstring) assay fills for one pair
MAX_TABLE_CELLS = 30_000_000
#: the largest worst-case search (cells over every pass, see the module docstring) assay starts
MAX_SEARCH_CELLS = 100_000_000_000


class Limits(NamedTuple):
    """The search limits (defaults: sacrebleu 2.x and 1.5.1)."""

    max_shift_size: int = MAX_SHIFT_SIZE
    max_shift_dist: int = MAX_SHIFT_DIST
    beam_width: int = BEAM_WIDTH
    max_candidates: int = MAX_CANDIDATES


SACREBLEU_LIMITS = Limits()


def beam_half_width(n_hyp: int, n_ref: int, width: int) -> int:
    """The beam's half-width: ``width``, or ``ceil(ratio / 2 + width)`` when ``ratio / 2 > width``
    (``ratio = n_ref / n_hyp``), so that consecutive rows' beams always overlap."""
    ratio = n_ref / n_hyp
    return math.ceil(ratio / 2 + width) if ratio / 2 > width else width


def table_cells(n_hyp: int, n_ref: int, width: int) -> int:
    """Upper bound on the cells of one beam table (module docstring)."""
    if n_hyp == 0 or n_ref == 0:
        return n_ref + 1
    return (n_ref + 1) + n_hyp * min(n_ref + 1, 2 * beam_half_width(n_hyp, n_ref, width))


def search_cells(n_hyp: int, n_ref: int, limits: Limits) -> int:
    """Upper bound on the cells one search fills (module docstring)."""
    return (3 * max(limits.max_candidates, 0) + 2) * table_cells(n_hyp, n_ref, limits.beam_width)


def check_cost(n_hyp: int, n_ref: int, limits: Limits, where: str = "a hypothesis/reference pair") -> None:
    """Raise :class:`InputError` when a pair's table or search exceeds assay's bounds."""
    dense = (n_hyp + 1) * (n_ref + 1)               # >= table_cells: the common case costs two products
    if dense <= MAX_TABLE_CELLS and dense * (3 * limits.max_candidates + 2) <= MAX_SEARCH_CELLS:
        return
    if n_hyp == 0 or n_ref == 0:
        return
    table = table_cells(n_hyp, n_ref, limits.beam_width)
    search = search_cells(n_hyp, n_ref, limits)
    if table <= MAX_TABLE_CELLS and search <= MAX_SEARCH_CELLS:
        return
    what = (f"its beam table needs {table:,} cells, over assay's bound of {MAX_TABLE_CELLS:,}"
            if table > MAX_TABLE_CELLS else
            f"its shift search may fill {search:,} cells (max_candidates={limits.max_candidates}), "
            f"over assay's bound of {MAX_SEARCH_CELLS:,}")
    raise InputError(f"{where} ({n_hyp:,} hypothesis tokens, {n_ref:,} reference tokens, "
                     f"beam_width={limits.beam_width}) is too long for TER: {what}; split the segment "
                     f"or lower beam_width/max_candidates")
