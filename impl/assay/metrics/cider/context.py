"""CIDEr's first pass as a reduction (``MetricFamily.context_part`` / ``merge_contexts`` / ``finish_context``).

The document frequencies of a corpus are a sum over its images: a chunk of images gives its number
of images and the df table of its references (:class:`~assay.metrics.cider.ngram_table.NgramTable`,
integer keys, its own vocabulary); tables of chunks merge by adding the df of equal n-grams (an
image is in exactly one chunk), in runs of doubling size as the chunks come. The finished context
is what ``segment_stats`` makes for a whole corpus: ``{"df": DocumentFrequencies, "idf": label}``,
so rows of chunks computed under it are the rows of the whole corpus
(conformance/tests/accel/test_corpus_pass.py). With ``idf_corpus`` the references are not counted:
the context is the loaded table.

Memory: 16 bytes per distinct reference n-gram (an int64 key and an int64 df) plus the vocabulary.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from assay.core.errors import ToolBehaviourError
from assay.core.family import Refs, Segments
from assay.core.knobs import Config
from assay.metrics.cider.idf import (DocumentFrequencies, Run, load_idf_corpus, merge_runs, push_run,
                                     reference_frequencies)
from assay.text.ngram_table import NgramTable
from assay.metrics.cider.rows import EVALUATED
from assay.metrics.cider.tokens import PTB, caption_side_before, check_chunkable, group_refs, split_next

NO_REFERENCE_NGRAMS = ("no reference caption has a token: pycocoevalcap's CiderScorer takes max() of an empty "
                       "document-frequency table")


@dataclass(frozen=True)
class CiderPart:
    """The first pass over chunks: their images and the df of their references' n-grams, as runs of
    consecutive chunks not merged yet (:func:`~assay.metrics.cider.idf.push_run`; merging a corpus
    chunk after chunk then costs about log2(chunks) merges per n-gram)."""

    n_images: int
    runs: tuple[Run, ...] | None      # None under idf_corpus (the references are not counted)

    @property
    def table(self) -> NgramTable | None:
        """The df table of every chunk of the part (its runs merged)."""
        return None if not self.runs else merge_runs(self.runs)


def context_part(hyps: Segments, refs: Refs, config: Config, ahead: bool = False) -> CiderPart:
    """``ahead``: the last image is the next chunk's first, its first reference the batch's next line
    (context only); the chunk's hypotheses are checked too (:func:`check_chunkable`: the first pass
    finds a line break that rules out chunks before any row is made)."""
    after = None
    if ahead:
        hyps, refs, (_, after) = split_next(hyps, refs)
    flat, owner = group_refs(hyps, refs)
    if config.tokenize == PTB:
        check_chunkable(hyps, flat, ahead=ahead)
    if config.idf_corpus is not None:
        return CiderPart(len(hyps), None)
    vocab: dict[str, int] = {}
    side = caption_side_before(flat, config, vocab, after)
    table = reference_frequencies(side, list(vocab), owner, config.max_ngram_order)
    return CiderPart(len(hyps), ((len(hyps), table),))


def merge_parts(parts: Sequence[CiderPart]) -> CiderPart:
    runs: list[Run] = []
    for part in parts:
        for images, table in part.runs or ():
            push_run(runs, images, table)
    return CiderPart(sum(p.n_images for p in parts), tuple(runs) if runs else None)


def finish(merged: CiderPart, config: Config) -> dict[str, Any]:
    if config.idf_corpus is not None:
        df = load_idf_corpus(config.idf_corpus, config)
        return {"df": df, "idf": f"idf_corpus: {df.source}"}
    table = merged.table
    if config.no_reference_ngrams == "error" and (table is None or not table.max_order or not table.values[0].any()):
        raise ToolBehaviourError(NO_REFERENCE_NGRAMS, "ValueError")
    return {"df": DocumentFrequencies(merged.n_images, EVALUATED, table), "idf": EVALUATED}
