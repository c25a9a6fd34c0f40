"""CIDEr's statistics stage: the score of every image, from tokens and document frequencies.

For image i with references ``r_1..r_m`` and order n, with tf-idf weights ``tf(g) * idf(g)``,
``idf(g) = log(N_images) - log(max(1, df(g)))``::

    sim_n(h, r) = sum_g min(h_g, r_g) * r_g / (|h| |r|)          (clipping; else h_g * r_g)
                  * e ** (-(len_h - len_r)^2 / (2 sigma^2))         (when sigma is set)
    sums_n(i)   = sum_j sim_n(h, r_j)
    cider(i)    = mean_n(sums_n(i)) / m * scale,     per_order_n(i) = sums_n(i) / m * scale

"length" is the number of bigrams (words - 1, 0 for an empty caption) or of words; a zero norm on
either side leaves sim_n = 0; an n-gram seen only in hypotheses gets idf log N (it adds to |h| and
never matches). The order of the floating-point operations is pycocoevalcap's (n-grams in order
of first occurrence, references in order, ``np.e ** x`` for the penalty, the mean over n before the
division by m): :mod:`assay.metrics.cider.vectors`.
"""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np

from assay.metrics.cider.idf import DocumentFrequencies, reference_frequencies
from assay.text.gram_index import GramIndex, LocalGrams
from assay.metrics.cider.vectors import cider_sums, image_df
from assay.text.ngram_codes import code_ngrams
from assay.text.ngrams import Encoded

EVALUATED = "evaluated references"


def cider_rows(hyp_side: Encoded, ref_side: Encoded, tokens: Sequence[str], owner: np.ndarray,
               config: Mapping[str, Any], df_source: DocumentFrequencies | None = None
               ) -> tuple[np.ndarray, np.ndarray, DocumentFrequencies]:
    """Per image: the score and the per-order parts; plus the document frequencies used.

    ``hyp_side``/``ref_side``: the captions interned as ``tokens`` (token of each id); reference k
    belongs to image ``owner[k]`` (image-major). ``df_source`` None: the frequencies of these
    references (the toolkit); else those of the whole corpus (chunks) or of ``idf_corpus``.
    """
    n_img = hyp_side.n_segments
    n_max = int(config["max_ngram_order"])
    owner = np.asarray(owner, dtype=np.int64)
    n_refs = np.bincount(owner, minlength=n_img).astype(np.float64)
    ids = np.concatenate([hyp_side.ids, ref_side.ids])
    offsets = np.concatenate([hyp_side.offsets,       # int64: parts keep int32 offsets of their own
                              ref_side.offsets[1:].astype(np.int64) + int(hyp_side.offsets[-1])])
    coded = code_ngrams(ids, offsets, n_max, len(tokens))
    if df_source is None:
        df = image_df(coded, offsets, n_img, owner)
        used = DocumentFrequencies(n_img, EVALUATED, LocalGrams(tokens, coded.prefix, coded.last, df).table())
    else:
        used = df_source
        df = used.frequencies(tokens, coded, n_max)
    log_n = np.log(float(used.n_images))
    idf = [log_n - np.log(np.maximum(1.0, d.astype(np.float64))) for d in df]
    penalty = length_penalties(hyp_side.lengths[owner], ref_side.lengths, config)
    ref_start = np.zeros(n_img + 1, dtype=np.int64)
    np.cumsum(n_refs.astype(np.int64), out=ref_start[1:])
    sums = cider_sums(coded, offsets, n_img, ref_start, idf, penalty, bool(config["clipping"]))
    scale = float(config["scale"])
    scores = sums.mean(axis=1) / n_refs * scale
    per_order = sums / n_refs[:, None] * scale
    return scores, per_order, used


def image_spans(n_img: int, chunk: int) -> list[tuple[int, int]]:
    """Consecutive ``(start, end)`` spans of at most ``chunk`` images covering ``n_img`` images."""
    return [(a, min(a + chunk, n_img)) for a in range(0, n_img, chunk)]


def reference_spans(owner: np.ndarray, n_img: int, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The references (image-major, reference k of image ``owner[k]``) of each span of images."""
    ref_start = np.zeros(n_img + 1, dtype=np.int64)
    np.cumsum(np.bincount(np.asarray(owner, dtype=np.int64), minlength=n_img), out=ref_start[1:])
    return [(int(ref_start[a]), int(ref_start[b])) for a, b in spans]


def chunked_rows(hyp_parts: Sequence[Encoded], ref_parts: Sequence[Encoded], tokens: Sequence[str],
                 owner: np.ndarray, config: Mapping[str, Any], df_source: DocumentFrequencies | None
                 ) -> tuple[np.ndarray, np.ndarray, DocumentFrequencies]:
    """:func:`cider_rows` of a large corpus chunk by chunk, in memory bounded by the chunk (the n-gram
    codes, 16 bytes per token, are made per chunk; the whole corpus keeps only its token ids, in the
    parts :func:`~assay.metrics.cider.tokens.caption_parts` made). ``hyp_parts[c]`` holds the
    hypotheses of a span of images, ``ref_parts[c]`` their references (reference k of image
    ``owner[k]``, corpus-wide numbering). Without ``df_source`` the evaluated references' document
    frequencies come first, chunk by chunk (:func:`~assay.metrics.cider.idf.reference_frequencies` of
    each chunk's references, added into one :class:`~assay.text.gram_index.GramIndex`: an image is in
    one chunk); every chunk's rows then read them, as :meth:`Cider.segment_stats` does
    with a context. The same rows as one :func:`cider_rows` call
    (each image's score depends on its own captions and the corpus's document frequencies only)."""
    n_img = sum(p.n_segments for p in hyp_parts)
    owner = np.asarray(owner, dtype=np.int64)
    image_start = np.cumsum([0] + [p.n_segments for p in hyp_parts]).tolist()
    ref_start = np.cumsum([0] + [p.n_segments for p in ref_parts]).tolist()

    def owner_of(c: int) -> np.ndarray:
        return owner[ref_start[c]:ref_start[c + 1]] - image_start[c]

    if df_source is None:        # the chunks' document frequencies (compact: per distinct n-gram), in one index
        index = GramIndex(int(config["max_ngram_order"]))
        for c, side in enumerate(ref_parts):
            index.add(reference_frequencies(side, tokens, owner_of(c), index.max_order))
        df_source = DocumentFrequencies(n_img, EVALUATED, index)
    scores, per_order = [], []
    for c, (hyp, ref) in enumerate(zip(hyp_parts, ref_parts)):
        got = cider_rows(hyp, ref, tokens, owner_of(c), config, df_source)
        scores.append(got[0])
        per_order.append(got[1])
    return np.concatenate(scores), np.vstack(per_order), df_source


def length_penalties(hyp_words: np.ndarray, ref_words: np.ndarray, config: Mapping[str, Any]) -> np.ndarray:
    """``e ** (-(len_h - len_r)^2 / (2 sigma^2))`` per reference (pycocoevalcap's ``np.e**``: a
    Python float power, computed once per distinct difference); 1 when sigma is none."""
    sigma = config["length_penalty_sigma"]
    if sigma is None:
        return np.ones(len(ref_words))
    if config["length_unit"] == "bigrams":
        hyp_words = np.maximum(hyp_words - 1, 0)
        ref_words = np.maximum(ref_words - 1, 0)
    delta = (hyp_words - ref_words).astype(np.int64)
    uniq, inverse = np.unique(delta, return_inverse=True)
    values = np.array([math.e ** (-(float(d) ** 2) / (2 * sigma ** 2)) for d in uniq.tolist()], dtype=np.float64)
    return values[inverse.reshape(-1)] if len(uniq) else np.zeros(0)
