"""Raw documents -> token-id documents under one configuration (the text stage of ROUGE).

A document is split into sentences (``sentence_split``), cut by ROUGE-1.5.5's ``-l``/``-b``
(``length_limit_words``/``length_limit_bytes``), tokenised, stop-word filtered and stemmed
(:class:`assay.metrics.rouge.text.TextPipeline`); tokens are interned per corpus as small ints.
Under ``-b`` ROUGE-1.5.5's ROUGE-L/W reader sees different sentences (research R17,
:func:`assay.metrics.rouge.text.truncate_lcs`): a :class:`Doc` keeps those as ``lcs_sents``.

:class:`Encoder` is the bulk form for the compiled path: documents go straight to token stores
(:class:`~assay.metrics.rouge.measures.Store`), no per-document objects; with the ``rouge155``,
``rouge-score`` and ``space`` tokenisers the compiled interner (:mod:`assay.metrics.rouge._text_c`)
scans the sentences into ids, and stop words and stems are applied once per distinct token. The ids are
those :meth:`Corpus.document` gives (first-seen order of the final tokens), so the stores equal
``Store([d.flat ...])`` / ``Store([d.lcs_side ...])`` of the :class:`Doc` objects.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

import numpy as np

from assay.core import accel
from assay.core.knobs import Config
from assay.metrics.rouge.knobs import type_spec
from assay.metrics.rouge.lcs import match_masks
from assay.metrics.rouge.measures import Store, flat, ngram_counts, skip_bigram_counts
from assay.metrics.rouge.text import TextPipeline, split_sentences, truncate, truncate_lcs

try:
    from assay.metrics.rouge import _text_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)


class Doc:
    """A tokenised document: sentences of ids, the flat sequence, n-gram counts (cached)."""

    __slots__ = ("sents", "lcs_sents", "_flat", "_ngrams", "_masks")

    def __init__(self, sents: list[list[int]], lcs_sents: list[list[int]] | None = None):
        self.sents = sents
        self.lcs_sents = lcs_sents
        self._flat: list[int] | None = None
        self._ngrams: dict[Any, Counter] = {}
        self._masks: list[dict[int, int]] | None = None

    @property
    def lcs_side(self) -> list[list[int]]:
        """The sentences the LCS measures read (ROUGE-1.5.5's byte-limited LCS reader, or the text)."""
        return self.lcs_sents if self.lcs_sents is not None else self.sents

    @property
    def masks(self) -> list[dict[int, int]]:
        """Match masks of the sentences the LCS measures read (reused for every hypothesis)."""
        if self._masks is None:
            self._masks = [match_masks(s) for s in self.lcs_side]
        return self._masks

    @property
    def flat(self) -> list[int]:
        if self._flat is None:
            self._flat = flat(self.sents)
        return self._flat

    @property
    def counts(self) -> Counter:
        return self.grams(("n", 1))

    def grams(self, key: Any) -> Counter:
        """``("n", N)``: N-gram counts; ``("s", gap, unigrams)``: skip-bigram counts (of the flat sequence)."""
        got = self._ngrams.get(key)
        if got is None:
            kind, arg = key[0], key[1]
            if kind == "n":
                got = ngram_counts(self.flat, arg)
            else:
                got = skip_bigram_counts(self.flat, arg, key[2])
            self._ngrams[key] = got
        return got


class Corpus:
    """Turns raw documents into interned token sentences under one configuration."""

    def __init__(self, config: Config):
        self.config = config
        self.pipeline = TextPipeline(config.tokenizer, config.stemmer, config.stopwords,
                                     stem_min_length=config.stem_min_length,
                                     exceptions_path=config.exceptions_path,
                                     stopwords_path=config.stopwords_path, lowercase=config.lowercase)
        self.vocab: dict[str, int] = {}
        self.need_lcs_reader = (config.length_limit_bytes is not None and config.byte_limit_lcs == "perl"
                                and any(type_spec(t)[0] in ("Lsum", "W") for t in config.types))

    def intern(self, sentences: list[list[str]]) -> list[list[int]]:
        vocab = self.vocab
        setdefault = vocab.setdefault
        return [[setdefault(t, len(vocab)) for t in toks] for toks in sentences]

    def document(self, raw: str) -> Doc:
        cfg = self.config
        sentences = split_sentences(raw, cfg.sentence_split, cfg.sentence_marker)
        lcs_sents = None
        if cfg.length_limit_words is not None or cfg.length_limit_bytes is not None:
            if self.need_lcs_reader:   # ROUGE-1.5.5's LCS reader under -b (research R17)
                lcs_sents = self.intern(self.pipeline.document(
                    truncate_lcs(sentences, cfg.length_limit_words, cfg.length_limit_bytes)))
            sentences = truncate(sentences, cfg.length_limit_words, cfg.length_limit_bytes)
        return Doc(self.intern(self.pipeline.document(sentences)), lcs_sents)


#: the sentences of each distinct document per (sentence_split, sentence_marker), shared by the
#: process's encoders: ``compare`` and ``report`` encode the same texts under many configurations
#: (the ``period`` and ``zh-punct`` splits cost a regular-expression pass or a split and a join per
#: document). Keyed on everything :func:`split_sentences` reads; at most :data:`SPLITS_KEPT`
#: documents per split (then started afresh).
_SPLITS: dict[tuple[str, str | None], dict[str, tuple[str, ...]]] = {}
SPLITS_KEPT = 1 << 16


def _split(raw: str, mode: str, marker: str | None) -> tuple[str, ...]:
    """:func:`split_sentences` of ``raw``, remembered (a document it rejects raises each time)."""
    memo = _SPLITS.get((mode, marker))
    if memo is None:
        memo = _SPLITS[(mode, marker)] = {}
    got = memo.get(raw) if type(raw) is str else None
    if got is None:
        got = tuple(split_sentences(raw, mode, marker))
        if type(raw) is str:
            if len(memo) >= SPLITS_KEPT:
                memo.clear()
            memo[raw] = got
    return got


class Encoder:
    """Documents -> token stores in bulk: :meth:`add` each text (split and truncated at once, so a
    malformed text raises where :meth:`Corpus.document` would), then :meth:`encode` once.

    The LCS reader's sentences (ROUGE-1.5.5 under ``-b``) are encoded before the document's own,
    as :meth:`Corpus.document` interns them, so token ids agree with it.
    """

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        cfg = corpus.config
        self._limits = cfg.length_limit_words is not None or cfg.length_limit_bytes is not None
        self._reader = self._limits and corpus.need_lcs_reader
        self.index: dict[str, int] = {}
        self._sentences: list[str] = []
        self._counts: list[int] = []       # sentences per document (then, with the reader, its own)

    def add_all(self, texts: Sequence[str]) -> None:
        """:meth:`add` every text of ``texts`` (distinct, none added yet): one loop without
        per-document bookkeeping when nothing is truncated."""
        cfg = self.corpus.config
        if self._limits or self.index:
            for raw in texts:
                self.add(raw)
            return
        mode = cfg.sentence_split
        if mode == "none":
            self._sentences += texts
            self._counts += [1] * len(texts)
        elif mode == "newline":     # split_sentences(raw, "newline")
            for raw in texts:
                sentences = [x for x in raw.split("\n") if x]
                self._sentences += sentences
                self._counts.append(len(sentences))
        else:
            marker = cfg.sentence_marker
            for raw in texts:
                split = _split(raw, mode, marker)
                self._sentences += split
                self._counts.append(len(split))
        self.index.update(zip(texts, range(len(texts))))

    def add(self, raw: str) -> int:
        """The document index of ``raw`` (texts are encoded once)."""
        got = self.index.get(raw)
        if got is not None:
            return got
        cfg = self.corpus.config
        sentences: Sequence[str] = _split(raw, cfg.sentence_split, cfg.sentence_marker)
        if self._limits:
            split = list(sentences)
            if self._reader:
                lcs_sents = truncate_lcs(split, cfg.length_limit_words, cfg.length_limit_bytes)
                self._sentences += lcs_sents
                self._counts.append(len(lcs_sents))
            sentences = truncate(split, cfg.length_limit_words, cfg.length_limit_bytes)
        self._sentences += sentences
        self._counts.append(len(sentences))
        got = self.index[raw] = len(self.index)
        return got

    def _token_ids(self) -> tuple[np.ndarray, np.ndarray, int]:
        """(final token ids of every sentence, concatenated; tokens per sentence; vocabulary size)."""
        pipeline = self.corpus.pipeline
        tok = pipeline.tokenizer
        if _compiled is not None and tok in _compiled.TOKENIZERS:
            interner = _compiled.Interner()
            ids, seg_len = interner.encode(self._sentences, _compiled.TOKENIZERS[tok], pipeline.lowercase)
            if not pipeline.rewrites_tokens:
                return ids, seg_len, len(interner)
            vocab: dict[str, int] = {}
            final = [pipeline.final(t) for t in interner.strings()]
            mapping = np.array([-1 if f is None else vocab.setdefault(f, len(vocab)) for f in final] or [0],
                               dtype=np.int64)
            ids = mapping[ids]
            keep = ids >= 0
            if not keep.all():
                seg_of = np.repeat(np.arange(len(seg_len)), seg_len)
                seg_len = np.bincount(seg_of[keep], minlength=len(seg_len)).astype(np.int64)
                ids = ids[keep]
            return ids, seg_len, len(vocab)
        sents = [pipeline.tokens(s) for s in self._sentences]
        vocab = {}
        setdefault = vocab.setdefault
        ids = np.fromiter([setdefault(t, len(vocab)) for s in sents for t in s], dtype=np.int64)
        return ids, np.fromiter(map(len, sents), dtype=np.int64, count=len(sents)), len(vocab)

    def encode(self) -> tuple[Store, Store, int]:
        """(flat store: each document one sequence; LCS store: the sentences the LCS measures read;
        vocabulary size)."""
        ids, seg_len, vocab = self._token_ids()
        counts = np.array(self._counts, dtype=np.int64)
        if not self._reader:
            lcs = Store.from_segments(ids, seg_len, counts)
            return Store.from_flat(ids, lcs.doc_len), lcs, vocab
        # documents alternate: the reader's sentences, then the document's own
        owner_is_reader = np.tile(np.array([True, False]), len(counts) // 2)
        seg_reader = np.repeat(owner_is_reader, counts)
        tok_reader = np.repeat(seg_reader, seg_len)
        lcs = Store.from_segments(ids[tok_reader], seg_len[seg_reader], counts[0::2])
        own = Store.from_segments(ids[~tok_reader], seg_len[~seg_reader], counts[1::2])
        return Store.from_flat(own.tokens, own.doc_len), lcs, vocab
