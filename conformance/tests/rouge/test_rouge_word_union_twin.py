"""The compiled twin of ``lcs_union=words`` (:mod:`assay.metrics.rouge._word_union_c`) equals the pure
specification (:func:`assay.metrics.rouge.word_union.store_counts_py`) exactly, and the third-party
profiles' rows are the same on the compiled and the pure path (their sentence splits ``period`` and
``zh-punct`` go through the compiled Encoder too).

A missing twin fails under ``CI`` and skips locally (``conformance/tests/accel/conftest.py``).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from assay.engine.api import make_config
from assay.metrics.rouge import rows, word_union
from assay.metrics.rouge.measures import Store
from conformance.tests.accel.conftest import import_twin
from conformance.tests.accel.test_rouge_twins import MODULES, path, relaxed

SENTENCES = st.lists(st.lists(st.integers(0, 5), max_size=7), max_size=4)     # repeats and empty sentences


@pytest.fixture(scope="module")
def twin() -> Any:
    return import_twin("assay.metrics.rouge._word_union_c")


@pytest.fixture(scope="module")
def mods() -> dict[str, Any]:
    return {k: import_twin(v) for k, v in MODULES.items()}


@relaxed
@given(st.lists(SENTENCES, min_size=1, max_size=6), st.data(), st.booleans())
def test_store_counts_equal_pure(twin: Any, docs: list[list[list[int]]], data: st.DataObject, sets: bool) -> None:
    n = len(docs)
    pairs = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=10))
    store = Store(docs)
    ph = np.array([h for h, _ in pairs], dtype=np.int64)
    pr = np.array([r for _, r in pairs], dtype=np.int64)
    args = [np.ascontiguousarray(a, dtype=np.int64) for a in
            (store.tokens, store.start, store.length, store.first, store.count, ph, pr)]
    got = twin.store_counts(*args, sets)
    want = word_union.store_counts_py(*args, sets)
    for g, w in zip(got, want):
        assert g.tolist() == w.tolist()
    for k, (h, r) in enumerate(pairs):      # the per-pair specification too
        assert (got[0][k], got[1][k], got[2][k]) == word_union.word_union(docs[h], docs[r], sets)


PIECE = st.sampled_from(["The", "cat", "sat", "on", "the", "mat", "a", "a.", ".", "3.5", "？", "a？b", "?\"", "。",
                         "......", "……", "”", "İstanbul", "departmental", "best", "running", "", " ", "\n"])
TEXT = st.lists(PIECE, max_size=10).map(" ".join)
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("pltrdy-rouge", {"empty_document": "zero"}),
    ("pltrdy-rouge", {"empty_document": "zero", "ngram_counts": "multiset"}),
    ("rouge-chinese", {"empty_document": "zero", "types": "rouge1,rouge2,rougeL,rougeLsum"}),
    ("py-rouge", {}),
]


@relaxed
@given(st.lists(TEXT, min_size=1, max_size=4), st.data(), st.sampled_from(CONFIGS))
def test_thirdparty_rows_equal_pure(mods: dict[str, Any], hyps: list[str], data: st.DataObject,
                                    config: tuple[str, dict[str, Any]]) -> None:
    width = data.draw(st.integers(1, 3))
    refs = [data.draw(st.lists(TEXT, min_size=len(hyps), max_size=len(hyps))) for _ in range(width)]
    cfg, _ = make_config("rouge", config[0], **config[1])
    twin_module = import_twin("assay.metrics.rouge._word_union_c")
    with path(mods, compiled=True), pytest.MonkeyPatch.context() as mp:
        mp.setattr(word_union, "_compiled", twin_module)
        got = rows.segment_rows(hyps, refs, cfg).rows
    with path(mods, compiled=False), pytest.MonkeyPatch.context() as mp:
        mp.setattr(word_union, "_compiled", None)
        want = rows.segment_rows(hyps, refs, cfg).rows
    assert got.tolist() == want.tolist()
