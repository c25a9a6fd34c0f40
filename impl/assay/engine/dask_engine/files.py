"""Sharded files on a Dask cluster: ``assay score METRIC --engine dask -i 'out/part-*' -r 'ref/part-*'``.

The job, in rounds of tasks (:mod:`.tasks`), each shard a task:

1. survey every shard's files (line counts, byte-order marks; the same checks, and the same
   messages, as the single-process path) before any text is scored;
2. corpus-pass families only (NIST, CIDEr), when they implement their first pass as a reduction:
   each shard's first-pass part, merged in a tree (``merge_contexts``), finished once
   (``finish_context``); every shard's rows are then made under that one context, which the
   scheduler ships to each worker once. A family without that protocol is a :class:`KnobError`;
3. each shard read in chunks and reduced to a part (:mod:`.parts`), then the reduce (:mod:`.reduce`).

Workers read the paths themselves: on a cluster of several machines they must see the same files
(a shared file system), as with ``dask.bag.read_text``.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from assay.core.errors import KnobError
from assay.core.score import Score
from assay.core.segment_stream import CHUNK_LINES
from assay.engine import api, stream
from assay.engine.dask_engine import reduce, tasks
from assay.engine.dask_engine.parts import checked
from assay.engine.dask_engine.session import Session


def score_shards(session: Session, configured: api.Configured, hyp: str | Sequence[str],
                 refs: Sequence[str | Sequence[str]], *, encoding: str = "utf-8", sentence: bool = False,
                 width: int | None = None, chunk_lines: int = CHUNK_LINES,
                 emit: Callable[[Score], None] | None = None) -> tuple[Score | None, list[stream.FileNotes]]:
    """:func:`assay.engine.stream.score_files` on a Dask cluster: the same Score (or, at sentence level,
    the same Scores passed to ``emit`` in order, and None) and every file's notes."""
    family = configured.family
    if family.corpus_pass and not tasks.has_corpus_pass(family):
        raise KnobError(f"{family.name}: --engine dask needs the family's first pass (its corpus-wide "
                        "statistics) as a reduction, which it does not implement yet; use the default engine")
    shards = stream.pair_shards(hyp, refs)
    sharded = len(shards) > 1
    surveyed = session.map(tasks.survey_shard, [(s, encoding, sharded) for s in shards], stage="survey")
    surveys = [checked(r) for r in session.results(surveyed)]
    counts = stream.corpus_lines(surveys)
    api.check_max_refs(configured.profile, len(shards[0].refs))
    spec = tasks.ConfigSpec.of(configured)
    context = None
    following = stream.following_shards(surveys)
    if family.corpus_pass:
        firsts = session.map(tasks.file_context_part,
                             [(spec, s, v, encoding, chunk_lines, sharded, f)
                              for s, v, f in zip(shards, surveys, following)],
                             stage="first-pass")
        merged = session.tree_reduce(firsts, tasks.merge_contexts, spec, stage="merge")
        context = session.submit(tasks.finish_context, spec, merged, stage="context", index=0, track=False)
        checked(session.result(context))    # a first-pass failure, raised before the second pass

    mode = reduce.mode_of(configured, sentence)

    def part(index: int, part_mode: str) -> Any:
        return session.submit(tasks.file_part, spec, index, shards[index], surveys[index], encoding, chunk_lines,
                              sharded, part_mode, context, following[index], stage=f"rows-{part_mode}", index=index)

    leaves = [part(i, mode) for i in range(len(shards))]
    n_refs = str(len(shards[0].refs))
    if sentence:
        notes = reduce.sentence_scores(session, configured, leaves, nrefs=lambda p: (lambda i: n_refs), width=width,
                                       emit=emit or (lambda s: None))
        return None, notes
    score, notes = reduce.corpus_score(session, configured, leaves, mode, nrefs=lambda missing: n_refs, width=width,
                                       total=sum(counts), again=lambda i: part(i, "rows"))
    return score, notes
