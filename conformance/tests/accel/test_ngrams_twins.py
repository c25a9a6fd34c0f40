"""The compiled n-gram twin (``assay.text._ngrams_c``) equals the pure specification.

- ``encode`` (twin: ``encode_into``) equals :func:`assay.text.ngrams.encode_py`: same ids, same
  vocabulary growth, over several calls sharing a vocabulary that may already hold tokens;
- ``clipped_matches`` (twin: ``clipped_matches_into``, one segment at a time) equals
  :func:`assay.text.ngrams.clipped_matches_py` exactly, on random id sequences with repeated
  tokens, empty hypotheses and references, one to four reference streams and orders 1-6; ids
  outside the twin's range fall back to the pure function.
"""
from __future__ import annotations

from typing import Any, Callable
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.text import ngrams
from assay.text.ngrams import Encoded, clipped_matches_py, encode_py

MODULE = "assay.text._ngrams_c"
relaxed = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

token = st.one_of(st.sampled_from(["a", "b", "the", ".", "", "é", "😀", "x" * 40]), st.text(max_size=4))
token_lists = st.lists(st.lists(token, max_size=10), max_size=6)


@pytest.fixture(scope="module")
def mod(twin: Callable[[str], Any]) -> Any:
    return twin(MODULE)


def encode_twin(mod: Any, token_lists: list[list[str]], vocab: dict[str, int]) -> Encoded:
    with mock.patch.object(ngrams, "_compiled", mod):
        return ngrams.encode(token_lists, vocab)


def clipped_twin(mod: Any, sides: list[Encoded], max_order: int) -> np.ndarray:
    with mock.patch.object(ngrams, "_compiled", mod):
        return ngrams.clipped_matches(sides, max_order)


@relaxed
@given(calls=st.lists(token_lists, min_size=1, max_size=3), seed=st.lists(token, max_size=3))
def test_encode_equals_pure(mod: Any, calls: list[list[list[str]]], seed: list[str]) -> None:
    vocab_twin = {t: i for i, t in enumerate(dict.fromkeys(seed))}
    vocab_pure = dict(vocab_twin)
    for lists in calls:
        a, b = encode_twin(mod, lists, vocab_twin), encode_py(lists, vocab_pure)
        assert a.ids.dtype == np.int64
        assert a.ids.tolist() == b.ids.tolist() and a.offsets.tolist() == b.offsets.tolist()
        assert list(vocab_twin.items()) == list(vocab_pure.items())


def test_encode_takes_tuples_and_hashables(mod: Any) -> None:
    lists = [("a", "b"), (), ("b", 1, 1.0, True, "a")]   # NLTK passes tuples; 1 == 1.0 == True in a dict
    va: dict[Any, int] = {}
    vb: dict[Any, int] = {}
    assert encode_twin(mod, lists, va).ids.tolist() == encode_py(lists, vb).ids.tolist()
    assert va == vb


def sides_strategy(max_vocab: int = 5) -> st.SearchStrategy[list[list[list[int]]]]:
    """Hypothesis side then 1-4 reference streams, aligned: small vocabularies so n-grams repeat."""
    @st.composite
    def build(draw: st.DrawFn) -> list[list[list[int]]]:
        n_seg = draw(st.integers(0, 5))
        vocab = draw(st.integers(1, max_vocab))
        n_refs = draw(st.integers(1, 4))
        segment = st.lists(st.integers(0, vocab - 1), max_size=14)
        return [[draw(segment) for _ in range(n_seg)] for _ in range(n_refs + 1)]
    return build()


def as_sides(raw: list[list[list[int]]]) -> list[Encoded]:
    vocab: dict[int, int] = {}
    return [encode_py(side, vocab) for side in raw]


@relaxed
@given(raw=sides_strategy(), max_order=st.integers(1, 6))
def test_clipped_matches_equals_pure(mod: Any, raw: list[list[list[int]]], max_order: int) -> None:
    sides = as_sides(raw)
    got = clipped_twin(mod, sides, max_order)
    want = clipped_matches_py(sides, max_order)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert got.tolist() == want.tolist()


@relaxed
@given(raw=sides_strategy(max_vocab=2), max_order=st.integers(1, 9))
def test_clipped_matches_long_repeats(mod: Any, raw: list[list[list[int]]], max_order: int) -> None:
    """Two-token vocabularies: long repeated n-grams, heavy clipping."""
    sides = as_sides([[seg * 3 for seg in side] for side in raw])
    assert clipped_twin(mod, sides, max_order).tolist() == clipped_matches_py(sides, max_order).tolist()


def test_clipped_matches_corner_cases(mod: Any) -> None:
    cases = [
        [[[]], [[]]],                                    # one empty segment
        [[[0, 0, 0, 0]], [[0, 0]], [[0, 0, 0]]],         # clipping by the larger reference
        [[[0, 1, 2, 3, 4]], [[]], [[0, 1, 2, 3, 4]]],    # an empty reference next to a full match
        [[[5, 6], [], [7]], [[6, 5], [1], [7]]],         # empty hypothesis in the middle
        [[list(range(300)) * 2], [list(range(300))]],    # a long segment (the twin's buffers grow)
    ]
    for raw in cases:
        sides = as_sides(raw)
        for order in (1, 2, 4, 5):
            assert clipped_twin(mod, sides, order).tolist() == clipped_matches_py(sides, order).tolist()


def test_ids_outside_the_twin_range_use_the_pure_path(mod: Any) -> None:
    """Ids not from one encode() vocabulary (negative, or sparse and huge) are computed by the pure
    function; the result is the same either way."""
    offsets = np.array([0, 3], dtype=np.int64)
    for ids in ([-1, 2, -1], [0, 2 ** 40, 0]):
        hyp = Encoded(np.array(ids, dtype=np.int64), offsets)
        ref = Encoded(np.array(ids[::-1], dtype=np.int64), offsets)
        with mock.patch.object(ngrams, "clipped_matches_py", wraps=ngrams.clipped_matches_py) as pure:
            got = clipped_twin(mod, [hyp, ref], 3)
        assert pure.called
        assert got.tolist() == clipped_matches_py([hyp, ref], 3).tolist()
