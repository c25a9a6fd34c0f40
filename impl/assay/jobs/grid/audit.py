"""``assay audit --engine dask``: the claims of a table (or of one ``-i``/``-r`` corpus) spread over a cluster.

One task per (corpus, metric): its claims in table order, sharing one
:class:`~assay.jobs.audit.search.Auditor` as they do in one process
(:func:`~assay.jobs.audit.verdict.audit_claims`). A task stops at its first failing claim; the
client takes the reports in table order and so meets the first failure where one process would.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from assay.engine.dask_engine.parts import Blob, Failure, capture
from assay.jobs.audit.claims import Claim
from assay.jobs.audit.search import Auditor
from assay.jobs.audit.signatures import ParsedSignature
from assay.jobs.audit.verdict import ClaimReport, audit_claims

if TYPE_CHECKING:
    from assay.engine.dask_engine.session import Session


@dataclass(frozen=True)
class Corpus:
    """One system output and its reference streams, with the audit options it is read under."""

    hyps: Sequence[str]
    streams: Sequence[Sequence[Any]]
    options: Any


@dataclass(frozen=True)
class ClaimJob:
    """One claim: on corpus ``corpus`` (an index), with its stated signature, system label and table row."""

    corpus: int
    claim: Claim
    signature: ParsedSignature | None = None
    system: str | None = None
    row: int | None = None


def audit_group(data: Blob, jobs: Sequence[ClaimJob]) -> list[ClaimReport | Failure]:
    """On a worker: the claims of one (corpus, metric) in order, up to the first failure (included)."""
    corpus: Corpus = data.value
    auditors: dict[str, Auditor] = {}
    out: list[ClaimReport | Failure] = []
    for job in jobs:
        result = capture(audit_claims, corpus.hyps, corpus.streams, [(job.claim, job.signature)], corpus.options,
                         job.system, [job.row], auditors)
        if isinstance(result, Failure):
            out.append(result)
            break
        out.extend(result)
    return out


def audit(session: "Session", corpora: Sequence[Corpus], jobs: Sequence[ClaimJob]) -> list[ClaimReport | Failure | None]:
    """Every claim's report, in the order of ``jobs``: a :class:`Failure` where the claim failed, None
    after a failure of its (corpus, metric) group (it was not audited)."""
    data = session.scatter(*corpora)
    groups: dict[tuple[int, str], list[int]] = {}
    for i, job in enumerate(jobs):
        groups.setdefault((job.corpus, job.claim.metric), []).append(i)
    futures = [session.submit(audit_group, data[corpus], [jobs[i] for i in members], stage="audit", index=n)
               for n, ((corpus, _), members) in enumerate(groups.items())]
    out: list[ClaimReport | Failure | None] = [None] * len(jobs)
    try:
        for members, results in zip(groups.values(), session.results(futures)):
            for i, result in zip(members, results):
                out[i] = result
    finally:
        session.cancel(futures)
    return out
