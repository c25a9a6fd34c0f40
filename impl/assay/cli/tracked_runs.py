"""``assay significance``'s local runs on a progress bar (imported when the command runs: it extends a
class of the significance job, which imports numpy)."""
from __future__ import annotations

from typing import Any

import numpy as np

from assay.jobs import significance as sig


class TrackedRuns(sig.LocalRuns):
    """:class:`~assay.jobs.significance.LocalRuns` that follows its work on a progress bar: per metric one
    step for the statistics and one per block of draws resampled (:data:`BLOCKS` blocks; row k of a
    resampled array comes from draw k alone, so the blocks concatenate to the whole run's values, as
    on a Dask cluster)."""

    #: blocks of draws per metric (each one step of the bar)
    BLOCKS = 20

    def __init__(self, bar: Any, kind: str, setups: Any, *rest: Any) -> None:
        super().__init__(kind, setups, *rest)
        self.bar = bar
        bar.add(len(setups) * (1 + min(self.BLOCKS, max(self.n_samples, 1))))

    def stats(self, k: int) -> list[Any]:
        out = super().stats(k)
        self.bar.step(f"{self.setups[k].metric} statistics")
        return out

    def resampled(self, k: int) -> list[Any]:
        stats = self._stats.pop(k)
        if self._draws is None:
            self._draw(len(stats[0].rows))
        draws, counts = self._draws, self._counts
        assert draws is not None
        n = draws.shape[0]
        blocks = min(self.BLOCKS, max(n, 1))
        bounds = [n * b // blocks for b in range(blocks + 1)]    # exactly `blocks` blocks, none empty
        parts = []
        for start, stop in zip(bounds, bounds[1:]):
            parts.append(sig.resample_block(self.kind, self.setups[k], stats, draws[start:stop],
                                            None if counts is None else counts[start:stop]))
            self.bar.step(f"{self.setups[k].metric} resampling")
        return [None if parts[0][i] is None else np.concatenate([p[i] for p in parts])
                for i in range(len(parts[0]))]
