"""Differential tests: assay's tokenizers against the live sacrebleu 2.6.0 tokenizers (and MeCab).

Every test here needs the reference tool; ``conformance.references.availability.require`` fails
the test under ``CI=true`` when it is missing and skips it otherwise.

Three call paths are compared on hypothesis-generated strings:
- the bare tokenizer call (exact output string);
- what ``BLEU`` scores (``_preprocess_segment``: lowercase, ``rstrip()``, tokenizer), as tokens;
- a whole corpus through ``tokenize_lines`` against sacrebleu one segment at a time.
"""
from __future__ import annotations

import importlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.tokenizers import get_tokenizer
from conformance.references.availability import require

pytestmark = pytest.mark.refs

SACREBLEU_CLASSES = {
    "13a": ("sacrebleu.tokenizers.tokenizer_13a", "Tokenizer13a"),
    "intl": ("sacrebleu.tokenizers.tokenizer_intl", "TokenizerV14International"),
    "zh": ("sacrebleu.tokenizers.tokenizer_zh", "TokenizerZh"),
    "char": ("sacrebleu.tokenizers.tokenizer_char", "TokenizerChar"),
    "none": ("sacrebleu.tokenizers.tokenizer_none", "NoneTokenizer"),
}
NAMES = list(SACREBLEU_CLASSES)

TRICKY = (
    list("aZ09.,-'\"!?()&;<>/$%+=_~@#*[]{}|^` \t\n\r") + ["\x00", "\x01", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e",
    "\x1f", "\x7f", "\x85", "\xa0", "\u2009", "\u2028", "\u2029", "\u3000", "\u200b", "\ud800", "²", "½", "٣", "😀",
    "\U00020000", "Σ", "İ", "ẞ", "\u0301", "é", "我", "们", "。", "，", "“", "”", "—", "…", "€", "←", "は", "テ", "한",
    "&quot;", "&amp;", "&lt;", "&gt;", "&apos;", "<skipped>", "1,000.5", "2019.", "...", "-\n", "\ue000"]
)
# any Unicode (surrogates included) mixed with the tricky pieces
segment = st.one_of(
    st.lists(st.sampled_from(TRICKY), max_size=14).map("".join),
    st.text(st.characters(codec=None, exclude_categories=()), max_size=30),
    st.lists(st.one_of(st.sampled_from(TRICKY), st.characters(codec=None)), max_size=20).map("".join),
)
relaxed = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


_LOADED: dict[str, Any] = {}


def _sacrebleu() -> Any:
    """sacrebleu 2.6.0 (imported inside the test, so a missing tool FAILS the test under CI=true)."""
    return require("sacrebleu", version="2.6.0", hint="the refs env pins it: tox -e refs")


def reference_tokenizers() -> dict[str, Any]:
    _sacrebleu()
    if "tokenizers" not in _LOADED:
        _LOADED["tokenizers"] = {name: getattr(importlib.import_module(mod), cls)()
                                 for name, (mod, cls) in SACREBLEU_CLASSES.items()}
    return _LOADED["tokenizers"]


def bleu_paths() -> dict[tuple[str, bool], Any]:
    _sacrebleu()
    if "bleu" not in _LOADED:
        from sacrebleu.metrics import BLEU
        _LOADED["bleu"] = {(name, lc): BLEU(tokenize=name, lowercase=lc) for name in NAMES for lc in (False, True)}
    return _LOADED["bleu"]


# The availability check runs before hypothesis starts, so a missing tool fails (CI) or skips at
# once instead of inside every generated example.
@pytest.mark.parametrize("name", NAMES)
def test_tokenizer_call(name: str) -> None:
    reference = reference_tokenizers()[name]
    ours = get_tokenizer(name)

    @relaxed
    @given(text=segment)
    def check(text: str) -> None:
        assert ours.tokenize(text) == reference(text)

    check()


@pytest.mark.parametrize("name", NAMES)
def test_bleu_path(name: str) -> None:
    paths = bleu_paths()
    ours = get_tokenizer(name)

    @relaxed
    @given(text=segment, lowercase=st.booleans())
    def check(text: str, lowercase: bool) -> None:
        expected = paths[(name, lowercase)]._preprocess_segment(text).split()
        assert ours.tokenize_segment(text, "unicode" if lowercase else None) == expected

    check()


@pytest.mark.parametrize("name", NAMES)
def test_corpus_at_once(name: str) -> None:
    paths = bleu_paths()
    ours = get_tokenizer(name)

    @relaxed
    @given(lines=st.lists(segment, min_size=1, max_size=10), lowercase=st.booleans())
    def check(lines: list[str], lowercase: bool) -> None:
        expected = [paths[(name, lowercase)]._preprocess_segment(line).split() for line in lines]
        assert ours.tokenize_lines(lines, "unicode" if lowercase else None) == expected

    check()


def test_research_examples() -> None:
    """A few inputs every tokenizer must agree on, as a quick smoke test of the live tool."""
    for text in ("He said “hello”—then left…", "&quot;Hello&quot; &amp; goodbye &lt;3", "我爱北京天安门。",
                 "It happened in 2019.", "the cat <skipped> sat", "a\x1cb 1,000.50 a..5", "x€y 𠀀𠀁"):
        for name in NAMES:
            assert get_tokenizer(name).tokenize(text) == reference_tokenizers()[name](text), (name, text)


JA_TEXT = st.text(st.sampled_from(list("私は学生です。東京タワーに行きましたカタカナｶﾀｶﾅ ABC１２３,.!?\u3000\x1c&quot;")),
                  max_size=25)


def test_ja_mecab() -> None:
    hint = "ja-mecab needs the [ja] extra: pip install 'assay-metrics[ja]' (tox -e refs has it)"
    require("MeCab", hint=hint)
    require("ipadic", hint=hint)
    _sacrebleu()
    reference = importlib.import_module("sacrebleu.tokenizers.tokenizer_ja_mecab").TokenizerJaMecab()
    ours = get_tokenizer("ja-mecab")

    @relaxed
    @given(text=JA_TEXT)
    def check(text: str) -> None:
        expected = reference(text)
        assert ours.tokenize(text) == expected
        assert ours.tokenize_lines([text, text]) == [expected.split()] * 2

    check()
