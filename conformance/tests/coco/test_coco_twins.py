"""The COCO path's compiled twins equal their pure specifications exactly (hypothesis properties):

- ``assay.metrics.cider._vectors_c.split_encode`` (a byte-keyed hash table for one-byte-kind strings)
  = :func:`assay.metrics.cider.vectors.split_encode_py` (ids, offsets, and the vocabulary in order);
- ``assay.tokenizers._ptb_c.plain_encode`` through :func:`assay.metrics.cider.tokens.ptb_encode` (PTB
  captions straight to token ids) = ``split_encode_py(coco_tokenize_lines(captions))``, the pure PTB
  tokenizer's strings interned;
- ``assay.metrics.rouge._space_lcs_c.space_lcs`` = :func:`assay.metrics.rouge.space_lcs.space_lcs_py`
  (pycocoevalcap's ROUGE-L counts on ``split(" ")`` tokens, the long-text and no-reference cases too).

A missing twin fails under ``CI`` and is skipped locally (``conformance/tests/accel/conftest.py``).
"""
from __future__ import annotations

from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from assay.core.errors import InputError
from assay.metrics.cider import tokens, vectors
from assay.metrics.rouge import space_lcs
from assay.tokenizers import ptb
from conformance.tests.accel.conftest import import_twin
from conformance.tests.tokenizers.test_ptb_unicode_plain import BATCHES

# str.split() separators of every kind, one-byte-kind letters (latin-1 included) and wider ones
SPLIT_TEXT = st.text(st.sampled_from(list("ab c\t\n\x0b\x0c\r\x1c\x1f\x85\xa0\xff\u1680\u2000\u2028\u3000"
                                          "\ufeffé猫😀.,")), max_size=30)
PIECES = ["a", "dog", "Dog", "A.", "a.", "U.S.", "e.g.", "A.M.", "No.", "5", "3", "1/2", "...", ".", ",", "(", ")",
          '"', "'s", "don't", "Inc.", "Calif.", "The", "He", "<b>", "&amp;", "caf\u00e9", "\u201cx\u201d", "--",
          "ph.d.", "12:30", ":-)", "#tag", "x\u2028y", "(555)"]
BLANKS = [" ", " ", " ", "  ", "\t", "\u00a0", ""]
WORDS = ["a", "b", "", "ab", "é", "猫", "😀", "A"]


@st.composite
def captions(draw: st.DrawFn) -> str:
    out = ""
    for piece in draw(st.lists(st.sampled_from(PIECES), max_size=7)):
        out += piece + draw(st.sampled_from(BLANKS))
    return out


@given(st.lists(SPLIT_TEXT, max_size=8), st.lists(st.sampled_from(["a", "b", "é", "猫", "ab", "\xff"]), unique=True))
@settings(deadline=None)
def test_split_encode(strings: list[str], known: list[str]) -> None:
    mod = import_twin("assay.metrics.cider._vectors_c")
    pure_vocab = {t: i for i, t in enumerate(known)}
    twin_vocab = dict(pure_vocab)
    want = vectors.split_encode_py(strings, pure_vocab)
    ids, offsets = mod.split_encode(strings, twin_vocab)
    assert ids.tolist() == want.ids.tolist() and offsets.tolist() == want.offsets.tolist()
    assert list(twin_vocab.items()) == list(pure_vocab.items())


def test_split_encode_many_tokens() -> None:
    """Thousands of distinct tokens: the hash table grows (rehashes) and still agrees."""
    mod = import_twin("assay.metrics.cider._vectors_c")
    strings = [" ".join(f"w{(i * 7919 + j) % 20011}" for j in range(9)) for i in range(3000)]
    pure_vocab: dict[str, int] = {}
    twin_vocab: dict[str, int] = {}
    want = vectors.split_encode_py(strings, pure_vocab)
    ids, offsets = mod.split_encode(strings, twin_vocab)
    assert np.array_equal(ids, want.ids) and np.array_equal(offsets, want.offsets)
    assert list(twin_vocab.items()) == list(pure_vocab.items())


class Caption(str):
    """A ``str`` subclass: not exactly a ``str``, so the twin hands it back to the pure path."""


@given(st.lists(st.one_of(SPLIT_TEXT, SPLIT_TEXT.map(Caption), st.none(), st.just(["a", "b"])), max_size=8))
@settings(deadline=None)
def test_split_encode_stops_at_the_first_item_not_exactly_a_str(items: list[Any]) -> None:
    """The twin reads each item's type with its text: None at the first item that is not exactly a
    ``str``, its vocabulary then the pure pass's over the items before it; else the pure result."""
    mod = import_twin("assay.metrics.cider._vectors_c")
    first_other = next((k for k, x in enumerate(items) if type(x) is not str), None)
    twin_vocab: dict[str, int] = {}
    got = mod.split_encode(items, twin_vocab)
    pure_vocab: dict[str, int] = {}
    want = vectors.split_encode_py(items[:first_other], pure_vocab)
    assert list(twin_vocab.items()) == list(pure_vocab.items())
    if first_other is not None:
        assert got is None
    else:
        assert got[0].tolist() == want.ids.tolist() and got[1].tolist() == want.offsets.tolist()


def test_caption_side_of_str_subclasses_and_token_lists() -> None:
    """Captions the twin hands back (a ``str`` subclass, token lists) are encoded as the pure path
    encodes them, in one vocabulary numbered in order of first occurrence."""
    config = {"lowercase": False, "tokenize": "none", "lowercase_mode": "default"}
    for segments in (["a b", Caption("b c"), "c d"], [["a", "b"], ["b", "c"]], ["a b", "b  c"]):
        vocab: dict[str, int] = {}
        got = tokens.caption_side(segments, config, vocab)
        with mock.patch.object(vectors, "_compiled", None):
            pure_vocab: dict[str, int] = {}
            want = tokens.caption_side(segments, config, pure_vocab)
        assert got.ids.tolist() == want.ids.tolist() and got.offsets.tolist() == want.offsets.tolist()
        assert list(vocab.items()) == list(pure_vocab.items())


@given(st.one_of(st.lists(st.one_of(captions(), st.text(max_size=12)), max_size=10), BATCHES),
       st.lists(st.sampled_from(["a", "dog", "u.s.", "the", "über", "„", "猫"]), unique=True))
@example([". .\u00a0.5 a", "Größe 3 1/2 m²", "3\u00a01/2 ü", "b"], [])
@settings(deadline=None)
def test_ptb_encode(batch: list[str], known: list[str]) -> None:
    """CIDEr's ids straight from the PTB twin = the pure strings' ``str.split()`` interned in order (ASCII
    captions, random text, and lines mixing every class of non-ASCII character: test_ptb_unicode_plain)."""
    mod = import_twin("assay.tokenizers._ptb_c")
    pure_vocab = {t: i for i, t in enumerate(known)}
    twin_vocab = dict(pure_vocab)
    ptb._LEXER = None
    with mock.patch.object(ptb, "_compiled", None), mock.patch.object(vectors, "_compiled", None):
        want = vectors.split_encode_py(ptb.coco_tokenize_lines(batch), pure_vocab)
    ptb._LEXER = None
    saved, ptb._compiled = ptb._compiled, mod        # the twin even under ASSAY_PURE=1
    try:
        got = tokens.ptb_encode(batch, twin_vocab)
    finally:
        ptb._compiled = saved
    assert got.ids.tolist() == want.ids.tolist() and got.offsets.tolist() == want.offsets.tolist()
    assert list(twin_vocab.items()) == list(pure_vocab.items())


@st.composite
def documents(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]]]:
    n = draw(st.integers(1, 5))
    text = st.lists(st.sampled_from(WORDS), max_size=draw(st.sampled_from([4, 12, 70, 140]))).map(" ".join)
    hyps = [draw(text) for _ in range(n)]
    refs = [[draw(st.one_of(text, st.none())) for _ in range(n)] for _ in range(draw(st.integers(1, 4)))]
    return hyps, refs


def _outcome(fn: Any, *args: Any) -> Any:
    try:
        got = fn(*args)
    except InputError as exc:
        return ("error", str(exc))
    return got if got is None else tuple(x.tolist() for x in got) + tuple(str(x.dtype) for x in got)


@given(documents(), st.sampled_from([128, 10, 64, 65]))
@settings(deadline=None)
def test_space_lcs(docs: tuple[list[str], list[list[str | None]]], limit: int) -> None:
    mod = import_twin("assay.metrics.rouge._space_lcs_c")
    hyps, refs = docs
    want = _outcome(space_lcs.space_lcs_py, hyps, refs, limit)
    saved, space_lcs._compiled = space_lcs._compiled, mod
    try:
        got = _outcome(space_lcs.space_lcs, hyps, refs, limit)
    finally:
        space_lcs._compiled = saved
    assert got == want


def test_space_lcs_not_strings_falls_back() -> None:
    """A text that is not a ``str`` leaves the twin (False) and the pure function decides."""
    mod = import_twin("assay.metrics.rouge._space_lcs_c")
    assert mod.space_lcs(["a b", 3], [["a", "b"]], 128) is False
    with pytest.raises(InputError, match="document 2 has no reference"):
        space_lcs.space_lcs(["a", "b"], [["a", None]], 128)
