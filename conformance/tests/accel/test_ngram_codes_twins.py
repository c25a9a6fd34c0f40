"""The compiled n-gram coder (assay.text._ngram_codes_c) names the same n-grams as the pure one
(assay.text.ngram_codes.code_ngrams_py): codes may be numbered differently, nothing else."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.text import ngram_codes
from conformance.tests.accel.conftest import flat_ids


@given(st.lists(st.lists(st.integers(0, 6), max_size=12), min_size=1, max_size=10), st.integers(1, 6))
@settings(deadline=None)
def test_codes_name_the_same_ngrams(twin, lists, max_order):
    mod = twin("assay.text._ngram_codes_c")
    ids, offsets = flat_ids(lists)
    pure = ngram_codes.code_ngrams_py(ids, offsets, max_order, 7)
    codes = np.empty((max_order, len(ids)), dtype=np.int32)
    comp = ngram_codes.Coded(codes, *mod.code_ngrams_into(ids, offsets, max_order, 7, codes))
    for n in range(max_order):
        a, b = pure.codes[n], comp.codes[n]
        np.testing.assert_array_equal(a < 0, b < 0)
        pairs = set(zip(a[a >= 0].tolist(), b[b >= 0].tolist()))
        assert len(pairs) == len(set(a[a >= 0].tolist())) == len(set(b[b >= 0].tolist()))
        if n:
            assert comp.n_codes[n] == pure.n_codes[n] == len(pairs)
            where = np.flatnonzero(b >= 0)
            np.testing.assert_array_equal(comp.prefix[n][b[where]], comp.codes[n - 1][where])
            np.testing.assert_array_equal(comp.last[n][b[where]], ids[where + n])
