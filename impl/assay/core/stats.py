"""Sufficient statistics: one numpy row per segment, summed (or otherwise reduced) for a corpus.

A metric maps each segment to a row (BLEU: hyp_len, ref_len, correct_1..N, total_1..N).
The corpus score is a function of the rows; sentence scores use single rows; bootstrap
resampling, subsets and chunked scoring are row selections and concatenations.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np


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
