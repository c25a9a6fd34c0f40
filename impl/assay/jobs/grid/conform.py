"""``assay conform --engine dask``: the cases of a suite in batches on a Dask cluster.

Each batch (consecutive cases) is one task that connects to the implementation itself (a ``cmd:``
process of its own, or the ``direct:`` callable imported on the worker), runs the batch through
:func:`assay.jobs.conform.runner.run_suite` and sends back its outcomes and the ``--expect-fail``
patterns it used. The client concatenates the outcomes in case order: the same verdicts and exit
code as one process (the timings differ). Each batch's connection counts its own restarts of a
``cmd:`` process.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from assay.engine.dask_engine.parts import Failure, capture, checked
from assay.engine.dask_engine.session import spans
from assay.jobs.conform import connect, runner
from assay.jobs.conform.judge import Outcome
from assay.jobs.conform.suite import Case

if TYPE_CHECKING:
    from assay.engine.dask_engine.session import Session

#: batches of cases per task slot of the cluster (a batch pays for one connection)
BATCHES_PER_SLOT = 2


@dataclass(frozen=True)
class ImplSpec:
    """How to connect to the implementation (:func:`assay.jobs.conform.connect.connect`'s arguments)."""

    impl: str
    shape: str | None = None
    timeout: float = connect.DEFAULT_TIMEOUT
    max_output: int = connect.DEFAULT_MAX_OUTPUT
    validate: bool = True


def run_batch(spec: ImplSpec, cases: Sequence[Case], skip: Sequence[str], expect_fail: Sequence[str],
              factor: float) -> tuple[list[Outcome], list[str]] | Failure:
    """On a worker: a batch of cases answered over a connection of its own; its outcomes and the
    ``expect_fail`` patterns that matched a case that ran."""
    def run() -> tuple[list[Outcome], list[str]]:
        impl = connect.connect(spec.impl, spec.shape, timeout=spec.timeout, max_output=spec.max_output,
                               validate=spec.validate)
        impl.open()
        try:
            report = runner.run_suite(impl, cases, skip=skip, expect_fail=expect_fail, factor=factor)
        finally:
            impl.close()
        return report.outcomes, [p for p in expect_fail if p not in report.unmatched_expect_fail]
    return capture(run)


def run_suite(session: "Session", spec: ImplSpec, implementation: dict[str, Any], cases: Sequence[Case], *,
              skip: Sequence[str] = (), expect_fail: Sequence[str] = (), factor: float = 1.0) -> runner.Report:
    """:func:`assay.jobs.conform.runner.run_suite` on the session's cluster (``implementation``: the
    metadata the client's connection reported)."""
    start = time.perf_counter()
    report = runner.Report(dict(implementation), factor=factor)
    cases = list(cases)
    futures = [session.submit(run_batch, spec, cases[a:b], list(skip), list(expect_fail), factor,
                              stage="conform", index=i)
               for i, (a, b) in enumerate(spans(len(cases), BATCHES_PER_SLOT * session.slots()))]
    used: set[str] = set()
    try:
        for result in session.results(futures):
            outcomes, matched = checked(result)
            report.outcomes += outcomes
            used.update(matched)
    finally:
        session.cancel(futures)
    report.unmatched_expect_fail = [p for p in expect_fail if p not in used]
    report.seconds = time.perf_counter() - start
    return report
