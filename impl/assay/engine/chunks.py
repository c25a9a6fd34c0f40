"""Statistics rows chunk by chunk: what outlives a chunk is its rows, never its text's tokens.

A family's ``segment_stats`` builds transient data for the segments it is given (token lists,
n-gram codes, alignment tables: hundreds of bytes to a few kilobytes per segment). Given a whole
million-line corpus at once, that transient data alone is several times the input. So every path
that scores many segments hands the family at most :data:`~assay.core.segment_stream.CHUNK_LINES`
segments at a time and keeps only the rows: files (:mod:`assay.engine.stream`), shards on Dask
(:mod:`assay.engine.dask_engine`) and Python lists given to the API (:func:`rows_of_lists`).

The result is the same as one call on the whole corpus: a row depends only on its segment (and,
for a corpus-pass family, on the corpus's first pass, which is merged over the chunks first:
``finish_context(merge_contexts(context_part(chunk) ...))``). A configuration whose tokens depend
on the next segment (PTB: the jar reads one line ahead) is made chunk by chunk with each chunk's next
segment as context (:func:`reads_ahead`; files and shards, :mod:`assay.engine.stream`); others for
which that does not hold are scored whole (:func:`chunkable`). Errors a family raises about a segment of a chunk
(``segment 3``, ``document 3``, ``image 3``) are renumbered to the segment's place in the corpus (:func:`renumbered`).
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

import numpy as np

from assay.core.knobs import Config
from assay.core.errors import AssayError, InputError, ToolBehaviourError
from assay.core.family import MetricFamily
from assay.core.segment_stream import CHUNK_LINES
from assay.core.stats import SegmentStats, as_float_rows, exact_total, narrowest

_NUMBERED = re.compile(r"\b(segment|document|line|image) (\d+)")


def renumbered(exc: AssayError, offset: int, where: str = "") -> AssayError:
    """The same error with segment numbers made corpus-relative (``offset`` segments precede the
    chunk), prefixed by ``where`` (a shard)."""
    if offset == 0 and not where:
        return exc
    message = where + _NUMBERED.sub(lambda m: f"{m.group(1)} {int(m.group(2)) + offset}", str(exc))
    if isinstance(exc, ToolBehaviourError):
        return ToolBehaviourError(message, exc.tool_error)
    return type(exc)(message)


def chunkable(family: MetricFamily, config: Config) -> bool:
    """Whether rows under ``config`` can be made chunk by chunk: no segment's tokens depend on the
    lines around it (``chunks_exactly``), and a corpus-pass family has the first-pass protocol."""
    return family.chunks_exactly(config) and (not family.corpus_pass or family.has_corpus_pass_protocol())


def reads_ahead(family: MetricFamily, config: Config) -> bool:
    """Whether rows under ``config`` can be made chunk by chunk once each chunk comes with the segment
    after it (``chunks_with_lookahead``: the PTB jar reads one line ahead). Only with a first pass,
    which finds text that rules chunks out (:class:`~assay.core.errors.UnchunkableInput`) before any
    row is made."""
    return (not family.chunks_exactly(config) and family.chunks_with_lookahead(config)
            and family.corpus_pass and family.has_corpus_pass_protocol())


def chunk_rows(family: MetricFamily, config: Config, hyps: Sequence[Any], streams: Sequence[Sequence[Any]],
               context: Any, offset: int, where: str = "", ahead: bool = False) -> SegmentStats:
    """``segment_stats`` of one chunk (under the corpus's ``context`` for a corpus-pass family; ``ahead``:
    its last segment is the next chunk's first, context only), its errors renumbered by ``offset``."""
    try:
        if ahead:
            return family.segment_stats(hyps, streams, config, context, ahead=True)   # type: ignore[call-arg]
        if context is None:
            return family.segment_stats(hyps, streams, config)
        return family.segment_stats(hyps, streams, config, context)   # type: ignore[call-arg]
    except (InputError, ToolBehaviourError) as exc:
        raise renumbered(exc, offset, where) from None


#: One chunk of a corpus: (segments before it, its hypotheses, its reference streams, error prefix,
#: whether its last segment is the next chunk's first, context only: :func:`reads_ahead`).
Chunk = tuple[int, Sequence[Any], Sequence[Sequence[Any]], str, bool]


def merged_context(family: MetricFamily, config: Config, chunks: Iterable[Chunk]) -> Any:
    """``context_part`` of every chunk folded chunk after chunk (``fold_context``: ``merge_contexts``,
    or a family's in-place fold into the part it returned; one merged part alive at a time), errors
    renumbered by the chunk's offset. The caller finishes it (``finish_context``) once the whole
    corpus is merged. No chunk (an empty shard) gives the family's empty part, ``merge_contexts([])``."""
    merged: Any = None
    for offset, hyps, streams, where, ahead in chunks:
        try:
            part = (family.context_part(hyps, streams, config, ahead=True) if ahead
                    else family.context_part(hyps, streams, config))
        except (InputError, ToolBehaviourError) as exc:
            raise renumbered(exc, offset, where) from None
        merged = family.fold_context(merged, part, config)
    return family.merge_contexts([], config) if merged is None else merged   # no chunk: the empty part


def rows_of_lists(family: MetricFamily, config: Config, hyps: Sequence[Any], streams: Sequence[Sequence[Any]],
                  chunk_lines: int = CHUNK_LINES, sums_only: bool = False) -> SegmentStats:
    """The rows of a corpus held in Python lists, made ``chunk_lines`` segments at a time (one call
    when the corpus is no longer, or the configuration is not :func:`chunkable`): equal to
    ``family.segment_stats(hyps, streams, config)``, in transient memory bounded by the chunk.
    ``sums_only`` (for a ``sums_suffice`` score): rows made in chunks come back as one row of their
    exact column sums (:meth:`RowStack.summed`), with no float64 copy of the kept narrow rows."""
    n = len(hyps)
    if n <= chunk_lines or not chunkable(family, config):
        return family.segment_stats(hyps, streams, config)
    starts = range(0, n, chunk_lines)

    def chunk(start: int) -> tuple[Sequence[Any], list[Sequence[Any]]]:
        end = start + chunk_lines
        return hyps[start:end], [s[start:end] for s in streams]

    context: Any = None
    if family.corpus_pass:
        merged = merged_context(family, config, ((start, *chunk(start), "", False) for start in starts))
        context = family.finish_context(merged, config)
    stack = RowStack(n)
    for start in starts:
        stack.put(start, chunk_rows(family, config, *chunk(start), context=context, offset=start))
    return stack.summed() if sums_only else stack.stats()


class RowStack:
    """The rows of ``n`` segments, filled chunk by chunk at their places and kept in the narrowest
    integer dtype that holds them (:func:`~assay.core.stats.narrowest`; float64 once a chunk has a
    value no integer holds). Allocated when the first chunk gives the width; widened (never narrowed)
    when a later chunk needs a wider dtype. Read back as the float64 rows families compute on
    (:meth:`stats`) or as their exact column sums (:meth:`summed`), equal bit for bit to the sums
    of those float64 rows."""

    def __init__(self, n: int) -> None:
        self._n = n
        self._rows: np.ndarray | None = None
        self._columns: tuple[str, ...] = ()
        self._context: Any = {}

    def put(self, start: int, stats: SegmentStats) -> None:
        """Rows of the segments ``start .. start + len(stats) - 1`` (0-based)."""
        rows = narrowest(stats.rows)
        if self._rows is None:
            self._rows = np.empty((self._n, rows.shape[1]), dtype=rows.dtype)
            self._columns, self._context = stats.columns, stats.context
        else:
            wider = np.result_type(self._rows.dtype, rows.dtype)     # never float for two narrowest() dtypes
            if wider != self._rows.dtype:
                self._rows = self._rows.astype(wider)
        self._rows[start:start + len(rows)] = rows

    @property
    def dtype(self) -> np.dtype:
        """The dtype the rows are kept in."""
        return self._kept().dtype

    def stats(self) -> SegmentStats:
        """Every row as float64, with the columns and context of the chunks."""
        return SegmentStats(self._columns, as_float_rows(self._kept()), self._context)

    def summed(self) -> SegmentStats:
        """A one-row corpus of the exact column sums (``stats().total()``, bit for bit, with no float64
        copy of the rows): what a ``sums_suffice`` family's score reads."""
        return SegmentStats(self._columns, exact_total(self._kept())[None, :], self._context)

    def _kept(self) -> np.ndarray:
        if self._rows is None:
            raise ValueError("no chunk was put")
        return self._rows
