"""Sufficient statistics: one numpy row per segment, summed (or otherwise reduced) for a corpus.

A metric maps each segment to a row (BLEU: hyp_len, ref_len, correct_1..N, total_1..N).
The corpus score is a function of the rows; sentence scores use single rows; bootstrap
resampling, subsets and chunked scoring are row selections and concatenations.

Families make and read float64 rows. Rows kept between chunks (:class:`~assay.engine.chunks.RowStack`,
a Dask shard's part) are stored in the narrowest integer dtype that holds them (:func:`narrowest`)
while every value is an integer, and turned back into float64 (:func:`as_float_rows`, exact) or
summed exactly (:func:`exact_total`) when scored: a family never computes on integer rows, whose
arithmetic wraps on overflow.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

#: integers up to this magnitude are exact in a double (and so are their sums while they stay below it)
EXACT_INTEGERS = float(2 ** 53)


@dataclass(frozen=True)
class SegmentStats:
    """Per-segment statistics of one metric configuration on one corpus.

    ``context`` holds corpus-level information computed in a first pass (e.g. NIST
    information weights) that the rows were computed with; it travels with the rows.
    """

    columns: tuple[str, ...]
    rows: np.ndarray
    context: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.rows.ndim != 2 or self.rows.shape[1] != len(self.columns):
            raise ValueError(f"rows of shape {self.rows.shape} do not match {len(self.columns)} columns")

    def __len__(self) -> int:
        return int(self.rows.shape[0])

    def col(self, name: str) -> np.ndarray:
        return self.rows[:, self.columns.index(name)]

    def cols(self, prefix: str, count: int) -> np.ndarray:
        """Columns ``prefix1 .. prefix{count}`` as an (n_segments, count) array."""
        start = self.columns.index(f"{prefix}1")
        return self.rows[:, start:start + count]

    def total(self) -> np.ndarray:
        """Column sums: the corpus row of micro-averaged metrics."""
        return np.asarray(self.rows.sum(axis=0))

    def select(self, index: Sequence[int] | np.ndarray) -> "SegmentStats":
        """Rows in the given order (subsets, bootstrap resamples)."""
        return SegmentStats(self.columns, self.rows[np.asarray(index)], self.context)

    def rows_between(self, start: int, stop: int) -> "SegmentStats":
        """Rows ``start .. stop - 1`` (a view, not a copy), with the same columns and context."""
        return SegmentStats(self.columns, self.rows[start:stop], self.context)

    def row(self, i: int) -> "SegmentStats":
        return SegmentStats(self.columns, self.rows[i:i + 1], self.context)

    @staticmethod
    def concat(parts: Sequence["SegmentStats"]) -> "SegmentStats":
        """Chunked scoring: stack rows of parts computed with the same columns and context."""
        first = parts[0]
        for p in parts[1:]:
            if p.columns != first.columns:
                raise ValueError("cannot concatenate statistics with different columns")
        return SegmentStats(first.columns, np.vstack([p.rows for p in parts]), first.context)


def narrowest(rows: np.ndarray) -> np.ndarray:
    """``rows`` in the narrowest integer dtype that holds every value, when every value is an integer
    of magnitude below 2**53 (not ``-0.0``, NaN or an infinity, which an integer cannot hold); else
    ``rows`` unchanged. ``as_float_rows`` of the result is ``rows`` bit for bit.

    The dtype is the first of int8, uint8, int16, uint16, int32, uint32, int64 that holds the range:
    ``[-1, 100]`` is int8, ``[0, 255]`` uint8, ``[-1, 200]`` int16, ``[0, 70000]`` int32."""
    if rows.dtype != np.float64 or rows.size == 0:
        return rows
    head = rows[:64]
    if not np.array_equal(np.trunc(head), head):      # a fraction near the top: float rows, found cheaply
        return rows
    low, high = float(rows.min()), float(rows.max())     # NaN propagates: the test below fails
    if not (-EXACT_INTEGERS < low and high < EXACT_INTEGERS):
        return rows
    narrow = rows.astype(_narrowest_holding(int(low), int(high)))
    same_bits = np.array_equal(as_float_rows(narrow).view(np.uint64), np.ascontiguousarray(rows).view(np.uint64))
    return narrow if same_bits else rows      # a fraction or -0.0 does not come back


#: integer dtypes, narrowest first (signed first at each width)
_INTEGER_DTYPES = tuple(np.dtype(t) for t in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64"))


def _narrowest_holding(low: int, high: int) -> np.dtype:
    """The first of :data:`_INTEGER_DTYPES` holding ``low .. high`` (int64 holds every |value| < 2**53)."""
    for dtype in _INTEGER_DTYPES:
        info = np.iinfo(dtype)
        if info.min <= low and high <= info.max:
            return dtype
    raise AssertionError("unreachable: int64 holds every integer below 2**53")


def as_float_rows(rows: np.ndarray) -> np.ndarray:
    """Rows as the float64 array families compute on (no copy when they already are)."""
    return rows.astype(np.float64, copy=False)


def exact_total(rows: np.ndarray) -> np.ndarray:
    """Column sums of rows kept by :func:`narrowest`, as float64: the same values, bit for bit, as
    ``as_float_rows(rows).sum(axis=0)`` (``SegmentStats.total``). Integer rows are summed in int64,
    exactly; that equals the float sum whenever no column's absolute sum reaches 2**53 (then every
    partial float sum is an integer a double holds), which is checked, else the float sum is taken."""
    if rows.dtype.kind in "iu" and len(rows):
        bound = max(abs(int(rows.min())), abs(int(rows.max()))) * len(rows)
        if bound < EXACT_INTEGERS:
            return np.asarray(rows.sum(axis=0, dtype=np.int64), dtype=np.float64)
    return np.asarray(as_float_rows(rows).sum(axis=0))
