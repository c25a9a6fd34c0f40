"""NIST's corpus context: information weights from the reference n-gram counts of the whole corpus.

``Info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn))`` and ``Info(w) = log2(#reference words /
count(w))``, with counts over every reference of every segment (``math.log(ratio, 2)`` of the float
ratio, as NLTK). The first pass is a reduction (``MetricFamily.context_part`` / ``merge_contexts``
/ ``finish_context``): a chunk gives its number of reference words and the counts of its reference
n-grams (:class:`~assay.metrics.nist.ngram_table.NgramTable`, integer keys, its own vocabulary);
parts merge by adding counts. The finished context, ``{"max_ngram_order": N, "weights":
NistWeights}``, is what ``segment_stats`` makes for a whole corpus, so rows of chunks computed under
it are the rows of the whole corpus (conformance/tests/accel/test_corpus_pass.py).

On the compiled path a chunk's part is a ``_matches_c.RefCounts``: the chunk's tokens counted in one
pass into hash tables keyed by integers (the pair (prefix code, last token id) of each n-gram; one
dict from token to id), which parts merge into by remapping ids and codes (never re-sorting), and
which a finished context looks codes up in directly. Its :class:`NgramTable` (sorted keys, what a
part or context pickles as, and the pure path's form) is made only when asked for.

Memory: a part's table holds 16 bytes per distinct reference n-gram (an int64 key and an int64
count); the compiled counts about 48 (a 16-byte hash slot at load <= 1/2, prefix, last id and count)
and the vocabulary; the finished context adds 8 (an information weight, float64).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from assay.core.errors import KnobError
from assay.core.family import Refs, Segments
from assay.core.gcpause import collector_paused
from assay.core.knobs import Config
from assay.metrics.nist.matches import (ContextLookup, counts_lookup, log2_ratios, new_counts, reference_counts,
                                        table_lookup)
from assay.text.ngram_codes import code_ngrams
from assay.text.ngram_table import NgramTable, merge_tables
from assay.text.ngrams import encode
from assay.text.segments import tokenize_refs


Item = Any   # an NgramTable, or (compiled path) a _matches_c.RefCounts


class NistPart:
    """The first pass over chunks: their reference words and reference n-gram counts.

    A merge keeps the parts' items (tables, or compiled counts) side by side and merges only items
    of similar size (the last two while the older is at most twice the newer's size, like a binary
    counter), so folding k chunks one by one costs O(n log k) instead of re-merging the whole
    accumulated table k times, with at most log2(k) items held; :attr:`table` is their one merged
    :class:`NgramTable` (made when first read). Items are never changed once in a part: a merge of
    compiled counts adds into a copy."""

    def __init__(self, ref_words: int, items: Sequence[Item]):
        self.ref_words = int(ref_words)
        self._items = tuple(items)
        self._table: NgramTable | None = None

    @property
    def items(self) -> tuple[Item, ...]:
        return self._items

    @property
    def table(self) -> NgramTable:
        if self._table is None:
            self._table = merge_tables([_as_table(i) for i in self._items])
        return self._table

    def counts(self) -> Item | None:
        """The one compiled counts of every item (merged into a copy if several); None when an item is
        a table (the pure path, or an unpickled part)."""
        if not self._items or not all(_is_counts(i) for i in self._items):
            return None
        items = sorted(self._items, key=len, reverse=True)
        if len(items) == 1:
            return items[0]
        out = items[0].copy()
        for other in items[1:]:
            out.merge(other)
        self._items = (out,)
        return out

    def __getstate__(self) -> dict[str, Any]:
        return {"ref_words": self.ref_words, "table": self.table}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["ref_words"], [state["table"]])


class NistWeights:
    """The information weight of every reference n-gram of a corpus (computed on first use), from
    a table, or (compiled path) from the counts of the first pass, whose table is made when read."""

    def __init__(self, ref_words: int, table: NgramTable | None = None, counts: Item | None = None):
        self.ref_words = int(ref_words)
        self._table = table
        self._counts = counts
        self._info: list[np.ndarray] | None = None
        self._lookup: ContextLookup | None = None

    @property
    def table(self) -> NgramTable:
        if self._table is None:
            self._table = _as_table(self._counts)
        return self._table

    @property
    def info(self) -> list[np.ndarray]:
        """``info[n-1][code]`` for every n-gram of the table."""
        if self._info is None:
            values = self.table.values
            self._info = [log2_ratios(np.full(len(values[0]), self.ref_words), values[0])]
            for n in range(2, len(values) + 1):
                self._info.append(log2_ratios(self.table.prefix_values(n), values[n - 1]))
        return self._info

    def lookup(self, max_order: int) -> ContextLookup | None:
        """The weights as the compiled path reads them (built on first use; None: the pure path)."""
        if self._lookup is None:
            if self._counts is not None:
                self._lookup = counts_lookup(self._counts, self.ref_words, max_order)
            else:
                table = self.table
                self._lookup = table_lookup(table.vocab, table.keys, self.info, max_order, self.ref_words)
        return self._lookup

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
    with collector_paused():   # token lists are acyclic
        ref_toks = tokenize_refs(refs, config)
    counts = new_counts(config.max_ngram_order)
    if counts is not None:      # compiled: counted in one pass, no sort
        for stream in ref_toks:
            counts.add(stream)
        return NistPart(counts.ref_words, [counts])
    vocab: dict[str, int] = {}
    sides = [encode([t or [] for t in s], vocab) for s in ref_toks]
    ids = np.concatenate([s.ids for s in sides]) if sides else np.zeros(0, np.int64)
    offsets = np.concatenate([[0], np.cumsum(np.concatenate([s.lengths for s in sides]))]) if sides else np.zeros(1)
    coded = code_ngrams(ids, offsets.astype(np.int64), config.max_ngram_order, len(vocab))
    counts = reference_counts(coded, 0)
    return NistPart(len(ids), [NgramTable.from_codes(list(vocab), coded.prefix, coded.last, counts)])


def own_weights(ref_toks: Sequence[Sequence[Sequence[str] | None]], max_order: int) -> NistWeights | None:
    """The weights of these reference streams alone, from compiled counts (None on the pure path)."""
    counts = new_counts(max_order)
    if counts is None:
        return None
    for stream in ref_toks:
        counts.add(stream)
    return NistWeights(counts.ref_words, counts=counts)


def merge_parts(parts: Sequence[NistPart]) -> NistPart:
    """The parts' words added and their items kept in a list, the last two merged while the older
    is at most twice the newer's size (:class:`NistPart`)."""
    items: list[Item] = []
    for part in parts:
        for item in part.items:
            items.append(item)
            while len(items) > 1 and len(items[-2]) <= 2 * len(items[-1]):
                items[-2:] = [_merge_two(items[-2], items[-1])]
    return NistPart(sum(p.ref_words for p in parts), items)


def finish(merged: NistPart, config: Config) -> dict[str, Any]:
    counts = merged.counts()
    weights = (NistWeights(merged.ref_words, counts=counts) if counts is not None
               else NistWeights(merged.ref_words, merged.table))
    return {"max_ngram_order": config.max_ngram_order, "weights": weights}


def context_weights(context: Mapping[str, Any], config: Config) -> NistWeights:
    """The weights of a finished context (:class:`KnobError` when made for another order)."""
    if context.get("max_ngram_order") != config.max_ngram_order or "weights" not in context:
        raise KnobError("the NIST context was computed for another max_ngram_order")
    return context["weights"]


def _is_counts(item: Item) -> bool:
    return not isinstance(item, NgramTable)


def _as_table(item: Item) -> NgramTable:
    if not _is_counts(item):
        return item
    prefix, last, counts = item.arrays()
    return NgramTable.from_codes(item.tokens, prefix, last, counts)


def _merge_two(older: Item, newer: Item) -> Item:
    """One item of two: compiled counts added into a copy of the larger, else the tables merged."""
    if _is_counts(older) and _is_counts(newer):
        big, small = (older, newer) if len(older) >= len(newer) else (newer, older)
        out = big.copy()
        out.merge(small)
        return out
    return merge_tables([_as_table(older), _as_table(newer)])
