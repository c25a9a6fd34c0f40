"""``assay compare`` and ``assay report`` with ``--engine dask``: one task per metric of a corpus.

A metric's profiles share one :class:`~assay.engine.evaluate.Evaluator` (its statistics cache), so the
metric is the unit: a task compares every profile of it (:func:`assay.jobs.compare.compare` with that
one metric) and, for compare, attributes ``--attribute A B`` on its tables; for a report it also
makes the metric's sections and writes their plots (:func:`assay.jobs.report.build.report_sections`).
The client puts the metrics' tables back in the single-process order and renders (or writes the
report pages) once: the output is the single-process output.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from assay.engine.dask_engine.parts import Blob, Failure, capture, checked
from assay.jobs import compare as cmp_mod
from assay.jobs.attribution import EXACT_PLAYERS
from assay.jobs.compare import Comparison, PairAttribution, Table
from assay.jobs.report.build import report_sections, write_report
from assay.jobs.report.model import MeasureSection, Report, ReportJob

if TYPE_CHECKING:
    from assay.engine.dask_engine.session import Session

Corpus = tuple[list[str], list[list[Any]]]


@dataclass
class MetricPart:
    """What one metric adds to a comparison (and to a report: its sections, whose tables are these)."""

    tables: list[Table]
    skipped: dict[str, str]
    sections: list[MeasureSection] | None = None


# ----------------------------------------------------------------------------- on a worker
def compare_metric(corpus: Blob, metric: str, profiles: Sequence[str] | None, attribute: tuple[str, str] | None,
                   top: int, max_players: int) -> tuple[MetricPart | Failure, Any]:
    """One metric compared, and its attributions (``(pairs, unavailable)``, a Failure, or None without
    ``attribute``)."""
    hyps, refs = corpus.value
    result = capture(cmp_mod.compare, hyps, refs, [metric], profiles)
    if isinstance(result, Failure):
        return result, None
    part = MetricPart(result.tables, result.skipped)
    if attribute is None:
        return part, None
    a, b = attribute
    return part, capture(lambda: cmp_mod.attribute_tables(result, a, b, top=top, max_players=max_players))


def report_metric(corpus: Blob, out: str, metric: str, include_text: bool, top: int,
                  max_players: int = EXACT_PLAYERS) -> MetricPart | Failure:
    """One metric's comparison and report sections (its plots written to ``out/plots``)."""
    hyps, refs = corpus.value

    def run() -> MetricPart:
        cmp, sections = report_sections(hyps, refs, Path(out), metrics=[metric], include_text=include_text, top=top,
                                        max_players=max_players)
        return MetricPart(cmp.tables, cmp.skipped, sections)
    return capture(run)


# ----------------------------------------------------------------------------- on the client
def _comparison(hyps: Sequence[str], refs: Sequence[Sequence[Any]], parts: Sequence[MetricPart]) -> Comparison:
    """The metrics' parts as one comparison (no evaluators: they stayed on the workers)."""
    tables: list[Table] = []
    skipped: dict[str, str] = {}
    for part in parts:
        tables += part.tables
        skipped.update(part.skipped)
    return Comparison(len(hyps), len(refs), tables, skipped, {}, list(hyps), [list(s) for s in refs])


def _corpus(hyps: Sequence[str], refs: Sequence[Sequence[Any]]) -> Corpus:
    return list(hyps), [list(s) for s in refs]


def compare(session: "Session", hyps: Sequence[str], refs: Sequence[Sequence[Any]], metrics: Sequence[str],
            profiles: Sequence[str] | None = None, attribute: tuple[str, str] | None = None, *, top: int = 10,
            max_players: int = EXACT_PLAYERS) -> tuple[Comparison, list[PairAttribution], list[str]]:
    """:func:`assay.jobs.compare.compare` of ``metrics`` (names as :func:`~assay.jobs.compare.select_metrics`
    gives them) and, with ``attribute``, :func:`~assay.jobs.compare.attribute_tables`: the comparison,
    the attributions and why some are unavailable. Errors are raised in the single-process order
    (every comparison before any attribution)."""
    [corpus] = session.scatter(_corpus(hyps, refs))
    futures = [session.submit(compare_metric, corpus, metric, profiles, attribute, top, max_players,
                              stage="compare", index=i) for i, metric in enumerate(metrics)]
    try:
        results = list(session.results(futures))
    finally:
        session.cancel(futures)
    cmp = _comparison(hyps, refs, [checked(part) for part, _ in results])
    pairs: list[PairAttribution] = []
    unavailable: list[str] = []
    for _, attributed in results:
        if attributed is not None:
            more, why = checked(attributed)
            pairs += more
            unavailable += why
    return cmp, pairs, unavailable


def reports(session: "Session", jobs: Sequence[ReportJob]) -> Iterator[Report | Failure]:
    """Each job's report, in order, written by the client once its metrics are done (or the first
    failure among them, as a Failure: that report is not written)."""
    futures = []
    corpora = session.scatter(*(_corpus(job.hyps, job.refs) for job in jobs))
    for j, (job, corpus) in enumerate(zip(jobs, corpora)):
        (Path(job.out) / "plots").mkdir(parents=True, exist_ok=True)
        futures.append([session.submit(report_metric, corpus, job.out, metric, job.include_text, job.top,
                                       job.max_players, stage=f"report{j}", index=i)
                        for i, metric in enumerate(cmp_mod.select_metrics(job.metrics))])
    try:
        for job, metric_futures in zip(jobs, futures):
            parts = list(session.results(metric_futures))
            failed = next((p for p in parts if isinstance(p, Failure)), None)
            if failed is not None:
                yield failed
                continue
            sections = [s for p in parts for s in (p.sections or [])]
            report = Report(job.title, job.source, job.include_text, _comparison(job.hyps, job.refs, parts), sections)
            yield write_report(report, Path(job.out))
    finally:
        session.cancel([f for group in futures for f in group])
