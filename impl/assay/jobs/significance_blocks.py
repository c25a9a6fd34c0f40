"""The draws of a significance run cut into blocks of consecutive resamples, each made again on its own
(``assay significance --engine dask``), equal to the same rows of the run's one draw.

A run draws once from ``numpy.random.default_rng(seed)`` (:func:`assay.jobs.significance.draw`). A
block is made where it is used from the generator's state at the block's first draw:

- bootstrap indices (``integers(0, n, size)``): numpy draws bounded integers from 32-bit outputs it
  buffers in the bit generator's own state, so consecutive calls continue one stream: the rows of
  ``integers(size=(a, n))`` then ``integers(size=(b, n))`` are those of ``integers(size=(a + b, n))``.
  Rejection sampling makes a block's stream position unknowable without drawing, so the client
  finds the states by drawing each block once in turn (one block in memory at a time).
- AR masks (``integers(0, 2, size, dtype=bool)``): one call takes exactly one 32-bit output per 32
  booleans and drops the rest of its last output, so a block starts from the state at the word
  holding its first boolean and drops the booleans before it (``skip``); the states are found by
  drawing whole words.

Blocks must start at multiples of :data:`~assay.jobs.significance.FLOAT32_CHUNK`, so that the float32
sums of sacrebleu's order are chunked as in one process (:func:`draw_blocks` checks it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

import numpy as np

from assay.jobs.significance import FLOAT32_CHUNK

#: booleans per 32-bit output of the bit generator
_WORD = 32


@dataclass(frozen=True)
class DrawBlock:
    """Draws ``start`` to ``stop`` of a run (``kind`` ``ar``: swap masks; else bootstrap indices) over
    ``n_segments`` segments: the bit generator's ``state`` and how many booleans to drop first."""

    kind: str
    n_segments: int
    start: int
    stop: int
    state: dict[str, Any]
    skip: int = 0

    def draws(self) -> np.ndarray:
        """The block's draws: rows ``start:stop`` of :func:`assay.jobs.significance.draw`."""
        bits = np.random.PCG64()
        bits.state = self.state
        rng = np.random.Generator(bits)
        rows = self.stop - self.start
        if self.kind == "ar":
            flat = rng.integers(0, 2, size=self.skip + rows * self.n_segments, dtype=bool)
            return flat[self.skip:].reshape(rows, self.n_segments)
        return rng.integers(0, self.n_segments, size=(rows, self.n_segments))


def draw_blocks(kind: str, n_segments: int, seed: int, spans: Sequence[tuple[int, int]]) -> Iterator[DrawBlock]:
    """The :class:`DrawBlock` of every span (consecutive, from 0), found by walking the run's stream."""
    rng = np.random.default_rng(seed)
    at = 0
    words = 0
    for start, stop in spans:
        if start != at or stop <= start or start % FLOAT32_CHUNK:
            raise ValueError(f"draw blocks must be consecutive, non-empty, from 0 and start at multiples of "
                             f"{FLOAT32_CHUNK}; got {list(spans)}")
        at = stop
        if kind == "ar":
            first = start * n_segments
            word = first // _WORD
            if word > words:
                rng.integers(0, 2, size=_WORD * (word - words), dtype=bool)   # exactly word - words outputs
                words = word
            yield DrawBlock(kind, n_segments, start, stop, rng.bit_generator.state, first - _WORD * word)
        else:
            yield DrawBlock(kind, n_segments, start, stop, rng.bit_generator.state)
            rng.integers(0, n_segments, size=(stop - start, n_segments))
