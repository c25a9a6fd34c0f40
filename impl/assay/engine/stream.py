"""Scoring files chunk by chunk: only statistics rows outlive a chunk (``assay score -i -r``).

Statistics are additive rows (:mod:`assay.core.stats`), so a corpus score over files is: read
``chunk_lines`` aligned lines of every file (:mod:`assay.core.segment_stream`), turn them into rows
(``family.segment_stats``), drop the text, and after the last chunk score the stacked rows once.
The result is identical to scoring the whole corpus at once: rows do not depend on the chunking,
and the score stage sees the same rows in the same order. Sentence scores are emitted chunk by chunk.

A corpus may come in **shards** (:class:`Shard`): hypothesis files ``part-1 … part-k`` and, per
reference stream, as many reference files, paired in order (shard i of every stream holds the
references of shard i of the hypotheses, line for line). The corpus is the shards' lines in order;
each shard file is read as a file of its own (a multi-bleu-detok chop applies to each unterminated
shard). The same per-shard reader (:func:`shard_chunks`) serves this single process and the Dask
engine (:mod:`assay.engine.dask_engine`), so both give the same rows and the same error messages.

Families whose rows depend on the whole corpus (``MetricFamily.corpus_pass``: NIST's information
weights, CIDEr's document frequencies) are read twice: a first pass over the chunks builds the
corpus's context (:func:`corpus_context`), the second makes rows under it. A configuration whose
tokens depend on the next line (``MetricFamily.chunks_with_lookahead``: CIDEr and the COCO composite
under PTB, whose jar reads one line ahead) gets each chunk with the segment after it appended, the
next chunk's first or, after a shard's last chunk, the next non-empty shard's first
(:func:`shard_segments`); the family uses it as context only. Text that makes that too little (a
caption holding ``\\r``: :class:`~assay.core.errors.UnchunkableInput`, found by the first pass) is
scored whole, as are configurations that chunk neither way and standard input (``-``, which cannot
be surveyed before it is read): :func:`read_shards`.

Errors a family raises about a segment of a chunk (``segment 3``, ``document 3``) are renumbered to
the segment's line in the files (of a sharded corpus: in the shard, whose hypothesis file the
message then names): :mod:`assay.engine.chunks`, which the API's Python lists go through too.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence


from assay.core.errors import InputError, UnchunkableInput
from assay.core.io import ControlChar
from assay.core.score import Score
from assay.core.segment_stream import CHUNK_LINES, ControlTally, FileSurvey, iter_chunks, survey
from assay.core.stats import SegmentStats
from assay.engine import api
from assay.engine.chunks import RowStack, chunk_rows, chunkable, merged_context, reads_ahead


@dataclass
class FileNotes:
    """What the reader should hear about one input file once it has been read (see cli.common)."""

    path: str
    bom: bool
    bom_stripped: bool
    controls: ControlTally = field(default_factory=ControlTally)

    @property
    def control(self) -> ControlChar | None:
        return self.controls.result()


@dataclass(frozen=True)
class Shard:
    """One shard of a corpus: a hypothesis file and its reference files, one per reference stream."""

    hyp: str
    refs: tuple[str, ...]

    @property
    def paths(self) -> tuple[str, ...]:
        return (self.hyp, *self.refs)


def pair_shards(hyp: str | Sequence[str], refs: Sequence[str | Sequence[str]]) -> list[Shard]:
    """Shards from the hypothesis files and, per reference stream, its files (a string is one file);
    every stream must have as many files as the hypotheses (:class:`InputError` otherwise)."""
    hyp_files = [hyp] if isinstance(hyp, str) else list(hyp)
    streams = [[r] if isinstance(r, str) else list(r) for r in refs]
    if not hyp_files:
        raise InputError("no hypothesis file")
    for k, files in enumerate(streams):
        if len(files) != len(hyp_files):
            hint = (" (quote a glob given to -r, or each of its files counts as a reference stream of its own)"
                    if len(files) == 1 and len(hyp_files) > 1 else "")
            raise InputError(f"reference stream {k + 1} has {len(files)} file(s) but the hypotheses have "
                             f"{len(hyp_files)} shard(s); every stream needs one file per hypothesis shard{hint}")
    return [Shard(h, tuple(s[i] for s in streams)) for i, h in enumerate(hyp_files)]


def streamable(configured: api.Configured, paths: Sequence[str]) -> bool:
    """Whether files can be scored in chunks under this configuration: not standard input; a
    corpus-pass family only with its first-pass protocol; where a chunk boundary would change tokens
    (``MetricFamily.chunks_exactly``) only with one segment of lookahead (:func:`reads_ahead`)."""
    family, config = configured.family, configured.config
    return "-" not in paths and (chunkable(family, config) or reads_ahead(family, config))


def corpus_context(configured: api.Configured, shards: Sequence[Shard], surveys: Sequence[Sequence[FileSurvey]],
                   encoding: str, chunk_lines: int) -> Any:
    """The first pass of a corpus-pass family over every chunk of every shard (its text dropped
    chunk by chunk): ``finish_context(merge_contexts(context_part(chunk) ...))``."""
    family, config = configured.family, configured.config
    sharded = len(shards) > 1
    chunks = ((first - 1, hyps, streams, shard_label(shard, sharded), ahead)
              for shard, shard_surveys, following in zip(shards, surveys, following_shards(surveys))
              for first, hyps, streams, ahead in shard_segments(configured, shard_surveys, encoding, chunk_lines,
                                                                notes_of(shard_surveys, encoding), following))
    return family.finish_context(merged_context(family, config, chunks), config)   # notes: the second pass's


def survey_aligned(hyp_path: str, ref_paths: Sequence[str], encoding: str, allow_empty: bool = False
                   ) -> list[FileSurvey]:
    """Survey every file and check they have one line per segment each (before any scoring)."""
    surveys = [survey(p, encoding=encoding, allow_empty=allow_empty) for p in [hyp_path, *ref_paths]]
    hyp = surveys[0]
    for ref in surveys[1:]:
        if ref.n_lines != hyp.n_lines:
            raise InputError(f"line counts differ: {hyp.path} has {hyp.n_lines} lines but {ref.path} has "
                             f"{ref.n_lines}")
    return surveys


def survey_shard(shard: Shard, encoding: str, sharded: bool) -> list[FileSurvey]:
    """:func:`survey_aligned` of one shard; a shard of several may be empty (the corpus may not)."""
    return survey_aligned(shard.hyp, shard.refs, encoding, allow_empty=sharded)


def corpus_lines(surveys: Sequence[Sequence[FileSurvey]]) -> list[int]:
    """Each shard's line count, checking the corpus has a segment (:class:`InputError` otherwise)."""
    counts = [s[0].n_lines for s in surveys]
    if not sum(counts):
        raise InputError("every input shard is empty: no segment to score")
    return counts


def chops(configured: api.Configured) -> bool:
    """Whether the configuration chops an unterminated last line (multi-bleu-detok)."""
    return bool(configured.config.get("chop_unterminated_last_line", False))


def shard_text(surveys: Sequence[FileSurvey], encoding: str, chunk_lines: int, chop: bool,
               notes: Sequence[FileNotes]) -> Iterator[tuple[int, list[str], list[list[str]]]]:
    """``(first line, hypotheses, reference streams)`` per chunk of one shard's aligned files."""
    readers = [iter_chunks(s.path, encoding=encoding, chunk_lines=chunk_lines, controls=n.controls)
               for s, n in zip(surveys, notes)]
    total = surveys[0].n_lines
    for parts in zip(*readers):
        first = parts[0][0]
        columns = [lines for _, lines in parts]
        if chop and first + len(columns[0]) - 1 == total:      # multi-bleu-detok's chop of the last line
            for s, lines in zip(surveys, columns):
                if not s.terminated and lines:
                    lines[-1] = lines[-1][:-1]
        yield first, columns[0], columns[1:]


#: one segment of a corpus: its hypothesis and its references (one per stream)
Segment = tuple[str, list[str]]


def shard_segments(configured: api.Configured, surveys: Sequence[FileSurvey], encoding: str, chunk_lines: int,
                   notes: Sequence[FileNotes], following: Sequence[FileSurvey] | None = None
                   ) -> Iterator[tuple[int, list[str], list[list[str]], bool]]:
    """``(first line, hypotheses, reference streams, ahead)`` per chunk of one shard (:func:`shard_text`).
    When the configuration reads ahead (:func:`reads_ahead`), each chunk but the corpus's last comes
    with the segment after it appended (``ahead`` True): the next chunk's first or, after the shard's
    last chunk, the first segment of ``following`` (the next non-empty shard's files:
    :func:`following_shards`)."""
    chop = chops(configured)
    text = shard_text(surveys, encoding, chunk_lines, chop, notes)
    if not reads_ahead(configured.family, configured.config):
        for first, hyps, streams in text:
            yield first, hyps, streams, False
        return
    held: tuple[int, list[str], list[list[str]]] | None = None
    for chunk in text:
        if held is not None:
            yield _with_segment(held, _first_of(chunk[1], chunk[2]))
        held = chunk
    if held is not None:
        after = None if following is None else first_segment(following, encoding, chop)
        yield (*held, False) if after is None else _with_segment(held, after)


def _with_segment(chunk: tuple[int, list[str], list[list[str]]], segment: Segment
                  ) -> tuple[int, list[str], list[list[str]], bool]:
    first, hyps, streams = chunk
    hyps.append(segment[0])
    for lines, ref in zip(streams, segment[1]):
        lines.append(ref)
    return first, hyps, streams, True


def first_segment(surveys: Sequence[FileSurvey], encoding: str, chop: bool) -> Segment | None:
    """The first segment of a shard's files (None when it is empty), read as the shard reader reads it."""
    for _, hyps, streams in shard_text(surveys, encoding, 1, chop, notes_of(surveys, encoding)):
        return _first_of(hyps, streams)
    return None


def _first_of(hyps: list[str], streams: list[list[str]]) -> Segment:
    """The first segment of a chunk's lines."""
    return hyps[0], [lines[0] for lines in streams]


def following_shards(surveys: Sequence[Sequence[FileSurvey]]) -> list[Sequence[FileSurvey] | None]:
    """For each shard, the surveys of the next shard that has a segment (None after the last): where a
    reading-ahead configuration finds the segment after the shard's last chunk."""
    out: list[Sequence[FileSurvey] | None] = []
    nxt: Sequence[FileSurvey] | None = None
    for shard_surveys in reversed(surveys):
        out.append(nxt)
        if shard_surveys[0].n_lines:
            nxt = shard_surveys
    return out[::-1]


def notes_of(surveys: Sequence[FileSurvey], encoding: str) -> list[FileNotes]:
    """Fresh notes for the files of ``surveys`` (filled while their text is read)."""
    return [FileNotes(s.path, s.bom, s.bom and encoding == "utf-8-sig") for s in surveys]


def shard_chunks(configured: api.Configured, surveys: Sequence[FileSurvey], encoding: str, chunk_lines: int,
                 notes: Sequence[FileNotes], *, where: str = "", context: Mapping[str, Any] | None = None,
                 following: Sequence[FileSurvey] | None = None) -> Iterator[tuple[int, SegmentStats]]:
    """``(first line, rows)`` per chunk of one shard. ``where`` prefixes errors (the shard, when
    the corpus has several); ``context`` is the whole corpus's first pass (corpus-pass families);
    ``following``: the next non-empty shard's files (:func:`shard_segments`)."""
    family, config = configured.family, configured.config
    for first, hyps, streams, ahead in shard_segments(configured, surveys, encoding, chunk_lines, notes, following):
        yield first, chunk_rows(family, config, hyps, streams, context, first - 1, where, ahead)


def shard_label(shard: Shard, sharded: bool) -> str:
    """The prefix of a shard's errors: its hypothesis file, when the corpus has several shards."""
    return f"{shard.hyp}: " if sharded else ""


def score_files(configured: api.Configured, hyp_path: str | Sequence[str], ref_paths: Sequence[str | Sequence[str]],
                *, encoding: str = "utf-8", sentence: bool = False, width: int | None = None,
                chunk_lines: int = CHUNK_LINES, emit: Callable[[Score], None] | None = None
                ) -> tuple[Score | None, list[FileNotes]]:
    """Score aligned files (or aligned shards: :func:`pair_shards`) in chunks of ``chunk_lines`` lines.

    Corpus level: returns the Score. Sentence level: passes each segment's Score to ``emit`` as its
    chunk is done, and returns None. Either way also returns each file's notes (byte-order mark,
    control characters) for the caller to report."""
    shards = pair_shards(hyp_path, ref_paths)
    sharded = len(shards) > 1
    surveys = [survey_shard(s, encoding, sharded) for s in shards]
    counts = corpus_lines(surveys)
    api.check_max_refs(configured.profile, len(shards[0].refs))
    family, config = configured.family, configured.config
    nrefs = str(len(shards[0].refs))
    stack = RowStack(sum(counts))
    all_notes: list[FileNotes] = []
    offset = 0
    try:
        first_pass = (corpus_context(configured, shards, surveys, encoding, chunk_lines) if family.corpus_pass
                      else None)
    except UnchunkableInput:       # the text rules chunks out (found before any row): the corpus whole
        return score_whole(configured, hyp_path, ref_paths, encoding=encoding, sentence=sentence, width=width,
                           emit=emit)
    for shard, shard_surveys, count, following in zip(shards, surveys, counts, following_shards(surveys)):
        notes = notes_of(shard_surveys, encoding)
        all_notes.extend(notes)
        for first, stats in shard_chunks(configured, shard_surveys, encoding, chunk_lines, notes,
                                         where=shard_label(shard, sharded), context=first_pass, following=following):
            if sentence:
                for s in api.sentence_scores_from_stats(configured, stats, nrefs, width):
                    (emit or _discard)(s)
                continue
            stack.put(offset + first - 1, stats)
        offset += count
    if sentence:
        return None, all_notes
    stats = stack.summed() if family.sums_suffice(config) else stack.stats()
    return api.family_score(family, stats, config, configured.profile, nrefs, width), all_notes


def read_shards(hyp_path: str | Sequence[str], ref_paths: Sequence[str | Sequence[str]], *, encoding: str = "utf-8",
                chop: bool = False) -> tuple[list[str], list[list[str]], list[FileNotes]]:
    """The whole corpus of aligned files or shards as lines (for what cannot be scored in chunks:
    a corpus pass), read with the chunk reader (so ``.gz`` shards work too), and every file's notes."""
    shards = pair_shards(hyp_path, ref_paths)
    sharded = len(shards) > 1
    surveys = [survey_shard(s, encoding, sharded) for s in shards]
    corpus_lines(surveys)
    hyps: list[str] = []
    streams: list[list[str]] = [[] for _ in shards[0].refs]
    all_notes: list[FileNotes] = []
    for shard_surveys in surveys:
        notes = notes_of(shard_surveys, encoding)
        all_notes.extend(notes)
        for _, chunk_hyps, chunk_streams in shard_text(shard_surveys, encoding, CHUNK_LINES, chop, notes):
            hyps.extend(chunk_hyps)
            for out, lines in zip(streams, chunk_streams):
                out.extend(lines)
    return hyps, streams, all_notes


def score_whole(configured: api.Configured, hyp_path: str | Sequence[str], ref_paths: Sequence[str | Sequence[str]],
                *, encoding: str = "utf-8", sentence: bool = False, width: int | None = None,
                emit: Callable[[Score], None] | None = None) -> tuple[Score | None, list[FileNotes]]:
    """:func:`score_files` on the whole corpus read at once (:func:`read_shards`), for text that rules
    chunks out; the same results and notes."""
    hyps, streams, notes = read_shards(hyp_path, ref_paths, encoding=encoding, chop=chops(configured))
    if not sentence:
        return api.score_configured(configured, hyps, streams, width=width), notes
    for s in api.sentence_scores_configured(configured, hyps, streams, width=width):
        (emit or _discard)(s)
    return None, notes


def _discard(_: Any) -> None:
    return None
