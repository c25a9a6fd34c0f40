"""NIST's corpus context: information weights from the reference n-gram counts of the whole corpus.

``Info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn))`` and ``Info(w) = log2(#reference words /
count(w))``, with counts over every reference of every segment (``math.log(ratio, 2)`` of the float
ratio, as NLTK). The first pass is a reduction (``MetricFamily.context_part`` / ``merge_contexts``
/ ``finish_context``): a chunk gives its number of reference words and the counts of its reference
n-grams (:class:`~assay.metrics.nist.ngram_table.NgramTable`, integer keys, its own vocabulary);
parts merge by adding counts. The finished context, ``{"max_ngram_order": N, "weights":
NistWeights}``, is what ``segment_stats`` makes for a whole corpus, so rows of chunks computed under
it are the rows of the whole corpus (conformance/tests/accel/test_corpus_pass.py).

Memory: a part holds 16 bytes per distinct reference n-gram (an int64 key and an int64 count); the
finished context 24 (plus an information weight, float64) and the vocabulary.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from assay.core.errors import KnobError
from assay.core.family import Refs, Segments
from assay.core.gcpause import collector_paused
from assay.core.knobs import Config
from assay.metrics.nist.matches import log2_ratios, reference_counts
from assay.text.ngram_codes import code_ngrams
from assay.text.ngram_table import NgramTable, merge_tables
from assay.text.ngrams import encode
from assay.text.segments import tokenize_refs


@dataclass(frozen=True)
class NistPart:
    """The first pass over a chunk: its reference words and reference n-gram counts."""

    ref_words: int
    table: NgramTable


class NistWeights:
    """The information weight of every reference n-gram of a corpus (computed on first use)."""

    def __init__(self, ref_words: int, table: NgramTable):
        self.ref_words = int(ref_words)
        self.table = table
        self._info: list[np.ndarray] | None = None

    @property
    def info(self) -> list[np.ndarray]:
        """``info[n-1][code]`` for every n-gram of the table."""
        if self._info is None:
            values = self.table.values
            self._info = [log2_ratios(np.full(len(values[0]), self.ref_words), values[0])]
            for n in range(2, len(values) + 1):
                self._info.append(log2_ratios(self.table.prefix_values(n), values[n - 1]))
        return self._info

    def info_of(self, tokens: Sequence[str], prefix: Sequence[np.ndarray], last: Sequence[np.ndarray],
                n_codes: Sequence[int]) -> list[np.ndarray]:
        """The weight of every local code (0 where the references lack the n-gram)."""
        info = self.info
        out = []
        for n, code in enumerate(self.table.locate(tokens, prefix, last, len(n_codes))):
            weights = np.zeros(n_codes[n])
            if n < len(info) and len(info[n]):
                weights[:len(code)] = np.where(code >= 0, info[n][code], 0.0)
            out.append(weights)
        return out

    def __getstate__(self) -> dict[str, Any]:
        return {"ref_words": self.ref_words, "table": self.table}      # the weights are recomputed

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["ref_words"], state["table"])


def local_info(counts: Sequence[np.ndarray], prefix: Sequence[np.ndarray], ref_words: int) -> list[np.ndarray]:
    """Information weight of every local code from the counts of the references of the whole corpus."""
    out = [log2_ratios(np.full(len(counts[0]), ref_words), counts[0])]
    for n in range(2, len(counts) + 1):
        out.append(log2_ratios(counts[n - 2][prefix[n - 1]], counts[n - 1]))
    return out


# ----------------------------------------------------------------------------- the first pass
def context_part(hyps: Segments, refs: Refs, config: Config) -> NistPart:
    """Reference words and reference n-gram counts of one chunk."""
    vocab: dict[str, int] = {}
    with collector_paused():   # token lists are acyclic
        ref_toks = tokenize_refs(refs, config)
    sides = [encode([t or [] for t in s], vocab) for s in ref_toks]
    ids = np.concatenate([s.ids for s in sides]) if sides else np.zeros(0, np.int64)
    offsets = np.concatenate([[0], np.cumsum(np.concatenate([s.lengths for s in sides]))]) if sides else np.zeros(1)
    coded = code_ngrams(ids, offsets.astype(np.int64), config.max_ngram_order, len(vocab))
    counts = reference_counts(coded, 0)
    return NistPart(len(ids), NgramTable.from_codes(list(vocab), coded.prefix, coded.last, counts))


def merge_parts(parts: Sequence[NistPart]) -> NistPart:
    return NistPart(sum(p.ref_words for p in parts), merge_tables([p.table for p in parts]))


def finish(merged: NistPart, config: Config) -> dict[str, Any]:
    return {"max_ngram_order": config.max_ngram_order, "weights": NistWeights(merged.ref_words, merged.table)}


def context_weights(context: Mapping[str, Any], config: Config) -> NistWeights:
    """The weights of a finished context (:class:`KnobError` when made for another order)."""
    if context.get("max_ngram_order") != config.max_ngram_order or "weights" not in context:
        raise KnobError("the NIST context was computed for another max_ngram_order")
    return context["weights"]

