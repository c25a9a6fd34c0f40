"""Raw documents -> token-id documents under one configuration (the text stage of ROUGE).

A document is split into sentences (``sentence_split``), cut by ROUGE-1.5.5's ``-l``/``-b``
(``length_limit_words``/``length_limit_bytes``), tokenised, stop-word filtered and stemmed
(:class:`assay.metrics.rouge.text.TextPipeline`); tokens are interned per corpus as small ints.
Under ``-b`` ROUGE-1.5.5's ROUGE-L/W reader sees different sentences (research R17,
:func:`assay.metrics.rouge.text.truncate_lcs`): a :class:`Doc` keeps those as ``lcs_sents``.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from assay.core.knobs import Config
from assay.metrics.rouge.knobs import type_spec
from assay.metrics.rouge.lcs import match_masks
from assay.metrics.rouge.measures import flat, ngram_counts, skip_bigram_counts
from assay.metrics.rouge.text import TextPipeline, split_sentences, truncate, truncate_lcs


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
