"""The n-gram index of CIDEr's first pass (assay.text.gram_index).

- The compiled pair index (``_gram_index_c.PairIndex``) gives the same ids as the pure one
  (``PairIndexPy``, a dict): ids in order of first insertion, so a ``GramIndex`` holds the same
  numbering on both paths.
- A ``GramIndex`` grown chunk by chunk holds what one sorted table of the whole corpus holds
  (``NgramTable``, built independently by sorting), whatever the chunking and the order of the
  additions; ``lookup`` gives what the table's ``lookup`` gives; it survives pickling and export.
"""
from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.text import gram_index
from assay.text.gram_index import GramIndex, LocalGrams, PairIndexPy
from assay.text.ngram_codes import code_ngrams_py
from assay.text.ngram_table import merge_tables
from conformance.tests.accel.conftest import flat_ids

pairs = st.lists(st.tuples(st.integers(-1, 40), st.integers(-1, 40)), max_size=60)


@given(st.lists(st.tuples(pairs, pairs), min_size=1, max_size=6))
@settings(deadline=None)
def test_compiled_pair_index_numbers_as_the_dict(twin, batches):
    compiled, pure = twin("assay.text._gram_index_c").PairIndex(), PairIndexPy()
    for inserted, found in batches:
        p, t = (np.array([x[k] for x in inserted], dtype=np.int32) for k in (0, 1))
        if len(p) and min(p.min(), t.min()) < 0:
            with pytest.raises(ValueError):
                compiled.insert(p, t)
            with pytest.raises(ValueError):
                pure.insert(p, t)
            keep = (p >= 0) & (t >= 0)
            p, t = p[keep], t[keep]
        np.testing.assert_array_equal(compiled.insert(p, t), pure.insert(p, t))
        q, u = (np.array([x[k] for x in found], dtype=np.int32) for k in (0, 1))
        np.testing.assert_array_equal(compiled.find(q, u), pure.find(q, u))
        assert len(compiled) == len(pure)
    for a, b in zip(compiled.pairs(), pure.pairs()):
        np.testing.assert_array_equal(a, b)


def test_compiled_pair_index_grows_past_its_first_table(twin):
    index = twin("assay.text._gram_index_c").PairIndex()
    rng = np.random.default_rng(7)
    p, t = rng.integers(0, 3000, 50_000).astype(np.int32), rng.integers(0, 3000, 50_000).astype(np.int32)
    ids = index.insert(p, t)
    expect = PairIndexPy().insert(p, t)
    np.testing.assert_array_equal(ids, expect)
    np.testing.assert_array_equal(index.find(p, t), expect)
    assert len(index) == int(expect.max()) + 1


def _chunk_grams(segments: list[list[str]], max_order: int) -> LocalGrams:
    """A chunk's n-grams in its own coding, each valued by its number of occurrences (pure coder)."""
    vocab: dict[str, int] = {}
    ids, offsets = flat_ids([[vocab.setdefault(t, len(vocab)) for t in seg] for seg in segments])
    coded = code_ngrams_py(ids, offsets, max_order, len(vocab))
    values = [np.bincount(coded.codes[n][coded.codes[n] >= 0], minlength=coded.n_codes[n]).astype(np.int64)
              for n in range(max_order)]
    return LocalGrams(list(vocab), coded.prefix, coded.last, values)


WORDS = st.sampled_from(["a", "dog", "cat", "runs", "the", "é", "a b", ""])
corpora = st.lists(st.lists(st.lists(WORDS, max_size=8), max_size=5), min_size=1, max_size=5)


@given(corpora, st.integers(1, 4), st.randoms(use_true_random=False))
@settings(deadline=None)
def test_index_of_chunks_is_the_table_of_the_corpus(chunks, max_order, rng):
    tables = [_chunk_grams(c, max_order) for c in chunks]
    whole = merge_tables([g.table() for g in tables])
    index = GramIndex(max_order)
    order = list(range(len(tables)))
    rng.shuffle(order)
    for k in order:
        index.add(tables[k])
    assert index.as_dict() == whole.as_dict()
    assert index == whole and len(index) == len(whole)
    assert all((v > 0).all() for v in index.values)
    probe = _chunk_grams([s for c in chunks for s in c] + [["zebra", "a", "dog"]], max_order + 1)
    got = index.lookup(probe.tokens, probe.prefix, probe.last, max_order + 1)
    want = whole.lookup(probe.tokens, probe.prefix, probe.last, max_order + 1)
    assert [g.tolist() for g in got] == [w.tolist() for w in want]
    again = pickle.loads(pickle.dumps(index))
    assert again.as_dict() == index.as_dict() and again.tokens == index.tokens
    for a, b in zip(again.values, index.values):
        np.testing.assert_array_equal(a, b)
    copied = GramIndex.of(index.export())
    assert copied.strings() == index.strings()


def test_values_of_one_add_go_to_distinct_ids_and_hypothesis_only_codes_are_left_out():
    grams = LocalGrams(["a", "dog", "cat"], [np.zeros(0, np.int32), np.array([0, 0], np.int32)],
                       [np.zeros(0, np.int32), np.array([1, 2], np.int32)],
                       [np.array([2, 1, 0]), np.array([1, 0])])      # "cat" and "a cat": value 0
    index = GramIndex.of(grams)
    index.add(grams)
    assert index.as_dict() == {("a",): 4, ("dog",): 2, ("a", "dog"): 2}
    assert index.tokens == ["a", "dog"]


def test_an_ngram_whose_prefix_has_no_value_is_refused():
    grams = LocalGrams(["a", "dog"], [np.zeros(0, np.int32), np.array([0], np.int32)],
                       [np.zeros(0, np.int32), np.array([1], np.int32)], [np.array([0, 1]), np.array([1])])
    with pytest.raises(ValueError, match="prefix or last token"):
        GramIndex.of(grams)
    with pytest.raises(ValueError, match="order 3"):
        GramIndex(2).add(_chunk_grams([["a", "b", "c"]], 3))


def test_the_pure_path_uses_the_dict(monkeypatch):
    monkeypatch.setattr(gram_index, "_compiled", None)
    assert isinstance(gram_index.pair_index(), PairIndexPy)
