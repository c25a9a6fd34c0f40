"""The reduce of a sharded job: the futures of its parts (one per shard, in order) to one Score, or to
each segment's Score.

- corpus, ``family.sums_suffice(config)``: the parts hold column sums; a tree of
  :func:`~.parts.combine` tasks adds them on the workers, and if the total is exact
  (:attr:`~.parts.Part.exact`) the family scores a one-row corpus of those sums. Otherwise (or when
  the family reads more than sums) the rows are gathered in shard order into one array, as the
  single-process path holds them, and scored once. A shard whose rows were dropped as exact while
  another shard's were not is computed again in rows mode (``again``).
- sentence: the rows of each shard, in order, scored on the client as they arrive.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from assay.core.errors import InputError
from assay.core.score import Score
from assay.core.stats import SegmentStats, as_float_rows
from assay.engine import api
from assay.engine.dask_engine.parts import Part, checked, combine, summed_stats, without_rows
from assay.engine.dask_engine.session import Session

#: nrefs signature field of a part's row i (``var`` where a reference is missing)
NrefsOf = Callable[[Part], Callable[[int], str]]


def mode_of(configured: api.Configured, sentence: bool) -> str:
    """``sum`` when the corpus score is a function of exact column sums, else ``rows``."""
    return "sum" if not sentence and configured.family.sums_suffice(configured.config) else "rows"


def corpus_score(session: Session, configured: api.Configured, leaves: Sequence[Any], mode: str, *,
                 nrefs: Callable[[bool], str], width: int | None, total: int | None = None,
                 again: Callable[[int], Any] | None = None) -> tuple[Score, list[Any]]:
    """The corpus Score of the parts ``leaves`` (futures, shard order) and the notes they carry.

    ``nrefs(any_missing)`` gives the signature's ``nrefs`` field; ``total`` (if known) the number of
    segments; ``again(index)`` a future of shard ``index``'s part in ``rows`` mode."""
    try:
        if mode == "sum":
            slim = [session.submit(without_rows, leaf, stage="slim", index=i, track=False)
                    for i, leaf in enumerate(leaves)]
            summary = checked(session.result(session.tree_reduce(slim, combine, stage="sum")))
            del slim
            if not summary.n:
                raise InputError("no hypotheses: the input is empty")
            if summary.exact:
                stats = summed_stats(summary)
                missing = summary.missing is not None and bool(summary.missing.any())
                return api.family_score(configured.family, stats, configured.config, configured.profile,
                                        nrefs(missing), width), summary.notes
            total = summary.n
        stats, notes, missing = _gathered(session, leaves, total, again)
        return api.family_score(configured.family, stats, configured.config, configured.profile, nrefs(missing),
                                width), notes
    finally:
        session.cancel(leaves)


def _gathered(session: Session, leaves: Sequence[Any], total: int | None, again: Callable[[int], Any] | None
              ) -> tuple[SegmentStats, list[Any], bool]:
    """Every part's rows stacked in shard order (into one float64 array allocated once when ``total``
    is known), as the float64 rows families compute on."""
    blocks: list[np.ndarray] = []
    columns: tuple[str, ...] | None = None
    context: Any = None
    notes: list[Any] = []
    missing = False
    out: np.ndarray | None = None
    at = 0
    for index, part in enumerate(session.results(leaves)):
        part = checked(part)
        notes.extend(part.notes)
        if not part.n:
            continue
        if part.rows is None:            # its sums were exact, another shard's were not: make its rows
            if again is None:
                raise AssertionError("a part without rows and no way to make them")
            part = checked(session.result(again(index)))
        if columns is None:
            columns, context = part.columns, part.context
        missing = missing or (part.missing is not None and bool(part.missing.any()))
        rows = part.rows
        if total is not None:
            if out is None:
                out = np.empty((total, rows.shape[1]), dtype=np.float64)
            out[at:at + len(rows)] = rows
            at += len(rows)
        else:
            blocks.append(rows)
    if columns is None:
        raise InputError("no hypotheses: the input is empty")
    if out is None:
        out = as_float_rows(blocks[0]) if len(blocks) == 1 else np.vstack(blocks, dtype=np.float64)
    return SegmentStats(columns, out, context or {}), notes, missing


def sentence_scores(session: Session, configured: api.Configured, leaves: Sequence[Any], *,
                    nrefs: NrefsOf, width: int | None, emit: Callable[[Score], None]) -> list[Any]:
    """Each segment's Score, passed to ``emit`` shard by shard in order; returns the parts' notes."""
    notes: list[Any] = []
    seen = 0
    try:
        for part in session.results(leaves):
            part = checked(part)
            notes.extend(part.notes)
            if not part.n:
                continue
            seen += part.n
            stats = SegmentStats(part.columns, as_float_rows(part.rows), part.context or {})
            for s in api.sentence_scores_from_stats(configured, stats, nrefs(part), width):
                emit(s)
    finally:
        session.cancel(leaves)
    if not seen:
        raise InputError("no hypotheses: the input is empty")
    return notes
