"""Scoring files chunk by chunk: only statistics rows outlive a chunk (``assay score -i -r``).

Statistics are additive rows (:mod:`assay.core.stats`), so a corpus score over files is: read
``chunk_lines`` aligned lines of every file (:mod:`assay.core.segment_stream`), turn them into rows
(``family.segment_stats``), drop the text, and after the last chunk score the stacked rows once.
The result is identical to scoring the whole corpus at once: rows do not depend on the chunking,
and the score stage sees the same rows in the same order. Sentence scores are emitted chunk by chunk.

Families whose rows depend on the whole corpus (``MetricFamily.corpus_pass``: NIST's information
weights, CIDEr's document frequencies) are read whole, as before; so is standard input (``-``),
which cannot be surveyed before it is read.

Errors a family raises about a segment of a chunk (``segment 3``, ``document 3``) are renumbered to
the segment's line in the files.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from assay.core.errors import AssayError, InputError, ToolBehaviourError
from assay.core.io import ControlChar
from assay.core.score import Score
from assay.core.segment_stream import CHUNK_LINES, ControlTally, FileSurvey, iter_chunks, survey
from assay.core.stats import SegmentStats
from assay.engine import api

_NUMBERED = re.compile(r"\b(segment|document|line) (\d+)")


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


def streamable(configured: api.Configured, paths: Sequence[str]) -> bool:
    """Whether files can be scored in chunks under this configuration (not stdin, no corpus pass)."""
    return not configured.family.corpus_pass and "-" not in paths


def survey_aligned(hyp_path: str, ref_paths: Sequence[str], encoding: str) -> list[FileSurvey]:
    """Survey every file and check they have one line per segment each (before any scoring)."""
    surveys = [survey(p, encoding=encoding) for p in [hyp_path, *ref_paths]]
    hyp = surveys[0]
    for ref in surveys[1:]:
        if ref.n_lines != hyp.n_lines:
            raise InputError(f"line counts differ: {hyp.path} has {hyp.n_lines} lines but {ref.path} has "
                             f"{ref.n_lines}")
    return surveys


def _renumbered(exc: AssayError, offset: int) -> AssayError:
    """The same error with segment numbers made file-relative (``offset`` lines precede the chunk)."""
    if offset == 0:
        return exc
    message = _NUMBERED.sub(lambda m: f"{m.group(1)} {int(m.group(2)) + offset}", str(exc))
    if isinstance(exc, ToolBehaviourError):
        return ToolBehaviourError(message, exc.tool_error)
    return type(exc)(message)


def _aligned_chunks(surveys: Sequence[FileSurvey], encoding: str, chunk_lines: int, chop: bool,
                    notes: Sequence[FileNotes]) -> Iterator[tuple[int, list[str], list[list[str]]]]:
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


def score_files(configured: api.Configured, hyp_path: str, ref_paths: Sequence[str], *, encoding: str = "utf-8",
                sentence: bool = False, width: int | None = None, chunk_lines: int = CHUNK_LINES,
                emit: Callable[[Score], None] | None = None) -> tuple[Score | None, list[FileNotes]]:
    """Score aligned files in chunks of ``chunk_lines`` lines.

    Corpus level: returns the Score. Sentence level: passes each segment's Score to ``emit`` as its
    chunk is done, and returns None. Either way also returns each file's notes (byte-order mark,
    control characters) for the caller to report."""
    surveys = survey_aligned(hyp_path, ref_paths, encoding)
    api.check_max_refs(configured.profile, len(ref_paths))
    notes = [FileNotes(s.path, s.bom, s.bom and encoding == "utf-8-sig") for s in surveys]
    chop = bool(configured.config.get("chop_unterminated_last_line", False))
    family, config = configured.family, configured.config
    nrefs = str(len(ref_paths))
    rows: np.ndarray | None = None      # every segment's row, allocated once the width is known
    columns: tuple[str, ...] = ()
    context: Any = None
    for first, hyps, streams in _aligned_chunks(surveys, encoding, chunk_lines, chop, notes):
        try:
            stats = family.segment_stats(hyps, streams, config)
        except (InputError, ToolBehaviourError) as exc:
            raise _renumbered(exc, first - 1) from None
        if sentence:
            for s in api.sentence_scores_from_stats(configured, stats, lambda i: nrefs, width):
                (emit or _discard)(s)
            continue
        if rows is None:
            rows = np.empty((surveys[0].n_lines, stats.rows.shape[1]), dtype=stats.rows.dtype)
            columns, context = stats.columns, stats.context
        rows[first - 1:first - 1 + len(stats)] = stats.rows
    if sentence:
        return None, notes
    assert rows is not None      # survey_aligned: at least one line
    stats = SegmentStats(columns, rows, context)
    return api.family_score(family, stats, config, configured.profile, nrefs, width), notes


def _discard(_: Any) -> None:
    return None
