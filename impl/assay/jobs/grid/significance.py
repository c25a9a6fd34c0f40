"""``assay significance --engine dask``: sacrebleu's significance tests with their work on a Dask cluster.

The run is :func:`assay.jobs.significance.confidence_test` / :func:`~assay.jobs.significance.paired_test`
itself, with :class:`DaskRuns` doing its work units:

- one task per (metric, group of systems), about one group per task slot: the systems' statistics
  rows (:func:`~assay.jobs.significance.systems_rows`: row-local families tokenise the references
  once per group); the Scores are made on the client from them. When a group fails, all the
  systems are made again together on a worker, as one process makes them, so that the error is the
  single-process one;
- one task per (metric, block of consecutive resamples): the block's draws made again from the run's
  seeded stream (:mod:`assay.jobs.significance_blocks`) and resampled
  (:func:`~assay.jobs.significance.resample_block`); the blocks' values, concatenated in order,
  are the values of one process, draw for draw, so every mean, CI and p-value is equal.
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from assay._version import __version__
from assay.core.stats import SegmentStats
from assay.engine.dask_engine.parts import Blob, Failure, capture, checked
from assay.engine.dask_engine.session import spans
from assay.engine.dask_engine.tasks import check_version
from assay.jobs import significance as sig
from assay.jobs.significance_blocks import DrawBlock, draw_blocks
from assay.jobs.significance_types import ConfidenceResult, PairedResult

if TYPE_CHECKING:
    from assay.engine.dask_engine.session import Session

#: blocks of resamples per metric, per task slot of the cluster
BLOCKS_PER_SLOT = 2


@dataclass(frozen=True)
class SetupSpec:
    """A :class:`~assay.jobs.significance.MetricSetup` as data (metric, profile, the knobs given), rebuilt
    once per worker process by the same assay version."""

    metric: str
    profile: str
    knobs: tuple[tuple[str, Any], ...]
    version: str = __version__

    @classmethod
    def of(cls, setup: sig.MetricSetup) -> "SetupSpec":
        return cls(setup.metric, setup.profile.name, tuple(setup.knobs.items()))

    def setup(self) -> sig.MetricSetup:
        check_version(self.version)
        key = pickle.dumps(self)
        found = _SETUPS.get(key)
        if found is None:
            (found,) = sig.prepare_metrics([(self.metric, self.profile, dict(self.knobs))])
            _SETUPS[key] = found
        return found


_SETUPS: dict[bytes, sig.MetricSetup] = {}


# ----------------------------------------------------------------------------- on a worker
def systems_rows(spec: SetupSpec, names: Sequence[str], outputs: Sequence[Blob], refs: Blob
                 ) -> list[tuple[SegmentStats, str]] | Failure:
    """A group of systems' statistics rows and ``nrefs`` fields."""
    return capture(lambda: sig.systems_rows(spec.setup(), list(names), [o.value for o in outputs], refs.value))


def joint_failure(spec: SetupSpec, names: Sequence[str], outputs: Sequence[Blob], refs: Blob) -> Failure | None:
    """The error one process meets making every system's statistics (None: it meets none)."""
    result = capture(lambda: sig.systems_rows(spec.setup(), list(names), [o.value for o in outputs], refs.value)
                     and None)
    return result if isinstance(result, Failure) else None


def resample(spec: SetupSpec, kind: str, groups: Sequence[Any], block: DrawBlock) -> list[Any] | Failure:
    """One metric's resampled values (:func:`~assay.jobs.significance.resample_block`) on one block of draws
    (``groups``: the systems' rows, group by group)."""
    failed = next((g for g in groups if isinstance(g, Failure)), None)
    if failed is not None:
        return failed
    return capture(lambda: sig.resample_block(kind, spec.setup(), [stats for g in groups for stats, _ in g],
                                              block.draws()))


# ----------------------------------------------------------------------------- on the client
class DaskRuns:
    """:class:`~assay.jobs.significance.Runs` on a Dask cluster: every task submitted at once (statistics
    first, then the blocks as the client finds their stream positions), results taken metric by metric."""

    def __init__(self, session: "Session", kind: str, setups: Sequence[sig.MetricSetup], names: Sequence[str],
                 outputs: Sequence[Sequence[Any]], refs: Any, n_samples: int, seed: int) -> None:
        self.session, self.kind, self.setups, self.names = session, kind, list(setups), list(names)
        self.specs = [SetupSpec.of(s) for s in setups]
        self.refs, *self.outputs = session.scatter(refs, *(list(o) for o in outputs))
        groups = spans(len(self.names), session.slots())
        self.systems = [[session.submit(systems_rows, spec, self.names[a:b], self.outputs[a:b], self.refs,
                                        stage=f"stats{k}", index=i) for i, (a, b) in enumerate(groups)]
                        for k, spec in enumerate(self.specs)]
        self.blocks: list[list[Any]] = [[] for _ in self.specs]
        block_spans = spans(n_samples, BLOCKS_PER_SLOT * session.slots(), align=sig.FLOAT32_CHUNK)
        for b, block in enumerate(draw_blocks(kind, len(outputs[0]), seed, block_spans)):
            for k, spec in enumerate(self.specs):
                self.blocks[k].append(session.submit(resample, spec, kind, self.systems[k], block,
                                                     stage=f"resample{k}", index=b))

    def stats(self, k: int) -> list[Any]:
        groups = [self.session.result(f) for f in self.systems[k]]
        failed = next((g for g in groups if isinstance(g, Failure)), None)
        if failed is not None:
            joint = self.session.submit(joint_failure, self.specs[k], self.names, self.outputs, self.refs,
                                        stage="joint", index=k, track=False)
            (checked(self.session.result(joint)) or failed).throw()
        return [sig.scored_stats(self.setups[k], stats, nrefs) for g in groups for stats, nrefs in g]

    def resampled(self, k: int) -> list[np.ndarray | None]:
        parts = [checked(part) for part in self.session.results(self.blocks[k])]
        return [None if parts[0][i] is None else np.concatenate([p[i] for p in parts]) for i in range(len(parts[0]))]

    def cancel(self) -> None:
        self.session.cancel([f for group in (*self.systems, *self.blocks) for f in group])


class _Factory:
    """The :data:`~assay.jobs.significance.RunsFactory` of a session (one process when there is nothing
    to draw from: no segments); remembers its runs to cancel what is left."""

    def __init__(self, session: "Session") -> None:
        self.session = session
        self.made: list[DaskRuns] = []

    def __call__(self, kind: str, setups: Sequence[sig.MetricSetup], names: Sequence[str],
                 outputs: Sequence[Sequence[Any]], refs: Any, n_samples: int, seed: int) -> Any:
        if not len(outputs[0]):
            return sig.LocalRuns(kind, setups, names, outputs, refs, n_samples, seed)
        runs = DaskRuns(self.session, kind, setups, names, outputs, refs, n_samples, seed)
        self.made.append(runs)
        return runs

    def cancel(self) -> None:
        for runs in self.made:
            runs.cancel()


def confidence_interval(session: "Session", metric: Any, hyps: Sequence[Any], refs: Any, profile: str | None = None,
                        *, n_samples: int = sig.DEFAULT_BOOTSTRAP_SAMPLES, seed: Any, width: int | None = None,
                        **knobs: Any) -> list[ConfidenceResult] | ConfidenceResult:
    """:func:`assay.jobs.significance.confidence_interval` on the session's cluster (``seed`` as
    :func:`~assay.jobs.significance.resolve_seed` reads it; ``resolve_seed()`` for SACREBLEU_SEED)."""
    factory = _Factory(session)
    try:
        return sig.confidence_test(metric, hyps, refs, profile, n_samples, seed, width, knobs, runs=factory)
    finally:
        factory.cancel()


def paired(session: "Session", test: str, metrics: Any, baseline: Any, systems: Any, refs: Any,
           profile: str | None = None, *, n_samples: int, seed: Any, width: int | None = None,
           **knobs: Any) -> PairedResult:
    """:func:`assay.jobs.significance.paired_bootstrap` (``test="bs"``) or ``paired_ar`` (``"ar"``) on the
    session's cluster."""
    factory = _Factory(session)
    try:
        return sig.paired_test(test, metrics, baseline, systems, refs, profile, n_samples, seed, width, knobs,
                               runs=factory)
    finally:
        factory.cancel()
