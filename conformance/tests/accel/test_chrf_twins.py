"""chrF's compiled twin (``assay.metrics.chrf._counts_c``) equals the pure specification exactly.

- ``pair_matches``: encoded sides (random id sequences, repeated ids, ids up to U+10FFFF, empty segments,
  several references) -> the same float64 match array as ``counts.pair_matches_py``;
- ``text_counts``: texts (random Unicode incl. every ``str.isspace`` character, U+001C..U+001F,
  ASCII punctuation, digits, surrogates, long tokens, missing references) -> the same lengths and
  matches as ``counts.text_counts_py``, for characters and chrF++ words, under every whitespace knob
  (``whitespace_set`` isspace, white_space and torchmetrics' space).
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay.core.knobs import Config
from assay.metrics.chrf.counts import pair_matches_py, text_counts_py
from assay.metrics.chrf.knobs import KNOBS, WHITESPACE_SETS
from assay.metrics.chrf.text import UNICODE_SPACE
from assay.text.ngrams import Encoded
from conformance.strategies import segment

MODULE = "assay.metrics.chrf._counts_c"

# few distinct characters so that n-grams repeat and match; every whitespace kind; punctuation
_ALPHABET = "ab" + "aé猫😀" + ".,()!'-" + "0 9" + UNICODE_SPACE + "\ud800"
_TEXT = st.one_of(segment(), st.text(st.sampled_from(_ALPHABET), max_size=40),
                  st.text(max_size=20), st.just("x" * 300 + "."), st.just(""))


def _encoded(draw: st.DrawFn, n_seg: int, ids: st.SearchStrategy[int]) -> Encoded:
    seqs = [draw(st.lists(ids, max_size=30)) for _ in range(n_seg)]
    offsets = np.zeros(n_seg + 1, dtype=np.int64)
    np.cumsum([len(s) for s in seqs], out=offsets[1:])
    flat = np.array([x for s in seqs for x in s], dtype=np.int64)
    return Encoded(flat, offsets)


@st.composite
def _sides(draw: st.DrawFn) -> tuple[Encoded, list[Encoded]]:
    n_seg = draw(st.integers(0, 5))
    ids = draw(st.sampled_from([st.integers(0, 3), st.integers(0, 50), st.integers(0, 0x10FFFF)]))
    return _encoded(draw, n_seg, ids), [_encoded(draw, n_seg, ids) for _ in range(draw(st.integers(0, 3)))]


@st.composite
def _texts(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]]]:
    n_seg = draw(st.integers(0, 5))
    hyps = [draw(_TEXT) for _ in range(n_seg)]
    streams = [[draw(st.one_of(_TEXT, st.none())) for _ in range(n_seg)] for _ in range(draw(st.integers(0, 3)))]
    return hyps, streams


@given(_sides(), st.integers(0, 8))
def test_pair_matches(twin, sides, max_order):
    hyp, refs = sides
    mod = twin(MODULE)
    got = mod.pair_matches(hyp.ids, hyp.offsets, [r.ids for r in refs], [r.offsets for r in refs], max_order)
    want = pair_matches_py(hyp, refs, max_order)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want)


@given(_texts(), st.booleans(), st.integers(0, 8), st.booleans(), st.sampled_from(WHITESPACE_SETS))
def test_text_counts(twin, texts, words, max_order, whitespace, whitespace_set):
    hyps, streams = texts
    mod = twin(MODULE)
    config = Config("chrf", KNOBS, {"whitespace": whitespace, "whitespace_set": whitespace_set})
    got = mod.text_counts(hyps, streams, words, max_order, whitespace, WHITESPACE_SETS.index(whitespace_set))
    want = text_counts_py(hyps, streams, words, max_order, config)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        assert np.array_equal(g, w)


@pytest.mark.parametrize("alphabet, size", [("abc d", 5000), ("abcdefghijklmnopqrstuvwxyz .,ÄÖÜß猫", 20000)])
def test_long_segment(twin, alphabet, size):
    """One long segment against itself, an edited copy and a shuffled copy: deep orders, and codes
    from the direct-mapped table (small alphabet) and from the hash table (large alphabet)."""
    mod = twin(MODULE)
    rng = np.random.default_rng(0)
    chars = rng.choice(list(alphabet), size=size)
    text = "".join(chars)
    edited = chars.copy()
    edited[rng.integers(0, size, size // 20)] = "x"
    streams = [[text], ["".join(edited)], ["".join(rng.permutation(chars))]]
    config = Config("chrf", KNOBS, {})
    for words in (False, True):
        got = mod.text_counts([text], streams, words, 12, False, 0)
        want = text_counts_py([text], streams, words, 12, config)
        for g, w in zip(got, want):
            assert np.array_equal(g, w)


def test_str_subclass(twin):
    """A str subclass is read as its characters."""
    class Text(str):
        pass

    mod = twin(MODULE)
    config = Config("chrf", KNOBS, {})
    hyps, streams = [Text("a b. c")], [[Text("a b c.")]]
    for words in (False, True):
        got = mod.text_counts(hyps, streams, words, 3, False, 0)
        want = text_counts_py(hyps, streams, words, 3, config)
        for g, w in zip(got, want):
            assert np.array_equal(g, w)
