"""Fuzz ROUGE's text processing (:mod:`assay.metrics.rouge.text`): sentence splitting, ``-l``/``-b``
truncation, the four tokenisers and the whole pipeline (stop words, stemmers).

Documented shapes: ``rouge155`` and ``rouge-score`` tokens are maximal runs of ``[a-z0-9]`` (of
``[A-Za-z0-9]`` without lowercasing); ``unicode`` tokens are non-empty runs of letters, marks and
numbers; ``space`` is ``str.split(" ")`` exactly (empty tokens kept); ``newline`` sentences are
non-empty; truncation never returns more sentences than it was given. A bad knob value is a
KnobError, text outside ``<t>`` tags an InputError.
"""
from __future__ import annotations

import re

from assay.metrics.rouge.text import (SENTENCE_SPLITS, STEMMERS, TOKENIZERS, TextPipeline, split_sentences,
                                      truncate, truncate_lcs)
from conformance.fuzz.common import Draw, assay_errors_only, check_tokens

SEEDS = [b"", b"\x00\x02\x40The cats were running. <t>x</t>\ncaf\xe9 na\xefve \xa0 \xd0", b"\x01\x02\x03\x10\x05\x02\x30" + bytes(range(0x80, 0xb0)),
         b"\x02\x01\x00\x03\x00\x20<t>a b</t> <t>c", b"\x03\x00\x01\x02\x04\x07\x03\x30" + bytes(range(0, 48))]
_ASCII_RUN = {True: re.compile(r"[a-z0-9]+"), False: re.compile(r"[A-Za-z0-9]+")}
_PIPELINES: dict[tuple, TextPipeline] = {}
_LIMITS = (None, 0, 1, 2, 3, 5, 8, 13, 40, -1)


def _pipeline(tokenizer: str, stemmer: str, stopwords: str, lowercase: bool) -> TextPipeline:
    key = (tokenizer, stemmer, stopwords, lowercase)
    if key not in _PIPELINES:
        _PIPELINES[key] = TextPipeline(tokenizer, stemmer, stopwords, lowercase=lowercase)
    return _PIPELINES[key]


def _check_raw(tokenizer: str, tokens: list[str], sentence: str, lowercase: bool) -> None:
    where = f"{tokenizer} tokens of {sentence!r} (lowercase={lowercase})"
    if tokenizer in ("rouge155", "rouge-score"):
        check_tokens(tokens, where, None)
        assert all(_ASCII_RUN[lowercase].fullmatch(t) for t in tokens), where + f": {tokens!r}"
    elif tokenizer == "unicode":
        check_tokens(tokens, where)
    else:
        assert tokens == (sentence.lower() if lowercase else sentence).split(" "), where + f": {tokens!r}"


def one_input(data: bytes) -> None:
    draw = Draw(data)
    tokenizer, stemmer = draw.pick(TOKENIZERS), draw.pick(STEMMERS)
    stopwords, lowercase = draw.pick(("none", "smart")), draw.flag()
    mode, marker = draw.pick(SENTENCE_SPLITS), draw.pick((None, "", "<n>", "<q>", ".", "\n", " "))
    words, bytes_ = draw.pick(_LIMITS), draw.pick(_LIMITS)
    doc = draw.text()
    with assay_errors_only():
        sentences = split_sentences(doc, mode, marker)
        assert isinstance(sentences, list) and all(isinstance(s, str) for s in sentences), sentences
        if mode in ("newline", "marker"):
            assert all(sentences), f"empty sentence from {doc!r} ({mode})"
        for cut in (truncate, truncate_lcs):
            kept = cut(sentences, words, bytes_)
            assert len(kept) <= len(sentences) and all(isinstance(s, str) for s in kept), (sentences, kept)
        pipeline = _pipeline(tokenizer, stemmer, stopwords, lowercase)
        for sentence in sentences[:4]:
            _check_raw(tokenizer, pipeline.raw_tokens(sentence), sentence, lowercase)
            final = pipeline.tokens(sentence)
            assert isinstance(final, list) and all(isinstance(t, str) for t in final), final
        assert len(pipeline.document(sentences[:4])) == len(sentences[:4])
