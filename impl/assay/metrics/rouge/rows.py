"""ROUGE statistics: one row per document, from the counts of each (hypothesis, reference) pair.

Per document and measure the row holds the counts after combining the references (``hits``,
``ref``, ``peer``) and the document's own P, R, F (:func:`assay.metrics.rouge.combine.combine_pairs`);
the first column counts documents (1 per row). The corpus value is a function of the summed rows
(:mod:`assay.metrics.rouge.score`).

Counts come from one of four paths, all giving the same numbers:

- with the compiled twins built (:data:`assay.metrics.rouge.measures.COMPILED`), every
  configuration: the texts go to token stores in bulk (:class:`~assay.metrics.rouge.documents.Encoder`)
  and every pair's counts come from the compiled :class:`~assay.metrics.rouge.measures.PairBatch`
  (:func:`_compiled_batch`); otherwise (the pure path):

- per pair (:func:`_counts`, few pairs) or all pairs at once (:class:`~assay.metrics.rouge.measures.PairBatch`,
  from ``BATCH_MIN_PAIRS`` pairs on) over :class:`~assay.metrics.rouge.documents.Doc` objects;
- documents that are one token sequence as tokenised (sentence_split none, no truncation, stop
  words or stemming, :func:`_flat_config`) skip the per-document objects: tokens go to the batch
  store in bulk (:func:`_flat_batch`), and plain ROUGE-L of short texts (captions) runs the
  bit-parallel LCS per pair on the token strings (:func:`_short_lcs`).

On the compiled path the token stores of a corpus are kept (:mod:`assay.core.corpus_cache`, keyed on
the text knobs) with each measure's six columns (keyed on the knobs that measure reads,
:func:`_measure_key`): the coalitions of a Shapley attribution re-count nothing they share. ROUGE-N on
n-gram sets is vectorised over a batch's n-gram table (:func:`_set_counts_batch`; the specification,
Python sets per document, is :func:`set_counts_spec`).

Empty documents (no tokens on a side) score 0, as in both tools (ROUGE-1.5.5 warns on stderr);
``empty_document=error`` rejects them instead. A document without any reference is an error.
"""
from __future__ import annotations

from itertools import chain
from typing import Any, Iterable, Sequence

import numpy as np

from assay.core import corpus_cache
from assay.core.errors import InputError
from assay.core.items import only_strings
from assay.core.family import Refs, Segments
from assay.core.knobs import Config
from assay.core.stats import SegmentStats
from assay.metrics.rouge.combine import combine_pairs
from assay.metrics.rouge.documents import Corpus, Doc, Encoder
from assay.metrics.rouge.knobs import type_spec
from assay.metrics.rouge.space_lcs import space_lcs, space_lcs_py
from assay.metrics.rouge.measures import (COMPILED, PairBatch, Store, _ranges, clipped_hits, lcs_counts,
                                         union_lcs_hits, wlcs_counts, wlcs_length_sum)
from assay.metrics.rouge.word_union import store_counts

COUNT_FIELDS = ("hits", "ref", "peer")
SCORE_FIELDS = ("p", "r", "f")
WIDTH = len(COUNT_FIELDS) + len(SCORE_FIELDS)
# From this many (hypothesis, reference) pairs on, the counts come from the vectorised PairBatch
# (numpy over all pairs at once); below it the per-pair functions are faster. Both give the same
# numbers (golden cases of 10+ documents run the batch, smaller ones the per-pair code).
BATCH_MIN_PAIRS = 8
SHORT_LCS_TOKENS = 128


def columns(types: Sequence[str]) -> tuple[str, ...]:
    """``docs``, then per measure ``<type>:hits``, ``:ref``, ``:peer``, ``:p``, ``:r``, ``:f``."""
    cols = ["docs"]
    for t in types:
        cols += [f"{t}:{k}" for k in COUNT_FIELDS + SCORE_FIELDS]
    return tuple(cols)


def base_column(t_index: int) -> int:
    """The column of measure ``t_index``'s hits (its counts, then P, R, F follow)."""
    return 1 + WIDTH * t_index


def _check_strings(hyps: Segments, refs: Refs) -> None:
    if only_strings(hyps) and all(only_strings(stream, none_ok=True) for stream in refs):
        return     # the common case, checked at C speed; else find the first offender
    for i, h in enumerate(hyps):
        if not isinstance(h, str):
            raise InputError(f"document {i + 1}: ROUGE takes each document as a string (sentences separated "
                             f"per sentence_split), got {type(h).__name__}")
    for k, stream in enumerate(refs):
        for i, r in enumerate(stream):
            if r is not None and not isinstance(r, str):
                raise InputError(f"reference stream {k + 1}, document {i + 1}: expected a string, got "
                                 f"{type(r).__name__}")


def segment_rows(hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
    """One row per document (module docstring)."""
    _check_strings(hyps, refs)
    text_key = _text_key(config) if COMPILED and len(hyps) else None
    cached = corpus_cache.get(text_key, hyps, refs) if text_key is not None else None
    # kept token stores were made under these very text knobs: their Corpus (which checks the knobs
    # and reads the stop-word and exception lists) is not made again
    corpus = Corpus(config) if cached is None else None
    specs = [(t, type_spec(t)) for t in config.types]
    cols = columns(config.types)
    rows = np.zeros((len(hyps), len(cols)), dtype=np.float64)
    rows[:, 0] = 1.0
    if not len(hyps):
        return SegmentStats(cols, rows)
    docs: list[Doc] = []
    pair_h: list[int] = []
    pair_r: list[int] = []
    short = _space_captions(hyps, refs, config, specs)
    memo: _Memo | None = None
    if short is not None:      # pycocoevalcap's Rouge on captions: the LCS on split(" ") tokens, no stores
        batch, ph, pr, n_refs_arr = None, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), short[3]
    elif COMPILED:
        if cached is None:
            assert corpus is not None and text_key is not None
            batch, ph, pr, n_refs_arr = _compiled_batch(hyps, refs, corpus)
            memo = _Memo()
            corpus_cache.put(text_key, hyps, refs, (batch.flat.tokens, ph, pr, (batch, ph, pr, n_refs_arr, memo)))
        else:
            batch, ph, pr, n_refs_arr, memo = cached[-1]
    else:
        assert corpus is not None
        short, batch, ph, pr, n_refs_arr = _pure_inputs(hyps, refs, corpus, specs, docs, pair_h, pair_r)
    several = bool((n_refs_arr > 1).any())
    for t_index, (_, (kind, arg)) in enumerate(specs):
        key = _measure_key(kind, arg, config) if memo is not None else None
        got = memo.get(key) if memo is not None else None
        if got is None:
            got = _measure_columns(kind, arg, config, batch, ph, pr, n_refs_arr, several, short, docs, pair_h, pair_r)
            if memo is not None:
                _remember(memo, key, got)
        base = base_column(t_index)
        for k in range(6):
            rows[:, base + k] = got[k]
    return SegmentStats(cols, rows)


#: the most numbers the per-measure columns of one corpus's token stores hold (oldest dropped first)
MEMO_NUMBERS = 2_000_000


#: the knobs every measure's P, R, F and reference combination read (:func:`_measure_key`)
_COMBINE_KNOBS = ("multi_ref", "alpha", "f_from_rounded_pr", "beta", "f_epsilon")


def _measure_key(kind: str, arg: Any, config: Config) -> tuple[Any, ...]:
    """Everything beyond the token stores that one measure's six columns depend on (the knobs
    :func:`_measure_columns` reads for this kind): equal keys, equal columns."""
    counts: tuple[Any, ...]
    if kind == "n":
        counts = (config.ngram_counts,)
    elif kind == "Lsum":
        counts = (config.lcs_union, config.ngram_counts if config.lcs_union == "words" else None)
    elif kind == "W":
        counts = (config.w_weight,)
    elif kind == "SU":
        counts = (config.su_last_unigram,)
    else:
        counts = ()
    return (kind, repr(arg), *map(repr, counts), *map(repr, map(config.__getitem__, _COMBINE_KNOBS)))


class _Memo(dict):
    """Measure key -> six columns, for one corpus's token stores; ``numbers``: how many they hold."""

    numbers = 0


def _remember(memo: _Memo, key: Any, columns: tuple[np.ndarray, ...]) -> None:
    """Keep ``columns`` under ``key``, dropping the oldest entries beyond :data:`MEMO_NUMBERS` numbers."""
    memo[key] = columns
    memo.numbers += sum(int(np.size(c)) for c in columns)
    while memo.numbers > MEMO_NUMBERS and len(memo) > 1:
        memo.numbers -= sum(int(np.size(c)) for c in memo.pop(next(iter(memo))))


def _measure_columns(kind: str, arg: Any, config: Config, batch: PairBatch | None, ph: np.ndarray,
                     pr: np.ndarray, n_refs_arr: np.ndarray, several: bool, short: Any, docs: list[Doc],
                     pair_h: list[int], pair_r: list[int]) -> tuple[np.ndarray, ...]:
    """One measure's six columns (hits, ref, peer; P, R, F) of every document: its counts per pair,
    then the references combined (:func:`~assay.metrics.rouge.combine.combine_pairs`)."""
    weight = config.w_weight
    if kind == "n" and config.ngram_counts == "set":
        hits, ref_count, peer_count = _set_counts(arg, batch, docs, pair_h, pair_r)
    elif kind == "Lsum" and config.lcs_union == "words":
        hits, ref_count, peer_count = _word_union(batch, docs, pair_h, pair_r, config.ngram_counts == "set")
    elif short is not None:
        hits, ref_count, peer_count = short[:3]
    elif batch is not None:
        hits, ref_count, peer_count = _batch_counts(batch, kind, arg, ph, pr, weight, config.su_last_unigram)
    else:
        per_pair = np.array([_counts(kind, arg, docs[h], docs[r], weight, config.su_last_unigram)
                             for h, r in zip(pair_h, pair_r)], dtype=np.float64).reshape(-1, 3)
        hits, ref_count, peer_count = per_pair[:, 0], per_pair[:, 1], per_pair[:, 2]
    w = weight if kind == "W" else None
    keys = None
    if w is not None and several and config.multi_ref == "best-recall":
        # ROUGE-1.5.5 -f B picks ROUGE-W's reference by hits / sum_i f(|ref_i|) (before the second f)
        ref_sums = _wlcs_ref_sums(batch.lcs_store, w)[pr] if batch is not None else \
            np.array([wlcs_length_sum(map(len, docs[r].lcs_side), w) for r in pr.tolist()], dtype=np.float64)
        keys = np.divide(hits, ref_sums, out=np.zeros_like(hits), where=ref_count > 0)
    counts, prf = combine_pairs(hits, ref_count, peer_count, n_refs_arr, config.multi_ref, w, config.alpha,
                                config.f_from_rounded_pr, config.beta, keys, config.f_epsilon)
    return (*counts, *prf)


#: the knobs a document's token store depends on (:class:`Corpus`, :class:`Encoder`): the rest only
#: change how the counts are made and combined, so the store is reused across them (corpus_cache)
_TEXT_KNOBS = ("tokenizer", "stemmer", "stopwords", "stem_min_length", "exceptions_path", "stopwords_path",
               "lowercase", "sentence_split", "sentence_marker", "length_limit_words", "length_limit_bytes",
               "byte_limit_lcs", "empty_document")


def _text_key(config: Config) -> tuple[Any, ...]:
    """The :mod:`assay.core.corpus_cache` key of a corpus's token stores under ``config`` (the LCS
    reader of ``-b`` also depends on whether an Lsum or W measure is asked for)."""
    reader = any(type_spec(t)[0] in ("Lsum", "W") for t in config.types)
    return ("rouge-documents", reader, *map(repr, map(config.__getitem__, _TEXT_KNOBS)))


def _set_counts(n: int, batch: PairBatch | None, docs: list[Doc], pair_h: list[int], pair_r: list[int]
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROUGE-N on n-gram *sets* (``ngram_counts=set``): per pair ``|set(hyp) & set(ref)|`` and the
    numbers of distinct reference and hypothesis n-grams. With a batch (whichever path built it),
    vectorised over its store's n-gram table (:func:`_set_counts_batch`); else the specification,
    Python sets over the :class:`Doc` objects' token ids (:func:`set_counts_spec`). Both give the
    same numbers (an equality property in the ROUGE tests)."""
    if batch is not None:
        return _set_counts_batch(n, batch)
    return set_counts_spec(n, [list(d.flat) for d in docs], zip(pair_h, pair_r))


def set_counts_spec(n: int, seqs: Sequence[Sequence[int]], pairs: Iterable[tuple[int, int]]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The specification of :func:`_set_counts`: per pair (h, r) of documents (token id sequences
    ``seqs``), ``len(G(h) & G(r))``, ``len(G(r))``, ``len(G(h))`` with ``G(d)`` the set of n-gram
    tuples of document d."""
    cache: dict[int, set[tuple[int, ...]]] = {}

    def grams(d: int) -> set[tuple[int, ...]]:
        got = cache.get(d)
        if got is None:
            s = seqs[d]
            got = cache[d] = {tuple(s[i:i + n]) for i in range(len(s) - n + 1)}
        return got
    out = [(len(grams(h) & grams(r)), len(grams(r)), len(grams(h))) for h, r in pairs]
    counts = np.array(out, dtype=np.float64).reshape(-1, 3)
    return counts[:, 0], counts[:, 1], counts[:, 2]


def _set_counts_batch(n: int, batch: PairBatch) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`set_counts_spec` of every pair of ``batch`` at once, from its table of n-gram counts per
    document (:class:`~assay.metrics.rouge.measures.ItemTable`, sorted ``doc * base + gram`` keys):
    the distinct n-grams of a document are its keys; a hit is a key of the hypothesis whose gram the
    reference also holds."""
    table = batch.table(("n", n))
    ph, pr = batch.pair_h, batch.pair_r
    distinct = (table.hi - table.lo).astype(np.float64)
    entry, owner = _ranges(table.lo[ph], table.hi[ph])
    gram = table.keys[entry] - ph[owner] * table.base
    shared = table.lookup(pr[owner], gram) > 0
    hits = np.bincount(owner, weights=shared, minlength=len(ph)).astype(np.float64)
    return hits, distinct[pr], distinct[ph]


def _word_union(batch: PairBatch | None, docs: list[Doc], pair_h: list[int], pair_r: list[int], sets: bool
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """rougeLsum under ``lcs_union=words`` (:mod:`assay.metrics.rouge.word_union`) of every pair, on
    the sentences the LCS measures read: the batch's LCS store, or one built from the :class:`Doc`
    objects of the per-pair path."""
    if batch is not None:
        return store_counts(batch.lcs_store, batch.pair_h, batch.pair_r, sets)
    return store_counts(Store([d.lcs_side for d in docs]), np.array(pair_h, dtype=np.int64),
                        np.array(pair_r, dtype=np.int64), sets)


def _pure_inputs(hyps: Segments, refs: Refs, corpus: Corpus, specs: Sequence[tuple[str, tuple[str, Any]]],
                 docs: list[Doc], pair_h: list[int], pair_r: list[int]) -> tuple[Any, ...]:
    """The pure path's inputs: ``(short, batch, pair_h, pair_r, references per document)``, one of
    ``short`` (:func:`_short_lcs`), ``batch`` (:class:`PairBatch`) or neither (the per-pair
    functions over ``docs``, filled with the :class:`Doc` objects, and ``pair_h``/``pair_r``)."""
    config = corpus.config
    flat_config = _flat_config(config, specs)
    short = _short_lcs(hyps, refs, corpus) if flat_config and [k for _, (k, _) in specs] == ["L"] else None
    if short is not None:
        return short, None, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), short[3]
    fast = _flat_batch(hyps, refs, corpus, specs) if flat_config else None
    if fast is not None:
        return (None, *fast)
    # tokenise every distinct text once (hypotheses and references share the cache)
    doc_ids: dict[str, int] = {}

    def doc_id(raw: str) -> int:
        got = doc_ids.get(raw)
        if got is None:
            got = doc_ids[raw] = len(docs)
            docs.append(corpus.document(raw))
        return got

    n_refs: list[int] = []
    for i, raw in enumerate(hyps):
        h = doc_id(raw)
        present = [stream[i] for stream in refs if stream[i] is not None]
        if not present:
            raise InputError(f"document {i + 1} has no reference")
        ids = [doc_id(r) for r in present]
        if config.empty_document == "error":
            _check_empty(i, docs[h], [docs[k] for k in ids])
        pair_h += [h] * len(ids)
        pair_r += ids
        n_refs.append(len(ids))
    ph = np.array(pair_h, dtype=np.int64)
    pr = np.array(pair_r, dtype=np.int64)
    batch = PairBatch([d.flat for d in docs], [d.lcs_side for d in docs], ph, pr, len(corpus.vocab)) \
        if len(pair_h) >= BATCH_MIN_PAIRS else None
    return None, batch, ph, pr, np.array(n_refs, dtype=np.int64)


def _flat_config(config: Config, specs: Sequence[tuple[str, tuple[str, Any]]]) -> bool:
    """True when every document is one token sequence as tokenised (no sentences, truncation,
    stop words or stemming; no ROUGE-W, whose normaliser reads sentences): :func:`_flat_batch` applies."""
    return (config.sentence_split == "none" and config.length_limit_words is None
            and config.length_limit_bytes is None and config.stemmer == "none" and config.stopwords == "none"
            and config.empty_document == "zero" and all(kind != "W" for _, (kind, _) in specs))


def _space_captions(hyps: Segments, refs: Refs, config: Config, specs: Sequence[tuple[str, tuple[str, Any]]]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`_short_lcs` for ROUGE-L alone on ``split(" ")`` tokens (the ``rouge/coco`` profile) on every
    path: :func:`assay.metrics.rouge.space_lcs.space_lcs` (a compiled twin) is faster there than the
    token stores. None for any other configuration, or when a text is long."""
    if not (config.tokenizer == "space" and not config.lowercase and _flat_config(config, specs)
            and [k for _, (k, _) in specs] == ["L"]):
        return None
    return space_lcs(hyps, refs, SHORT_LCS_TOKENS)


def _short_lcs(hyps: Segments, refs: Refs, corpus: Corpus
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """ROUGE-L counts (hits, |ref|, |hyp|) of every pair, and references per document, for a
    :func:`_flat_config` corpus of short texts (captions): the bit-parallel LCS of each pair on the
    token strings themselves (no interning). None as soon as a
    reference has more than ``SHORT_LCS_TOKENS`` tokens (the batched path is faster there)."""
    tokenize, lower = corpus.pipeline._tokenize, corpus.pipeline.lowercase
    if corpus.pipeline.tokenizer == "space" and not lower:      # str.split(" ") (a compiled twin)
        return space_lcs(hyps, refs, SHORT_LCS_TOKENS)
    return space_lcs_py(hyps, refs, SHORT_LCS_TOKENS, lambda text: tokenize(text, lower))


def _flat_batch(hyps: Segments, refs: Refs, corpus: Corpus, specs: Sequence[Any]
                ) -> tuple[PairBatch, np.ndarray, np.ndarray, np.ndarray] | None:
    """(batch, pair_h, pair_r, references per document) built in bulk for a :func:`_flat_config`
    configuration: each distinct text tokenised once, token ids from one vocabulary, the token
    store built directly (no per-document objects). The same pairs, in the same order, as the
    general path. None when there are too few pairs for the batch (the general path then runs).
    """
    n = len(hyps)
    width = len(refs)
    present = np.array([[r is not None for r in stream] for stream in refs], dtype=bool).reshape(width, n)
    n_refs = present.sum(axis=0).astype(np.int64)
    if (n_refs == 0).any():
        raise InputError(f"document {int(np.flatnonzero(n_refs == 0)[0]) + 1} has no reference")
    if int(n_refs.sum()) < BATCH_MIN_PAIRS:
        return None
    index: dict[str, int] = {}
    setdefault = index.setdefault
    h_ids = [setdefault(h, len(index)) for h in hyps]
    r_ids = np.array([[setdefault(r, len(index)) if r is not None else -1 for r in stream] for stream in refs],
                     dtype=np.int64).reshape(width, n)
    tokenize, lower = corpus.pipeline._tokenize, corpus.pipeline.lowercase
    toks = [tokenize(t, lower) for t in index]
    vocab = {t: k for k, t in enumerate(dict.fromkeys(chain.from_iterable(toks)))}
    lengths = np.fromiter(map(len, toks), dtype=np.int64, count=len(toks))
    ids = np.fromiter(map(vocab.__getitem__, chain.from_iterable(toks)), dtype=np.int64, count=int(lengths.sum()))
    store = Store.from_flat(ids, lengths)
    mat = r_ids.T                                      # document-major: pairs of document i, streams in order
    pr = mat[present.T]
    ph = np.repeat(np.array(h_ids, dtype=np.int64), n_refs)
    return PairBatch(store, store, ph, pr, len(vocab)), ph, pr, n_refs


def _compiled_batch(hyps: Segments, refs: Refs, corpus: Corpus
                    ) -> tuple[PairBatch, np.ndarray, np.ndarray, np.ndarray]:
    """(batch, pair_h, pair_r, references per document) for the compiled path: every distinct
    text encoded once into token stores (:class:`Encoder`), the same pairs in the same order as
    the per-document loop of :func:`segment_rows`.

    The pairs are indexed in bulk; when anything is wrong (a text that cannot be split, a document
    without reference, an empty side under ``empty_document=error``), :func:`_ordered_pairs` redoes
    it document by document to raise the error the per-document loop raises first."""
    n, width = len(hyps), len(refs)
    # texts numbered in the order the per-document loop meets them: hypothesis i, then its references
    texts = list(chain.from_iterable(zip(hyps, *refs)))
    first_seen = dict.fromkeys(texts)
    first_seen.pop(None, None)
    index = dict(zip(first_seen, range(len(first_seen))))
    index[None] = -1      # type: ignore[index]   # a missing reference
    table = np.fromiter(map(index.__getitem__, texts), dtype=np.int64, count=len(texts)).reshape(n, 1 + width)
    present = table[:, 1:] >= 0
    n_refs = present.sum(axis=1)
    if not width or not n_refs.all():
        return _ordered_pairs(hyps, refs, corpus)
    enc = Encoder(corpus)
    try:
        enc.add_all(list(first_seen))
    except InputError:
        return _ordered_pairs(hyps, refs, corpus)
    flat, lcs, vocab = enc.encode()
    ph = np.repeat(table[:, 0], n_refs)
    pr = table[:, 1:][present]
    if corpus.config.empty_document == "error" and not flat.doc_len[np.concatenate([ph, pr])].all():
        return _ordered_pairs(hyps, refs, corpus)
    return PairBatch(flat, lcs, ph, pr, vocab), ph, pr, n_refs.astype(np.int64)


def _ordered_pairs(hyps: Segments, refs: Refs, corpus: Corpus
                   ) -> tuple[PairBatch, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_compiled_batch` document by document, raising the errors in the per-document
    loop's order (a text that cannot be split, a document without reference, then
    ``empty_document=error``, each document in turn)."""
    enc = Encoder(corpus)
    pair_h: list[int] = []
    pair_r: list[int] = []
    n_refs: list[int] = []
    check = corpus.config.empty_document == "error"
    try:
        for i, raw in enumerate(hyps):
            h = enc.add(raw)
            present = [stream[i] for stream in refs if stream[i] is not None]
            if not present:
                raise InputError(f"document {i + 1} has no reference")
            ids = [enc.add(r) for r in present]
            pair_h += [h] * len(ids)
            pair_r += ids
            n_refs.append(len(ids))
    except InputError:
        if check:   # the per-document loop would have checked the earlier documents first
            flat, _, _ = enc.encode()
            _check_empty_rows(flat.doc_len, pair_h, pair_r, n_refs)
        raise
    flat, lcs, vocab = enc.encode()
    if check:
        _check_empty_rows(flat.doc_len, pair_h, pair_r, n_refs)
    ph = np.array(pair_h, dtype=np.int64)
    pr = np.array(pair_r, dtype=np.int64)
    return PairBatch(flat, lcs, ph, pr, vocab), ph, pr, np.array(n_refs, dtype=np.int64)


def _check_empty_rows(doc_len: np.ndarray, pair_h: Sequence[int], pair_r: Sequence[int],
                      n_refs: Sequence[int]) -> None:
    """:func:`_check_empty` of each document in turn, from the documents' token counts."""
    k = 0
    for i, count in enumerate(n_refs):
        if not doc_len[pair_h[k]]:
            raise InputError(f"document {i + 1}: the hypothesis has no tokens (empty_document=error)")
        for j in range(count):
            if not doc_len[pair_r[k + j]]:
                raise InputError(f"document {i + 1}: reference {j + 1} has no tokens (empty_document=error)")
        k += count


def _wlcs_ref_sums(store: Store, weight: float) -> np.ndarray:
    """sum_i f(|sentence_i|) of every document of ``store`` (ROUGE-W's reference length before f)."""
    return np.array([wlcs_length_sum(lengths, weight) for lengths in store.doc_segment_lengths()], dtype=np.float64)


def _check_empty(i: int, hyp: Doc, refs: Sequence[Doc]) -> None:
    if not hyp.flat:
        raise InputError(f"document {i + 1}: the hypothesis has no tokens (empty_document=error)")
    for k, r in enumerate(refs):
        if not r.flat:
            raise InputError(f"document {i + 1}: reference {k + 1} has no tokens (empty_document=error)")


def _batch_counts(batch: PairBatch, kind: str, arg: Any, ph: np.ndarray, pr: np.ndarray,
                  weight: float, su: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hits, ref_count, peer_count) arrays of one measure for every (hypothesis, reference) pair
    (the same numbers as :func:`_counts`, computed for all pairs at once)."""
    if kind == "n":
        out = batch.ngrams(arg)
    elif kind in ("S", "SU"):
        out = batch.skip_bigrams(arg, su if kind == "SU" else None)
    elif kind == "L":
        out = batch.lcs()
    elif kind == "Lsum":
        out = batch.union_lcs()
    else:
        hits = batch.union_wlcs(weight)
        ref_norm = np.array([x ** weight for x in _wlcs_ref_sums(batch.lcs_store, weight).tolist()])
        peer_norm = np.array([float(n) ** weight for n in batch.flat.doc_len.tolist()])
        out = (hits, ref_norm[pr], peer_norm[ph])
    return tuple(np.asarray(x, dtype=np.float64) for x in out)  # type: ignore[return-value]


def _counts(kind: str, arg: Any, hyp: Doc, ref: Doc, weight: float, su: str) -> tuple[float, float, float]:
    """(hits, ref_count, peer_count) of one measure for one reference."""
    if kind == "n":
        h, r = hyp.grams(("n", arg)), ref.grams(("n", arg))
        return clipped_hits(h, r), max(len(ref.flat) - arg + 1, 0), max(len(hyp.flat) - arg + 1, 0)
    if kind in ("S", "SU"):
        key = ("s", arg, su if kind == "SU" else None)
        h, r = hyp.grams(key), ref.grams(key)
        return clipped_hits(h, r), sum(r.values()), sum(h.values())
    if kind == "L":
        return lcs_counts(hyp.flat, ref.flat)
    hyp_lcs, ref_lcs = hyp.lcs_side, ref.lcs_side
    if kind == "Lsum":
        hits = union_lcs_hits(hyp_lcs, ref_lcs, hyp.counts, ref.counts, ref.masks)
        return hits, sum(len(s) for s in ref_lcs), len(hyp.flat)
    hits, ref_norm, _ = wlcs_counts(hyp_lcs, ref_lcs, hyp.counts, ref.counts, weight)
    return hits, ref_norm, float(len(hyp.flat)) ** weight   # P: the truncated hypothesis (as Lsum)
