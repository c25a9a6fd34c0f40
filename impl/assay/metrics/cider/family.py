"""CIDEr (Vedantam et al. 2015) and CIDEr-D as pycocoevalcap 1.2 computes it, as one family.

Every hypothesis and reference becomes, for each order n = 1..N, a vector of n-gram weights
``tf(g) * idf(g)`` with ``tf`` the raw count and

    idf(g) = log(N_images) - log(max(1, df(g)))

where ``df(g)`` is the number of *images* one of whose references contains ``g`` (each image's
reference n-gram set counts once; hypotheses never count). For image i with references
``r_1..r_m`` and order n::

    sim_n(h, r) = sum_g min(h_g, r_g) * r_g / (|h| |r|)          (CIDEr-D: clipped)
                  * exp(-(len_h - len_r)^2 / (2 sigma^2))           (sigma = 6)
    CIDEr-D(i)  = 10 * mean_n( sum_j sim_n(h, r_j) ) / m

and the corpus score is the mean over images (shared/research/rouge_meteor_cider.md §5.1).
Modules: :mod:`.tokens` (text stage), :mod:`.idf` (document frequencies, the corpus context),
:mod:`.context` (its first pass as a reduction over chunks, into one n-gram index keyed by integers:
:mod:`assay.text.gram_index`), :mod:`.rows` (the per-image statistics), :mod:`.vectors` (their hot loops, with the
compiled twin ``_vectors_c``), :mod:`.knobs`; this module is the family and its scorer
(:func:`cider_from_sums`).
Tool quirks reproduced by the ``coco`` profile:

- tokens are ``str.split()`` of the (already PTB-tokenised) captions (``tokenize=none``);
- the idf comes from the *evaluated* references, so one image always scores 0 (idf 0
  everywhere) and the same pair scores differently in different corpora;
- an n-gram seen only in hypotheses gets idf log N: it adds to |h| and never matches;
- "length" is the number of bigrams (words - 1, 0 for an empty caption);
- a zero norm on either side leaves sim_n = 0.

``vedantam2015`` is the original CIDEr as seed 004 writes it (eq. 4.1-4.3): cosine of tf-idf
vectors (tf normalised by the n-gram total, which the cosine cancels), no clipping, no length
penalty, no factor 10, uniform weights over n = 1..4. The seed's idf ``log(|I| / df)`` is
undefined for an n-gram no reference has (df = 0); that n-gram is given df = 1 here, as in
CIDEr-D, so it weighs the hypothesis norm with idf log N.

``idf_corpus`` (NOT the toolkit's behaviour) takes the document frequencies from a fixed
reference set instead of the evaluated one, so a single image gets a meaningful score:
a path to a JSON of document frequencies (``{"format": "assay-cider-df/1", "n_images": N,
"df": {"a dog": 12, ...}}``), a JSON of reference captions (COCO annotations or
``{image_id: [captions]}``), or a text file with one image per line (every line, blank ones too),
references separated by `` ||| ``; or a name looked up as ``$ASSAY_IDF_DIR/<name>.json``. (vrama91/cider's
``df_mode='coco-val-df'`` did the same with the COCO val2014 frequencies.)

Sufficient statistics: the document-frequency table is the corpus context (first pass, kept in
``SegmentStats.context["df"]``; :meth:`Cider.context_part` / :meth:`Cider.merge_contexts` (or, in one
process, :meth:`Cider.fold_context`) / :meth:`Cider.finish_context` make it chunk by chunk); each image is a row (``images``=1, ``cider``,
``cider_1..N``, ``n_refs``, ``hyp_len``); the corpus score is ``sum(cider) / sum(images)``. The
floating-point operations are pycocoevalcap's, in its order (:mod:`.rows`), so per-image and
corpus scores equal the toolkit's to the bit on the captions tried.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Mapping, Sequence

import numpy as np

from assay.core.errors import InputError, KnobError, ToolBehaviourError
from assay.core.family import MetricFamily, Refs, Segments
from assay.core.knobs import Config
from assay.core.score import RowScores
from assay.core.stats import SegmentStats
from assay.text.ngrams import Encoded
from assay.metrics.cider.context import NO_REFERENCE_NGRAMS, CiderPart, context_part, finish, fold_parts, merge_parts
from assay.metrics.cider.idf import DocumentFrequencies, load_idf_corpus
from assay.metrics.cider.knobs import KNOBS, TOKENIZE_CHOICES
from assay.metrics.cider.rows import EVALUATED, chunked_rows, cider_rows, image_spans, reference_spans
from assay.metrics.cider.tokens import (PTB, caption_parts, caption_side, caption_tokens, group_refs, ptb_batch,
                                        split_next)

#: images whose rows are made at once; more are made chunk by chunk (:func:`~.rows.chunked_rows`: the
#: n-gram codes of a chunk, ~100 MB, instead of the whole corpus's), their captions tokenised chunk by
#: chunk too (:func:`~.tokens.caption_parts`: the corpus keeps 1 to 4 bytes a token between the passes).
#: The engine hands the family at most ``CHUNK_LINES`` images at a time anyway (under ``tokenize=ptb``, one
#: jar batch, with the caption after them: ``chunks_with_lookahead``), except for Python lists under PTB.
CHUNK_IMAGES = 50_000

__all__ = ["FAMILY", "KNOBS", "PTB", "TOKENIZE_CHOICES", "Cider", "DocumentFrequencies", "caption_tokens",
           "cider_from_sums", "cider_rows", "group_refs", "ptb_batch"]


def cider_from_sums(sums: np.ndarray, columns: tuple[str, ...]) -> np.ndarray:
    """The CIDEr of summed rows: sum(cider) / sum(images), the mean of the per-image scores.

    The one scorer of the family: a corpus is its column sums, a sentence its own row (images = 1),
    a resample its summed rows. Document frequencies stay those the rows were computed with.
    """
    sums = np.asarray(sums, dtype=np.float64)
    return sums[..., columns.index("cider")] / sums[..., columns.index("images")]


class Cider(MetricFamily):
    name = "cider"
    knobset = KNOBS
    corpus_pass = True   # information weights / document frequencies come from the whole corpus

    def columns(self, config: Config) -> tuple[str, ...]:
        n = config.max_ngram_order
        return tuple(["images", "cider"] + [f"cider_{i}" for i in range(1, n + 1)] + ["n_refs", "hyp_len"])

    def chunks_exactly(self, config: Config) -> bool:
        """PTB tokenisation reads the batch as one text (the jar looks past a line end after a
        sentence-final abbreviation), so ``tokenize=ptb`` chunks only with lookahead."""
        return config.tokenize != PTB

    def chunks_with_lookahead(self, config: Config) -> bool:
        """Under PTB a caption's tokens depend on the next caption of its batch and nothing further."""
        return config.tokenize == PTB

    def segment_stats(self, hyps: Segments, refs: Refs, config: Config,
                      context: Mapping[str, Any] | None = None, ahead: bool = False) -> SegmentStats:
        """One row per image. ``context`` (:meth:`finish_context`, or the context of an earlier call)
        fixes the document frequencies, e.g. to score chunks of one corpus with the whole corpus's idf;
        ``ahead``: the last image is the next chunk's first, context only (``chunks_with_lookahead``)."""
        after: tuple[Any, Any] = (None, None)
        if ahead:
            hyps, refs, after = split_next(hyps, refs)
        flat, owner = group_refs(hyps, refs)
        vocab: dict[str, int] = {}
        n_img = len(hyps)
        if n_img > CHUNK_IMAGES or ahead:      # bounded memory: tokenised and scored chunk by chunk
            spans = image_spans(n_img, CHUNK_IMAGES)
            hyp_parts = caption_parts(hyps, config, vocab, spans, after[0])
            ref_parts = caption_parts(flat, config, vocab, reference_spans(owner, n_img, spans), after[1])
        else:
            hyp_parts, ref_parts = [caption_side(hyps, config, vocab)], [caption_side(flat, config, vocab)]
        del flat
        return self.stats_of_parts(hyp_parts, ref_parts, list(vocab), owner, config, context)

    def stats_of_parts(self, hyp_parts: list[Encoded], ref_parts: list[Encoded], tokens: Sequence[str],
                       owner: np.ndarray, config: Config, context: Mapping[str, Any] | None = None) -> SegmentStats:
        """:meth:`segment_stats` of captions already interned as ``tokens``, in parts of consecutive images
        (``hyp_parts[c]``: the hypotheses of a span of images, ``ref_parts[c]``: their references,
        reference k of image ``owner[k]``; one part is scored at once, more chunk by chunk). The lists
        are emptied once the rows are made (the parts are released before the rows are laid out)."""
        n_img = sum(p.n_segments for p in hyp_parts)
        hyp_lengths = np.concatenate([p.lengths for p in hyp_parts])
        if context is not None:
            df_source, label = context["df"], context["idf"]
            ngrams = df_source.ngrams
            if label == EVALUATED and ngrams is not None and ngrams.max_order not in (0, config.max_ngram_order):
                raise KnobError("the CIDEr context was computed for another max_ngram_order")
        elif config.idf_corpus is not None:
            df_source = load_idf_corpus(config.idf_corpus, config)
            label = f"idf_corpus: {df_source.source}"
        else:
            df_source, label = None, EVALUATED
            if config.no_reference_ngrams == "error" and not any(len(p.ids) for p in ref_parts):
                raise ToolBehaviourError(NO_REFERENCE_NGRAMS, "ValueError")
        if len(hyp_parts) > 1:
            scores, per_order, used = chunked_rows(hyp_parts, ref_parts, tokens, owner, config, df_source)
        else:
            scores, per_order, used = cider_rows(hyp_parts[0], ref_parts[0], tokens, owner, config, df_source)
        hyp_parts.clear()
        ref_parts.clear()
        columns = self.columns(config)
        rows = np.empty((n_img, len(columns)))      # filled in place (no stacked copy of a million rows)
        rows[:, 0] = 1.0
        rows[:, 1] = scores
        rows[:, 2:-2] = per_order
        rows[:, -2] = np.bincount(owner, minlength=n_img)
        rows[:, -1] = hyp_lengths
        return SegmentStats(columns, rows, {"df": used, "idf": label})

    # ------------------------------------------------------------------ the first pass, as a reduction
    def context_part(self, hyps: Segments, refs: Refs, config: Config, ahead: bool = False) -> CiderPart:
        """A chunk's images and the document frequencies of its references (:mod:`.context`)."""
        return context_part(hyps, refs, config, ahead)

    def merge_contexts(self, parts: Sequence[CiderPart], config: Config) -> CiderPart:
        return merge_parts(parts)

    def fold_context(self, merged: CiderPart | None, part: CiderPart, config: Config) -> CiderPart:
        """``part`` added into ``merged``'s own index (:func:`~.context.fold_parts`: one hash insertion per
        distinct n-gram of the chunk)."""
        return fold_parts(merged, [part])

    def finish_context(self, merged: CiderPart, config: Config) -> Mapping[str, Any]:
        return finish(merged, config)

    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        n = config.max_ngram_order
        total = np.array([stats.rows[:, j].sum() for j in range(len(stats.columns))])
        images = int(total[stats.columns.index("images")])
        if images == 0:
            raise InputError("no images to score")
        value = float(cider_from_sums(total, stats.columns))
        per_order = (stats.cols("cider_", n).sum(axis=0) / images).tolist() if len(stats) else [0.0] * n
        return value, {"images": images, "per_order": per_order, "idf": stats.context.get("idf", ""),
                       "n_images_idf": stats.context["df"].n_images if "df" in stats.context else images}

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> RowScores:
        """Each image's score (pycocoevalcap's per-image ``scores``: corpus document frequencies)."""
        per = stats.cols("cider_", config.max_ngram_order)
        return RowScores(cider_from_sums(stats.rows, stats.columns), partial(_image_components, per, stats.col("n_refs")))

    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """The CIDEr of each resampled corpus (document frequencies stay those of the full corpus)."""
        return cider_from_sums(sums, self.columns(config))


def _image_components(per_order: np.ndarray, n_refs: np.ndarray, i: int) -> dict[str, Any]:
    return {"per_order": per_order[i].tolist(), "n_refs": int(n_refs[i])}


FAMILY = Cider()
