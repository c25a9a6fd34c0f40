"""ROUGE-N on n-gram sets (``ngram_counts=set``): the vectorised counts over a batch's n-gram table
(:func:`assay.metrics.rouge.rows._set_counts_batch`) equal the specification, Python sets of n-gram
tuples per document (:func:`assay.metrics.rouge.rows.set_counts_spec`), on random token-id
documents with repeats, empty documents, documents shorter than n and n-gram ids beyond 2^62
(large vocabularies and n, where the table renumbers the n-grams)."""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.metrics.rouge.measures import PairBatch, Store
from assay.metrics.rouge.rows import _set_counts_batch, set_counts_spec


@st.composite
def batches(draw: st.DrawFn) -> tuple[list[list[int]], np.ndarray, np.ndarray, int, int]:
    vocab = draw(st.sampled_from([1, 3, 8, 1 << 20]))
    docs = draw(st.lists(st.lists(st.integers(0, vocab - 1), max_size=14), min_size=1, max_size=8))
    pairs = draw(st.lists(st.tuples(st.integers(0, len(docs) - 1), st.integers(0, len(docs) - 1)), max_size=12))
    n = draw(st.integers(1, 5))
    ph = np.array([h for h, _ in pairs], dtype=np.int64)
    pr = np.array([r for _, r in pairs], dtype=np.int64)
    return docs, ph, pr, vocab, n


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(batches())
def test_vectorised_set_counts_equal_the_specification(case: tuple) -> None:
    docs, ph, pr, vocab, n = case
    lengths = np.array([len(d) for d in docs], dtype=np.int64)
    tokens = np.array([t for d in docs for t in d], dtype=np.int64)
    store = Store.from_flat(tokens, lengths)
    got = _set_counts_batch(n, PairBatch(store, store, ph, pr, vocab))
    want = set_counts_spec(n, docs, zip(ph.tolist(), pr.tolist()))
    for g, w in zip(got, want):
        assert g.dtype == np.float64
        np.testing.assert_array_equal(g, w)


def test_worked_example() -> None:
    # hyp "a b a b" has bigrams {ab, ba}; ref "a b c" has {ab, bc}: one shared, 2 distinct each
    docs = [[0, 1, 0, 1], [0, 1, 2]]
    store = Store.from_flat(np.array([0, 1, 0, 1, 0, 1, 2], dtype=np.int64), np.array([4, 3], dtype=np.int64))
    got = _set_counts_batch(2, PairBatch(store, store, np.array([0]), np.array([1]), 3))
    assert [float(x[0]) for x in got] == [1.0, 2.0, 2.0]
    assert [float(x[0]) for x in set_counts_spec(2, docs, [(0, 1)])] == [1.0, 2.0, 2.0]
