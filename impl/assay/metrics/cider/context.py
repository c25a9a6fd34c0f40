"""CIDEr's first pass as a reduction (``MetricFamily.context_part`` / ``merge_contexts`` / ``fold_context``
/ ``finish_context``).

The document frequencies of a corpus are a sum over its images: a chunk of images gives its number
of images and the df of its references' n-grams in its own coding (:class:`~assay.text.gram_index.LocalGrams`);
parts merge into one :class:`~assay.text.gram_index.GramIndex` (one numbering, df of equal n-grams added:
an image is in exactly one chunk). The engine folds the chunks of one process into one index it
owns, one hash insertion per distinct n-gram of each chunk (:func:`fold_parts`); Dask's tree of merges
makes a new index per merge (:func:`merge_parts`: a task never changes its inputs). The finished
context is what ``segment_stats`` makes for a whole corpus: ``{"df": DocumentFrequencies, "idf":
label}``, so rows of chunks computed under it are the rows of the whole corpus
(conformance/tests/accel/test_corpus_pass.py). With ``idf_corpus`` the references are not counted:
the context is the loaded table.

Memory: about 45 bytes per distinct reference n-gram in one process (:mod:`assay.text.gram_index`; 16 pickled,
as Dask parts travel) plus the vocabulary.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from assay.core.errors import ToolBehaviourError
from assay.core.family import Refs, Segments
from assay.core.knobs import Config
from assay.metrics.cider.idf import DocumentFrequencies, load_idf_corpus, reference_frequencies
from assay.text.gram_index import GramIndex, LocalGrams
from assay.text.ngram_table import NgramTable
from assay.metrics.cider.rows import EVALUATED
from assay.metrics.cider.tokens import PTB, caption_side_before, check_chunkable, group_refs, split_next

NO_REFERENCE_NGRAMS = ("no reference caption has a token: pycocoevalcap's CiderScorer takes max() of an empty "
                       "document-frequency table")


@dataclass(frozen=True)
class CiderPart:
    """The first pass over chunks: their images and the df of their references' n-grams (one chunk's,
    in its own coding, or an index of several; None under idf_corpus: the references are not counted)."""

    n_images: int
    grams: LocalGrams | GramIndex | None

    @property
    def table(self) -> NgramTable | GramIndex | None:
        """The df of every n-gram of the part (tests)."""
        return self.grams.table() if isinstance(self.grams, LocalGrams) else self.grams


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
    return CiderPart(len(hyps), reference_frequencies(side, list(vocab), owner, config.max_ngram_order))


def merge_parts(parts: Sequence[CiderPart]) -> CiderPart:
    """A new part holding every part's n-grams (the parts are left as they are)."""
    return fold_parts(None, parts)


def fold_parts(merged: CiderPart | None, parts: Sequence[CiderPart]) -> CiderPart:
    """``merged`` (None: nothing yet) with ``parts`` added, into ``merged``'s own index when it has one
    (the caller owns it, and it came from this function), else into a new one."""
    if merged is not None and isinstance(merged.grams, GramIndex):
        index, images, todo = merged.grams, merged.n_images, list(parts)
    else:
        index, images, todo = None, 0, ([] if merged is None else [merged]) + list(parts)
    for part in todo:
        images += part.n_images
        if part.grams is None:
            continue
        grams = part.grams.export() if isinstance(part.grams, GramIndex) else part.grams
        if index is None:
            index = GramIndex(grams.max_order)
        index.add(grams)
    return CiderPart(images, index)


def finish(merged: CiderPart, config: Config) -> dict[str, Any]:
    if config.idf_corpus is not None:
        df = load_idf_corpus(config.idf_corpus, config)
        return {"df": df, "idf": f"idf_corpus: {df.source}"}
    index = fold_parts(None, [merged]).grams if isinstance(merged.grams, LocalGrams) else merged.grams
    if config.no_reference_ngrams == "error" and (index is None or not index.max_order or not index.values[0].any()):
        raise ToolBehaviourError(NO_REFERENCE_NGRAMS, "ValueError")
    return {"df": DocumentFrequencies(merged.n_images, EVALUATED, index), "idf": EVALUATED}
