"""The compiled 13a tokenizer (``assay.tokenizers._tok_13a_c``) equals the pure specification.

- ``tokenize_lines`` (token lists) equals ``Tokenizer13a.tokenize_segment`` per line, the literal
  regexes (``reference_tokenize``) and the pure corpus-at-once engine (``_batch``), for every
  lowercase mode;
- ``CodeTable.encode_lines`` (tokens straight to ids) equals the pure tokens interned by
  :func:`assay.text.ngrams.encode_py` into one vocabulary shared by several calls (same ids, same
  first-seen order), and ``Tokenizer13a.id_encoder`` (which scans a repeated line once) too;
- BLEU's rows get the same id arrays through the id encoder as through tokens + ``encode``.
"""
from __future__ import annotations

from typing import Any, Callable
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.engine.api import configure
from assay.metrics.bleu import rows
from assay.text.ngrams import encode_py
from assay.tokenizers import tok_13a
from assay.tokenizers.base import lowercase_text

MODULE = "assay.tokenizers._tok_13a_c"
TOKENIZER = tok_13a.Tokenizer13a()
LOWERCASE = [None, "unicode", "perl", "ascii"]

# Every rule's trigger, Python-only and Perl whitespace, digits around periods/commas/hyphens,
# entities and <skipped> (rules 1-3), Latin-1 and wider code points (the packed keys stop at
# U+00FF and 8 code points), astral characters, lone surrogates, case context (final sigma).
PIECES = (
    list("aZ09.,-'\"!?()&;<>/$%+=_~`^|{}[]\\@#* \t\n\r\x0b\x0c") +
    ["\x00", "\x01", "\x1b", "\x1c", "\x1d", "\x1f", "\x7f", "\x85", "\xa0", "\xff", "\u0100", "\u1680",
     "\u2028", "\u3000", "\ud800", "\udfff", "😀", "\U00020000", "Σ", "ς", "İ", "ẞ", "é", "我", "。", "“", "—"] +
    ["&quot;", "&amp;", "&lt;", "&gt;", "&amp;lt;", "<skipped>", "<skip<skipped>ped>", "-\n", "1,000.5", "2019.",
     "...", "a..5", "1..5", "1...5", ",,7", "3.5", "7-", "abcdefgh", "abcdefghi", "äöüßàéîõ", "äöüßàéîõx",
     "Straße", "ΟΔΟΣ"]
)
segment = st.one_of(st.lists(st.sampled_from(PIECES), max_size=14).map("".join),
                    st.text(st.characters(codec=None), max_size=30))
corpus = st.lists(segment, max_size=8)
relaxed = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def lowercaser(mode: str | None) -> Callable[[str], str] | None:
    return None if mode is None else (lambda text: lowercase_text(text, mode))


@pytest.fixture(scope="module")
def mod(twin: Callable[[str], Any]) -> Any:
    return twin(MODULE)


@relaxed
@given(lines=corpus, lowercase=st.sampled_from(LOWERCASE))
def test_tokenize_lines_equals_pure(mod: Any, lines: list[str], lowercase: str | None) -> None:
    got = mod.tokenize_lines(lines, lowercaser(lowercase), tok_13a.rules_1_to_3)
    assert got == [TOKENIZER.tokenize_segment(line, lowercase) for line in lines]
    assert got == TOKENIZER._batch(lines, lowercase)
    assert got == [tok_13a.reference_tokenize(lowercase_text(line, lowercase).rstrip()).split() for line in lines]


@relaxed
@given(streams=st.lists(corpus, min_size=1, max_size=3), lowercase=st.sampled_from(LOWERCASE))
def test_code_table_equals_tokens_then_encode(mod: Any, streams: list[list[str]], lowercase: str | None) -> None:
    table, vocab = mod.CodeTable(), {}
    for lines in streams:
        ids, lengths = table.encode_lines(lines, lowercaser(lowercase), tok_13a.rules_1_to_3)
        expected = encode_py([TOKENIZER.tokenize_segment(line, lowercase) for line in lines], vocab)
        assert ids.dtype == lengths.dtype == np.int64
        assert ids.tolist() == expected.ids.tolist()
        assert lengths.tolist() == expected.lengths.tolist()
    assert table.words() == list(vocab)
    assert len(table) == len(vocab)


@relaxed
@given(lines=st.lists(st.sampled_from(["a.", "b ,c", "1.5", "x\x1cy", "", " ", "“q”", "ΑΣ", "&amp;x", "abcdefghij"]),
                      max_size=30),
       lowercase=st.sampled_from(LOWERCASE))
def test_id_encoder_with_repeated_lines(mod: Any, lines: list[str], lowercase: str | None) -> None:
    """Mostly repeated lines take the scan-each-distinct-line-once path."""
    with mock.patch.object(tok_13a, "_compiled", mod):
        encoder = TOKENIZER.id_encoder(lowercase)
        assert encoder is not None
        vocab: dict[str, int] = {}
        for stream in (lines, lines[::-1]):
            ids, lengths = encoder(stream)
            expected = encode_py([TOKENIZER.tokenize_segment(line, lowercase) for line in stream], vocab)
            assert ids.tolist() == expected.ids.tolist()
            assert lengths.tolist() == expected.lengths.tolist()


def test_id_encoder_is_compiled_only() -> None:
    with mock.patch.object(tok_13a, "_compiled", None):
        assert TOKENIZER.id_encoder(None) is None


def test_tokenize_lines_dispatch_gives_fresh_lists(mod: Any) -> None:
    lines = ["The cat, 1.5 “x” a\x1cb.", "&quot;<skipped>", "ΟΔΟΣ."] * 7 + ["unique line."]
    with mock.patch.object(tok_13a, "_compiled", mod):
        for lowercase in LOWERCASE:
            out = TOKENIZER.tokenize_lines(lines, lowercase)
            assert out == [TOKENIZER.tokenize_segment(line, lowercase) for line in lines]
            assert len({id(toks) for toks in out}) == len(out)


def test_long_tokens_and_long_lines(mod: Any) -> None:
    word = "Donaudampfschifffahrtsgesellschaftskapitän" * 50
    lines = [word, f"{word}. {word}", "x" * 100_000, "", "   ", ("ab " * 5000).strip(), "😀" * 9, "é" * 8, "é" * 9]
    table = mod.CodeTable()
    ids, lengths = table.encode_lines(lines, None, tok_13a.rules_1_to_3)
    expected = encode_py([TOKENIZER.tokenize_segment(line) for line in lines], {})
    assert ids.tolist() == expected.ids.tolist() and lengths.tolist() == expected.lengths.tolist()
    assert mod.tokenize_lines(lines, None, tok_13a.rules_1_to_3) == [TOKENIZER.tokenize_segment(x) for x in lines]


BLEU_CASES = [
    ({}, "sacrebleu"),
    ({"lowercase": True}, "sacrebleu"),
    ({"lowercase": True, "lowercase_mode": "perl"}, "sacrebleu"),
]


@relaxed
@given(hyps=st.lists(segment, min_size=1, max_size=6), data=st.data(), case=st.sampled_from(BLEU_CASES))
def test_bleu_sides_equal_on_both_paths(mod: Any, hyps: list[str], data: st.DataObject,
                                        case: tuple[dict[str, Any], str]) -> None:
    """rows.encode_sides: text -> ids directly (compiled) == tokens -> encode (pure), missing refs too."""
    n = len(hyps)
    refs = data.draw(st.lists(st.lists(st.one_of(segment, st.none()), min_size=n, max_size=n), min_size=1, max_size=3))
    config = configure("bleu", case[1], **case[0]).config
    with mock.patch.object(tok_13a, "_compiled", mod):
        direct, present = rows.encode_sides(hyps, refs, config)
    with mock.patch.object(tok_13a, "_compiled", None):
        pure, present_pure = rows.encode_sides(hyps, refs, config)
    assert present.tolist() == present_pure.tolist()
    for a, b in zip(direct, pure):
        assert a.ids.tolist() == b.ids.tolist()
        assert a.offsets.tolist() == b.offsets.tolist()
