"""The compiled token-list matcher (``assay.text._ngrams_c.token_matches_into``) equals the pure one.

:func:`assay.text.ngrams.token_matches` (clipped matches straight from token lists, tokens interned
per segment) equals :func:`assay.text.ngrams.token_matches_py` (one dict vocabulary, then
:func:`assay.text.ngrams.clipped_matches_py`) exactly: random ``str`` tokens (ASCII, Latin-1,
wide, astral, empty, longer than 8 code points, equal texts as distinct objects), lists and tuples,
missing (None) and empty references, one to four reference streams, orders 1-6. Tokens that are not
exact ``str`` (ints, ``1 == 1.0 == True``, a ``str`` subclass) and segments that are not lists or
tuples take the dict path, with the same result.
"""
from __future__ import annotations

from collections import UserList
from typing import Any, Callable
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.text import ngrams
from assay.text.ngrams import token_matches_py

MODULE = "assay.text._ngrams_c"
relaxed = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

token = st.one_of(st.sampled_from(["a", "b", "ab", "the", ".", "", "é", "Ā", "😀", "x" * 9, "abcdefgh", "abcdefgi",
                                   "naïveté!", "日本"]),
                  st.text(max_size=10))


@pytest.fixture(scope="module")
def mod(twin: Callable[[str], Any]) -> Any:
    return twin(MODULE)


def twin_matches(mod: Any, hyps: Any, refs: Any, max_order: int) -> np.ndarray:
    with mock.patch.object(ngrams, "_compiled", mod):
        return ngrams.token_matches(hyps, refs, max_order)


def fresh(tokens: list[str]) -> list[str]:
    """The same texts as new objects (as ``str.split`` gives: equal, not identical)."""
    return ["".join(list(t)) for t in tokens]


@st.composite
def corpora(draw: st.DrawFn, tokens: st.SearchStrategy[Any] = token) -> tuple[list[Any], list[list[Any]]]:
    n_seg = draw(st.integers(0, 5))
    vocab = draw(st.lists(tokens, min_size=1, max_size=6))
    segment = st.lists(st.sampled_from(vocab), max_size=12).map(fresh if isinstance(vocab[0], str) else list)
    maybe_tuple = segment.flatmap(lambda s: st.sampled_from([s, tuple(s)]))
    hyps = [draw(maybe_tuple) for _ in range(n_seg)]
    refs = [[draw(st.one_of(maybe_tuple, st.none())) for _ in range(n_seg)] for _ in range(draw(st.integers(1, 4)))]
    return hyps, refs


@relaxed
@given(corpus=corpora(), max_order=st.integers(1, 6))
def test_token_matches_equal_pure(mod: Any, corpus: tuple[list[Any], list[list[Any]]], max_order: int) -> None:
    hyps, refs = corpus
    got, want = twin_matches(mod, hyps, refs, max_order), token_matches_py(hyps, refs, max_order)
    assert got.shape == want.shape == (len(hyps), max_order)
    assert got.tolist() == want.tolist()


@relaxed
@given(corpus=corpora(st.sampled_from(["a", "b"])), repeat=st.integers(1, 40), max_order=st.integers(1, 9))
def test_token_matches_long_repeats(mod: Any, corpus: tuple[list[Any], list[list[Any]]], repeat: int,
                                    max_order: int) -> None:
    """Two-token vocabularies, long segments: long repeated n-grams, heavy clipping, buffers growing."""
    hyps = [list(s) * repeat for s in corpus[0]]
    refs = [[None if s is None else list(s) * repeat for s in stream] for stream in corpus[1]]
    assert twin_matches(mod, hyps, refs, max_order).tolist() == token_matches_py(hyps, refs, max_order).tolist()


class Word(str):
    """A ``str`` subclass: it may redefine equality, so the twin leaves it to the dict path."""


@pytest.mark.parametrize("hyps, refs", [
    ([["a", 1, True], ["b"]], [[["a", 1.0, 1], [2]]]),                # 1 == 1.0 == True in a dict
    ([[Word("a"), "a"]], [[["a", Word("a")]]]),
    ([["a", "b"], ["a"]], [[["a", "b"], ("a",)], [None, UserList(["a"])]]),   # neither a list nor a tuple
])
def test_other_tokens_take_the_dict_path(mod: Any, hyps: list[Any], refs: list[list[Any]]) -> None:
    with mock.patch.object(ngrams, "clipped_matches", wraps=ngrams.clipped_matches) as dict_path:
        got = twin_matches(mod, hyps, refs, 3)
    assert dict_path.called
    assert got.tolist() == token_matches_py(hyps, refs, 3).tolist()


def test_corner_cases(mod: Any) -> None:
    cases = [
        ([[]], [[[]]]),                                            # one empty segment
        ([["x"] * 4], [[["x"] * 2], [["x"] * 3]]),                 # clipping by the larger reference
        ([list("abcde")], [[[]], [list("abcde")]]),                # an empty reference next to a full match
        ([["p", "q"], [], ["r"]], [[["q", "p"], ["s"], None]]),    # empty hypothesis, missing reference
        ([[str(i) for i in range(300)] * 2], [[[str(i) for i in range(300)]]]),   # a long segment
        ([["a"]], []),                                             # no reference stream
    ]
    for hyps, refs in cases:
        for order in (1, 2, 4, 5):
            assert twin_matches(mod, hyps, refs, order).tolist() == token_matches_py(hyps, refs, order).tolist()
