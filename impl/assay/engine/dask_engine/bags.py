"""Scoring Dask collections: a ``dask.bag`` of segments, or a dask dataframe column, against reference
collections partitioned alike (``assay.dask.score``, ``assay.dask.sentence_scores``).

Each partition of the hypotheses, with the same partition of every reference stream, maps to a part
(:func:`.tasks.partition_part`: the family's ``segment_stats`` on the partition's segments) and the
parts reduce as a sharded file's do (:mod:`.reduce`): the Score is the one ``assay.score`` gives for
the same segments in the same order, computed once from the reduced rows.
"""
from __future__ import annotations

from typing import Any, Sequence

from assay.core.errors import InputError, KnobError
from assay.core.score import Score
from assay.engine import api
from assay.engine.dask_engine import reduce, tasks
from assay.engine.dask_engine.parts import Part
from assay.engine.dask_engine.session import Progress, open_session


def partitions(collection: Any, what: str) -> list[Any]:
    """The delayed partitions of a dask bag or dask dataframe Series (``to_delayed``)."""
    to_delayed = getattr(collection, "to_delayed", None)
    if not callable(to_delayed) or not hasattr(collection, "npartitions"):
        raise InputError(f"{what} must be a dask.bag.Bag or a dask dataframe column (Series), got "
                         f"{type(collection).__name__}")
    if getattr(collection, "ndim", 1) == 2:
        raise InputError(f"{what} is a dataframe: pass one column of it (df['hyp'])")
    return list(to_delayed())


def _reference_collections(refs: Any) -> list[Any]:
    if hasattr(refs, "to_delayed") or isinstance(refs, (str, bytes)) or not isinstance(refs, Sequence) or not refs:
        raise InputError("refs must be a non-empty list of reference collections (one per reference stream), "
                         "e.g. [refs_bag]")
    return list(refs)


def _leaves(session: Any, configured: api.Configured, hyps: Any, refs: Sequence[Any], mode: str) -> list[Any]:
    from dask import delayed   # the dask extra: only here, when collections are scored

    hyp_parts = partitions(hyps, "hyps")
    ref_parts = [partitions(r, f"reference stream {k + 1}") for k, r in enumerate(refs)]
    for k, parts in enumerate(ref_parts):
        if len(parts) != len(hyp_parts):
            raise InputError(f"reference stream {k + 1} has {len(parts)} partitions but the hypotheses have "
                             f"{len(hyp_parts)}: repartition them alike")
    spec = tasks.ConfigSpec.of(configured)
    task = delayed(tasks.partition_part, pure=True)
    return session.compute([task(spec, i, mode, h, *[p[i] for p in ref_parts]) for i, h in enumerate(hyp_parts)],
                           stage="partition")


def _configured(metric: str, profile: str | None, level: str, n_refs: int, knobs: dict[str, Any]) -> api.Configured:
    configured = api.configure(metric, profile, level, **knobs)
    family = configured.family
    if family.corpus_pass:
        raise KnobError(f"{family.name}: scoring Dask collections needs the family's first pass as a reduction, "
                        "which it does not implement yet; score it with assay.score")
    api.check_max_refs(configured.profile, n_refs)
    return configured


def score(metric: str, hyps: Any, refs: Any, profile: str | None = None, *, client: Any = None,
          width: int | None = None, progress: Progress | None = None, **knobs: Any) -> Score:
    """The corpus Score of a Dask collection of hypotheses against reference collections partitioned alike:
    equal to ``assay.score(metric, list(hyps), [list(r) for r in refs], profile, **knobs)``.

    ``client``: a ``distributed.Client`` (default: the current one, ``distributed.get_client()``)."""
    streams = _reference_collections(refs)
    configured = _configured(metric, profile, "corpus", len(streams), knobs)
    n = str(len(streams))
    with open_session(client=_client(client), progress=progress) as session:
        mode = reduce.mode_of(configured, False)
        leaves = _leaves(session, configured, hyps, streams, mode)
        return reduce.corpus_score(session, configured, leaves, mode, width=width,
                                   nrefs=lambda missing: "var" if missing else n)[0]


def sentence_scores(metric: str, hyps: Any, refs: Any, profile: str | None = None, *, client: Any = None,
                    width: int | None = None, progress: Progress | None = None, **knobs: Any) -> list[Score]:
    """One Score per segment, in order, with the tool's sentence-level defaults (as ``assay.sentence_scores``)."""
    streams = _reference_collections(refs)
    configured = _configured(metric, profile, "sentence", len(streams), knobs)
    n = str(len(streams))

    def nrefs(part: Part) -> Any:
        missing = part.missing
        return lambda i: "var" if missing is not None and missing[i] else n

    out: list[Score] = []
    with open_session(client=_client(client), progress=progress) as session:
        leaves = _leaves(session, configured, hyps, streams, "rows")
        reduce.sentence_scores(session, configured, leaves, nrefs=nrefs, width=width, emit=out.append)
    return out


def _client(client: Any) -> Any:
    if client is not None:
        return client
    from assay.engine.dask_engine import require_distributed
    distributed: Any = require_distributed()
    try:
        return distributed.get_client()
    except ValueError:
        raise InputError("assay.dask needs a dask.distributed Client: create one (distributed.Client()) or pass "
                         "client=") from None
