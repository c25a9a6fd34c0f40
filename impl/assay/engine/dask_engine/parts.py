"""One shard's statistics, and how the statistics of many shards reduce to the rows of one corpus.

A :class:`Part` holds a shard's rows (``mode="rows"``), or only their column sums (``mode="sum"``)
when those sums add up exactly in any order. Why that condition: the single-process score sums the
corpus's rows in one order (``SegmentStats.total``); a tree of partial sums adds them in another,
which changes the last bits of a float sum unless every partial sum is exact. It is exact when every
value is an integer (any integer dtype: two's-complement addition is associative), or a finite
multiple of ``2**-EXACT_BITS`` (lengths averaged over 2 or 4 references are) whose column of absolute
values sums below ``2**(52 - EXACT_BITS)``: then every partial sum is such a multiple below
``2**52``, which a double holds exactly. Anything else (an average over 3 references, NLTK chrF's
summed sentence scores) keeps its rows, and the corpus is reduced by stacking the rows in shard order
instead: the same rows, the same order, the same ``score_stats`` as one process.

Failures travel as values (:class:`Failure`), not exceptions: a task that raised would be retried by
some schedulers and its exception class must survive pickling, which :class:`ToolBehaviourError`
(two arguments) does not. The client re-raises the first failure in shard order, which is the one the
single-process path would have met first.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, NoReturn, Sequence

import numpy as np

from assay.core import errors
from assay.core.errors import AssayError, ToolBehaviourError
from assay.core.stats import SegmentStats, narrowest

#: sums of floats are exact when every value is a multiple of 2**-EXACT_BITS (and the sums stay small)
EXACT_BITS = 16
_GRID = float(2 ** EXACT_BITS)
_BOUND = float(2 ** (52 - EXACT_BITS))


class EngineError(AssayError):
    """The Dask cluster failed the job (workers lost beyond the retries, the scheduler gone, a worker
    with another assay version); exit code 2."""

    exit_code = 2


@dataclass(frozen=True)
class Failure:
    """An :class:`AssayError` raised on a worker, as a value (class name, message, tool error)."""

    kind: str
    message: str
    tool_error: str | None = None

    @classmethod
    def of(cls, exc: AssayError) -> "Failure":
        return cls(type(exc).__name__, str(exc), getattr(exc, "tool_error", None))

    def exception(self) -> AssayError:
        cls = EngineError if self.kind == EngineError.__name__ else getattr(errors, self.kind, AssayError)
        if cls is ToolBehaviourError:
            return ToolBehaviourError(self.message, self.tool_error or "")
        return cls(self.message) if isinstance(cls, type) and issubclass(cls, AssayError) else AssayError(self.message)

    def throw(self) -> NoReturn:
        raise self.exception()


@dataclass(frozen=True)
class Blob:
    """A value Dask sends as one pickle (:meth:`.session.Session.scatter`): Dask serialises a bare list or
    tuple item by item, so a corpus of a few thousand lines would take a second to send."""

    value: Any


def capture(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, or the :class:`AssayError` it raised as a :class:`Failure` (what a task returns)."""
    try:
        return fn(*args)
    except AssayError as exc:
        return Failure.of(exc)


def checked(value: Any) -> Any:
    """``value``, or the error it carries raised."""
    if isinstance(value, Failure):
        value.throw()
    return value


@dataclass
class Part:
    """The statistics of one shard (or of several consecutive shards, once reduced).

    ``total``: column sums (``rows.sum(axis=0)``, the rows' dtype); ``magnitude``: column sums of the
    absolute values of float rows (None for integer rows); ``dyadic``: every value is an integer or a
    finite multiple of ``2**-EXACT_BITS``; ``rows``: the rows (in the narrowest dtype that holds them,
    :func:`~assay.core.stats.narrowest`), kept in ``rows`` mode and whenever the sums may not be exact;
    ``missing``: per row, whether a reference is missing (collections only: the ``nrefs`` signature
    field ``var``); ``notes``: what was learnt about the files read."""

    index: int
    n: int
    columns: tuple[str, ...] | None = None
    total: np.ndarray | None = None
    magnitude: np.ndarray | None = None
    dyadic: bool = True
    rows: np.ndarray | None = None
    context: Mapping[str, Any] | None = None
    missing: np.ndarray | None = None
    notes: list[Any] = field(default_factory=list)

    @property
    def exact(self) -> bool:
        """Whether :attr:`total` is the exact sum, whatever order the rows were added in."""
        if not self.dyadic:
            return False
        return self.magnitude is None or bool((self.magnitude < _BOUND).all())


def _grid_check(rows: np.ndarray) -> tuple[bool, np.ndarray | None]:
    """(dyadic, magnitude) of a block of rows (see :class:`Part`)."""
    if rows.dtype.kind in "iub":
        return True, None
    if rows.dtype != np.float64:
        return False, np.zeros(rows.shape[1])
    scaled = rows * _GRID                    # exact: a power of two
    ok = bool(np.isfinite(scaled).all()) and bool((scaled == np.floor(scaled)).all())
    return ok, np.abs(rows).sum(axis=0)


def make_part(index: int, blocks: Sequence[SegmentStats], mode: str, *, keep_context: bool,
              missing: np.ndarray | None = None, notes: Iterable[Any] = ()) -> Part:
    """The :class:`Part` of a shard whose rows come in ``blocks`` (chunks, in order)."""
    if not blocks:
        return Part(index, 0, missing=missing, notes=list(notes))
    first = blocks[0]
    rows = first.rows if len(blocks) == 1 else np.vstack([b.rows for b in blocks])
    context = dict(first.context) if keep_context else None
    part = Part(index, len(rows), first.columns, context=context, missing=missing, notes=list(notes))
    if mode == "rows":
        part.rows = narrowest(rows)
        return part
    if mode != "sum":
        raise ValueError(f"mode must be 'sum' or 'rows', got {mode!r}")
    part.total = rows.sum(axis=0)
    part.dyadic, part.magnitude = _grid_check(rows)
    if not part.exact:
        part.rows = narrowest(rows)
    return part


def _add(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def combine(parts: Sequence[Any]) -> Any:
    """Consecutive parts reduced to one (sums, exactness, notes; rows are not carried): the first
    failure, if any part is one. Associative, and keeps shard order, so a tree of combines gives
    the same part as one combine of all."""
    for p in parts:
        if isinstance(p, Failure):
            return p
    out = Part(parts[0].index, 0, context=None)
    for p in parts:
        if out.columns is None and p.columns is not None:
            out.columns, out.context = p.columns, p.context
        out.n += p.n
        out.total = _add(out.total, p.total)
        out.magnitude = _add(out.magnitude, p.magnitude)
        out.dyadic = out.dyadic and p.dyadic
        out.missing = _any_missing(out.missing, p.missing)
        out.notes.extend(p.notes)
    return out


def _any_missing(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    """Reduced parts keep one flag: whether any row misses a reference."""
    if a is None and b is None:
        return None
    flag = bool((a is not None and a.any()) or (b is not None and b.any()))
    return np.array([flag])


def summed_stats(summary: Part) -> SegmentStats:
    """A one-row corpus whose column sums are the exact corpus sums (``sums_suffice``'s input)."""
    assert summary.total is not None and summary.columns is not None
    return SegmentStats(summary.columns, summary.total[None, :], summary.context or {})


def without_rows(part: Part | Failure) -> Part | Failure:
    """The part as reduced (rows dropped), for :func:`combine` on another process; a failure as is."""
    return part if isinstance(part, Failure) else replace(part, rows=None)
